#include "ptsim/thermal/grid_model.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>
#include <stdexcept>
#include <string>

#include "package_rc.hpp"
#include "secondary_rc.hpp"

namespace ptsim::thermal {

namespace {

using detail::c_factor;
using detail::slab_c;
using detail::slab_r;

// HotSpot's tolerance for "this number is an integer" and "these lengths are equal".
constexpr double tolerance = 1e-6;
bool near(double a, double b) { return std::abs(a - b) < tolerance; }
int tolerant_ceil(double v) {
  const double nearest = std::floor(v + 0.5);
  return near(v, nearest) ? static_cast<int>(nearest) : static_cast<int>(std::ceil(v));
}
int tolerant_floor(double v) {
  const double nearest = std::floor(v + 0.5);
  return near(v, nearest) ? static_cast<int>(nearest) : static_cast<int>(std::floor(v));
}

// A block's footprint on the grid: cell ranges [i1, i2) x [j1, j2) and the cells it overlaps.
struct footprint {
  int i1 = 0, i2 = 0, j1 = 0, j2 = 0;
  struct cell {
    std::size_t index;  // i * cols + j
    double occupancy;   // overlap area / cell area
  };
  std::vector<cell> cells;
};

// Where the blocks of one floorplan fall on the grid, computed as HotSpot's set_bgmap does, so
// that probe cell ranges (and hence reported temperatures) match it cell for cell.
std::vector<footprint> map_blocks(const floorplan& fp, double dx, double dy, double H,
                                  std::size_t rows, std::size_t cols, double cw, double ch) {
  std::vector<footprint> out;
  const int nr = static_cast<int>(rows), nc = static_cast<int>(cols);
  for (const block& b : fp.blocks()) {
    const double lu = b.x_m + dx, ru = lu + b.width_m;
    const double bu = b.y_m + dy, tu = bu + b.height_m;
    footprint f;
    // Row 0 is the north edge: rows count down from the top.
    f.i1 = std::max(0, nr - tolerant_ceil(tu / ch));
    f.i2 = std::min(nr, nr - tolerant_floor(bu / ch));
    f.j1 = std::max(0, tolerant_floor(lu / cw));
    f.j2 = std::min(nc, tolerant_ceil(ru / cw));
    if (f.i1 >= f.i2 || f.j1 >= f.j2) {
      std::ostringstream msg;
      msg << "grid model: block '" << b.name << "' covers no grid cell (" << rows << " x " << cols
          << " cells of " << cw << " m x " << ch << " m)";
      throw std::invalid_argument(msg.str());
    }
    for (int i = f.i1; i < f.i2; ++i) {
      for (int j = f.j1; j < f.j2; ++j) {
        double occ = 1.0;
        if (!(i > f.i1 && i < f.i2 - 1 && j > f.j1 && j < f.j2 - 1)) {
          // A cell on the footprint's rim: exact overlap, snapped to 0 or 1 within tolerance.
          const double lc = j * cw, rc = (j + 1) * cw;
          const double tc = H - i * ch, bc = H - (i + 1) * ch;
          double oh = std::min(tu, tc) - std::max(bu, bc);
          double ow = std::min(ru, rc) - std::max(lu, lc);
          if (near(oh / ch, 0.0)) oh = 0.0;
          else if (near(oh / ch, 1.0)) oh = ch;
          if (near(ow / cw, 0.0)) ow = 0.0;
          else if (near(ow / cw, 1.0)) ow = cw;
          occ = std::max(0.0, oh) * std::max(0.0, ow) / (ch * cw);
        }
        f.cells.push_back({static_cast<std::size_t>(i) * cols + static_cast<std::size_t>(j), occ});
      }
    }
    out.push_back(std::move(f));
  }
  return out;
}

// The nodes a probe averages (or takes the min / max of), as HotSpot's xlate_temp_g2b.
probe make_probe(const std::string& name, const footprint& f, grid_map_mode mode,
                 std::size_t layer_base, std::size_t cols) {
  probe p;
  p.name = name;
  auto node = [&](int i, int j) {
    return layer_base + static_cast<std::size_t>(i) * cols + static_cast<std::size_t>(j);
  };
  if (mode == grid_map_mode::center) {
    // The centre cell; with an even count along an axis, the mean of the two central ones.
    const int ci1 = (f.i1 + f.i2) / 2, cj1 = (f.j1 + f.j2) / 2;
    const int ci2 = ci1 - ((f.i2 - f.i1) % 2 == 0 ? 1 : 0);
    const int cj2 = cj1 - ((f.j2 - f.j1) % 2 == 0 ? 1 : 0);
    p.nodes = {{node(ci1, cj1), 0.25}, {node(ci2, cj1), 0.25}, {node(ci1, cj2), 0.25},
               {node(ci2, cj2), 0.25}};
    return p;
  }
  const double count = static_cast<double>((f.i2 - f.i1) * (f.j2 - f.j1));
  for (int i = f.i1; i < f.i2; ++i)
    for (int j = f.j1; j < f.j2; ++j) p.nodes.push_back({node(i, j), 1.0 / count});
  p.how = mode == grid_map_mode::min ? reduction::min
        : mode == grid_map_mode::max ? reduction::max
                                     : reduction::mean;
  return p;
}

}  // namespace

std::vector<grid_layer> default_grid_layers(const floorplan& fp, const package_config& pkg,
                                            const secondary_path_config* secondary) {
  grid_layer si;
  si.fp = fp;
  si.lateral = true;
  si.power = true;
  si.conductivity = pkg.k_chip;
  si.heat_capacity = pkg.p_chip;
  si.thickness = pkg.t_chip;
  si.prefix = "";
  grid_layer tim = si;
  tim.power = false;
  tim.conductivity = pkg.k_interface;
  tim.heat_capacity = pkg.p_interface;
  tim.thickness = pkg.t_interface;
  tim.prefix = "iface_";
  if (secondary == nullptr) return {si, tim};
  grid_layer c4 = tim, metal = tim;
  c4.conductivity = c4_underfill.k;
  c4.heat_capacity = c4_underfill.p;
  c4.thickness = secondary->t_c4;
  c4.prefix = "c4_";
  metal.conductivity = metal_layers.k;
  metal.heat_capacity = metal_layers.p;
  metal.thickness = secondary->t_metal;
  metal.prefix = "metal_";
  return {c4, metal, si, tim};
}

namespace {

void check_grid_config(const grid_config& cfg) {
  detail::check_package(cfg.package);
  if (cfg.layers.empty()) throw std::invalid_argument("grid model: no die layers");
  if (cfg.rows == 0 || cfg.cols == 0)
    throw std::invalid_argument("grid model: rows and cols must be positive");
  if (cfg.secondary && cfg.per_block_materials)
    throw std::invalid_argument("grid model: the secondary heat path is not modelled with per-block materials (detailed_3D)");
  for (std::size_t k = 0; k < cfg.layers.size(); ++k) {
    const grid_layer& l = cfg.layers[k];
    if (!l.channels) continue;
    const microchannel_network& n = l.channels->network;
    if (!cfg.per_block_materials)
      throw std::invalid_argument("grid model: microchannel layer '" + l.prefix +
                                  "' needs per-block materials (HotSpot: -detailed_3D on)");
    if (k == 0)
      throw std::invalid_argument("grid model: microchannel layer '" + l.prefix +
                                  "' cannot be the first layer (HotSpot takes the die's size from it and "
                                  "links it asymmetrically)");
    if (n.rows != cfg.rows || n.cols != cfg.cols || n.cells.size() != n.rows * n.cols)
      throw std::invalid_argument("grid model: microchannel network " + n.source + " has " + std::to_string(n.rows) +
                                  " x " + std::to_string(n.cols) + " cells, the grid " + std::to_string(cfg.rows) +
                                  " x " + std::to_string(cfg.cols));
    if (l.fp.size() != n.cells.size())
      throw std::invalid_argument("grid model: microchannel layer '" + l.prefix +
                                  "' needs one block per cell (microchannel_floorplan)");
  }
  for (const grid_layer& l : cfg.layers) {
    if (l.fp.size() == 0) throw std::invalid_argument("grid model: a layer has no blocks");
    if (!(l.conductivity > 0) || !(l.heat_capacity > 0) || !(l.thickness > 0) ||
        !std::isfinite(l.conductivity + l.heat_capacity + l.thickness))
      throw std::invalid_argument("grid model: layer '" + l.prefix +
                                  "' needs a positive conductivity, heat capacity and thickness");
  }
}

// The grid: die layers, then the spreader and the sink, each rows x cols cells over the die.
struct grid_geometry {
  std::size_t nd = 0, nl = 0;  // die layers; all layers (+ spreader + sink)
  std::size_t rows = 0, cols = 0, nrc = 0;
  double W = 0, H = 0, cw = 0, ch = 0, cell_area = 0;
  std::vector<std::pair<double, double>> shift;  // each die layer's shift onto the grid
  std::size_t node(std::size_t l, std::size_t i, std::size_t j) const { return l * nrc + i * cols + j; }
};

// Die extent and each layer's shift onto the grid (origin at the die's lower-left corner).
grid_geometry grid_geometry_of(const grid_config& cfg) {
  grid_geometry g;
  g.nd = cfg.layers.size();
  g.nl = g.nd + 2;
  g.rows = cfg.rows;
  g.cols = cfg.cols;
  g.nrc = g.rows * g.cols;
  bool same_extent = true;
  for (const grid_layer& l : cfg.layers) {
    same_extent = same_extent && near(l.fp.width(), cfg.layers[0].fp.width()) &&
                  near(l.fp.height(), cfg.layers[0].fp.height());
  }
  g.W = cfg.layers[0].fp.width();
  g.H = cfg.layers[0].fp.height();
  g.shift.resize(g.nd);
  if (same_extent) {
    for (std::size_t l = 0; l < g.nd; ++l) g.shift[l] = {-cfg.layers[l].fp.min_x(), -cfg.layers[l].fp.min_y()};
  } else {
    double x0 = cfg.layers[0].fp.min_x(), y0 = cfg.layers[0].fp.min_y();
    double x1 = x0 + g.W, y1 = y0 + g.H;
    for (const grid_layer& l : cfg.layers) {
      x0 = std::min(x0, l.fp.min_x());
      y0 = std::min(y0, l.fp.min_y());
      x1 = std::max(x1, l.fp.min_x() + l.fp.width());
      y1 = std::max(y1, l.fp.min_y() + l.fp.height());
    }
    g.W = x1 - x0;
    g.H = y1 - y0;
    for (std::size_t l = 0; l < g.nd; ++l) g.shift[l] = {-x0, -y0};
  }
  detail::check_die_fits(cfg.package, g.W, g.H);
  g.cw = g.W / static_cast<double>(g.cols);
  g.ch = g.H / static_cast<double>(g.rows);
  g.cell_area = g.cw * g.ch;
  return g;
}

// Per-cell resistances (HotSpot's rx = cw/(k ch t), ry = ch/(k cw t), rz = t/(k cw ch)) and
// capacitance.
struct cell_rc {
  double rx, ry, rz, c;
};

struct grid_cells {
  std::vector<std::vector<cell_rc>> rc;  // [layer][cell]
  // detailed_3D: cells whose values come from their blocks (these conduct laterally even in a
  // layer without lateral flow, as HotSpot's per-cell resistances ignore that flag).
  std::vector<std::vector<char>> from_blocks;
  // Microchannel layers: which cells hold coolant, and the coolant's heat transfer coefficient.
  std::vector<std::vector<char>> fluid;
  std::vector<double> htc;
};

// Microchannel layers' coolant cells.
void mark_fluid(const grid_config& cfg, const grid_geometry& g, grid_cells& cells) {
  cells.fluid.assign(g.nl, std::vector<char>(g.nrc, 0));
  cells.htc.assign(g.nl, 0.0);
  for (std::size_t l = 0; l < g.nd; ++l) {
    if (!cfg.layers[l].channels) continue;
    const microchannel_layer& ch = *cfg.layers[l].channels;
    cells.htc[l] = ch.config.htc;
    for (std::size_t c = 0; c < g.nrc; ++c) cells.fluid[l][c] = is_fluid(ch.network.cells[c]) ? 1 : 0;
  }
}

double layer_k(const grid_config& cfg, const grid_geometry& g, std::size_t l) {
  return l < g.nd ? cfg.layers[l].conductivity : (l == g.nd ? cfg.package.k_spreader : cfg.package.k_sink);
}
double layer_p(const grid_config& cfg, const grid_geometry& g, std::size_t l) {
  return l < g.nd ? cfg.layers[l].heat_capacity : (l == g.nd ? cfg.package.p_spreader : cfg.package.p_sink);
}
double layer_t(const grid_config& cfg, const grid_geometry& g, std::size_t l) {
  return l < g.nd ? cfg.layers[l].thickness : (l == g.nd ? cfg.package.t_spreader : cfg.package.t_sink);
}

cell_rc uniform_cell(const grid_geometry& g, double k, double p, double t) {
  return cell_rc{slab_r(k, g.cw, g.ch * t), slab_r(k, g.ch, g.cw * t), slab_r(k, t, g.cell_area),
                 slab_c(p, t, g.cell_area)};
}

// Every layer's own material in every cell; the sink's rz includes its area share of r_convec.
grid_cells uniform_cells(const grid_config& cfg, const grid_geometry& g) {
  const package_config& pkg = cfg.package;
  const double sink_area = pkg.s_sink * pkg.s_sink;
  grid_cells cells;
  cells.rc.resize(g.nl);
  cells.from_blocks.assign(g.nl, std::vector<char>(g.nrc, 0));
  for (std::size_t l = 0; l < g.nl; ++l) {
    cell_rc base = uniform_cell(g, layer_k(cfg, g, l), layer_p(cfg, g, l), layer_t(cfg, g, l));
    if (l == g.nl - 1) {
      base.rz += pkg.r_convec * sink_area / g.cell_area;
      base.c += c_factor * pkg.c_convec * g.cell_area / sink_area;
    }
    if (l == 0 && cfg.secondary) {
      const double pcb_area = cfg.secondary->s_pcb * cfg.secondary->s_pcb;
      base.c += c_factor * cfg.secondary->c_convec_sec * g.cell_area / pcb_area;
    }
    cells.rc[l].assign(g.nrc, base);
  }
  return cells;
}

// HotSpot's detailed_3D: a cell takes the values of the first block covering >= 95 % of it;
// otherwise the occupancy-weighted parallel conductance of its blocks, in floorplan order,
// and the layer's capacitance. Blocks without material columns use the layer's.
void apply_block_materials(const grid_layer& ly, const grid_geometry& g, const std::vector<footprint>& map,
                           std::vector<cell_rc>& rc, std::vector<char>& from_blocks) {
  constexpr double lock_occupancy = 0.95;
  struct acc {
    bool any = false, lock = false;
    double gx = 0, gy = 0, gz = 0, c = 0;
  };
  std::vector<acc> a(g.nrc);
  for (std::size_t b = 0; b < map.size(); ++b) {
    const bool has = b < ly.materials.size() && ly.materials[b].has_value();
    const double k = has ? 1.0 / ly.materials[b]->resistivity_mK_per_W : ly.conductivity;
    const double p = has ? ly.materials[b]->heat_capacity_J_per_m3K : ly.heat_capacity;
    const cell_rc full = uniform_cell(g, k, p, ly.thickness);
    for (const auto& cell : map[b].cells) {
      acc& x = a[cell.index];
      if (x.any && x.lock) continue;
      const double occ = cell.occupancy;
      if (occ >= lock_occupancy) {
        x = {true, true, 1 / full.rx, 1 / full.ry, 1 / full.rz, full.c};
      } else if (!x.any) {
        x = {true, false, occ / full.rx, occ / full.ry, occ / full.rz, 0};
      } else {
        x.gx += occ / full.rx;
        x.gy += occ / full.ry;
        x.gz += occ / full.rz;
      }
    }
  }
  for (std::size_t c = 0; c < g.nrc; ++c) {
    // Cells no block touches (HotSpot would fail) keep the layer's values.
    if (!a[c].any || !(a[c].gx > 0 && a[c].gy > 0 && a[c].gz > 0)) continue;
    from_blocks[c] = 1;
    rc[c].rx = 1 / a[c].gx;
    rc[c].ry = 1 / a[c].gy;
    rc[c].rz = 1 / a[c].gz;
    if (a[c].lock) rc[c].c = a[c].c;
  }
}

// Lateral links within each layer and vertical links down to the sink, then the ambient.
void connect_cells(rc_network& net, const grid_config& cfg, const grid_geometry& g, const grid_cells& cells) {
  const bool swap = cfg.hotspot_lateral, detailed = cfg.per_block_materials;
  const std::size_t rows = g.rows, cols = g.cols;
  for (std::size_t l = 0; l < g.nl; ++l) {
    const bool layer_lateral = l >= g.nd || cfg.layers[l].lateral;
    const auto& r = cells.rc[l];
    const auto& fb = cells.from_blocks[l];
    const auto& fl = cells.fluid[l];
    const double t = layer_t(cfg, g, l);
    // Coolant to solid: the solid's half cell, then convection over the shared face.
    auto film = [&](double half_r, double face) { return half_r + 1.0 / (cells.htc[l] * face); };
    for (std::size_t i = 0; i < rows; ++i) {
      for (std::size_t j = 0; j < cols; ++j) {
        const std::size_t c = i * cols + j, n = g.node(l, i, j);
        // Lateral: half a cell on each side of the shared face.
        if ((layer_lateral || (fb[c] && j + 1 < cols && fb[c + 1])) && j + 1 < cols) {
          double rr = swap ? (r[c].ry + r[c + 1].ry) / 2 : (r[c].rx + r[c + 1].rx) / 2;
          if (fl[c] != fl[c + 1]) {
            const std::size_t s = fl[c] ? c + 1 : c;
            rr = film((swap ? r[s].ry : r[s].rx) / 2, g.ch * t);
          }
          net.connect(n, n + 1, 1.0 / rr);
        }
        if ((layer_lateral || (fb[c] && i + 1 < rows && fb[c + cols])) && i + 1 < rows) {
          double rr = swap ? (r[c].rx + r[c + cols].rx) / 2 : (r[c].ry + r[c + cols].ry) / 2;
          if (fl[c] != fl[c + cols]) {
            const std::size_t s = fl[c] ? c + cols : c;
            rr = film((swap ? r[s].rx : r[s].ry) / 2, g.cw * t);
          }
          net.connect(n, n + cols, 1.0 / rr);
        }
        if (l + 1 == g.nl) {
          net.connect_ambient(n, 1.0 / r[c].rz);
        } else if (!detailed) {
          // A node sits at its layer's top, so the link down spans this layer.
          net.connect(n, n + g.nrc, 1.0 / r[c].rz);
        } else {
          // detailed_3D: nodes at layer centres, except the top layer's (at its top).
          const double below = cells.rc[l + 1][c].rz / 2, here = l == 0 ? r[c].rz : r[c].rz / 2;
          const bool f_here = fl[c] != 0, f_below = cells.fluid[l + 1][c] != 0;
          if (f_here == f_below) {
            net.connect(n, n + g.nrc, 1.0 / (here + below));
          } else {
            // Coolant to the solid above or below: the solid's part (the top layer's whole
            // cell, as the top layer's node is at its top), then convection over the cell.
            const double htc = f_here ? cells.htc[l] : cells.htc[l + 1];
            net.connect(n, n + g.nrc, 1.0 / ((f_here ? below : here) + 1.0 / (htc * g.cell_area)));
          }
        }
      }
    }
  }
}

// Border cells of the spreader and the sink to the periphery node of their edge: half a cell
// plus the trapezoid's resistance, which all the edge's cells share in parallel.
void connect_periphery(rc_network& net, const grid_config& cfg, const grid_geometry& g, const detail::package_rc& rc,
                       std::size_t pk) {
  for (std::size_t l = g.nd; l < g.nl; ++l) {
    const bool sp = l == g.nd;
    const double k = layer_k(cfg, g, l), t = layer_t(cfg, g, l);
    const double rx_half = slab_r(k, g.cw, g.ch * t) / 2, ry_half = slab_r(k, g.ch, g.cw * t) / 2;
    const std::size_t per = sp ? pk : pk + 4;
    const auto& r1 = sp ? rc.r_sp1 : rc.r_hs1;
    const double r_ns = ry_half + static_cast<double>(g.cols) * r1[detail::north];
    const double r_ew = rx_half + static_cast<double>(g.rows) * r1[detail::west];
    for (std::size_t j = 0; j < g.cols; ++j) {
      net.connect(g.node(l, 0, j), per + detail::north, 1.0 / r_ns);
      net.connect(g.node(l, g.rows - 1, j), per + detail::south, 1.0 / r_ns);
    }
    for (std::size_t i = 0; i < g.rows; ++i) {
      net.connect(g.node(l, i, g.cols - 1), per + detail::east, 1.0 / r_ew);
      net.connect(g.node(l, i, 0), per + detail::west, 1.0 / r_ew);
    }
  }
}

// Probes: every layer's blocks (the package layers reuse the last die layer's floorplan), then
// the 12 package nodes. Returns where each layer's probes start.
std::vector<std::size_t> add_grid_probes(compact_model& m, const grid_config& cfg, const grid_geometry& g,
                                         const std::vector<std::vector<footprint>>& maps, std::size_t pk) {
  std::vector<std::size_t> probe_base(g.nl);
  for (std::size_t l = 0; l < g.nl; ++l) {
    const std::size_t src = std::min(l, g.nd - 1);
    const std::string prefix = l < g.nd ? cfg.layers[l].prefix : (l == g.nd ? "hsp_" : "hsink_");
    probe_base[l] = m.probes.size();
    const auto& blocks = cfg.layers[src].fp.blocks();
    for (std::size_t b = 0; b < blocks.size(); ++b)
      m.probes.push_back(make_probe(prefix + blocks[b].name, maps[src][b], cfg.map_mode, l * g.nrc, g.cols));
  }
  m.top_probes = cfg.layers[0].fp.size();
  for (std::size_t k = pk; k < m.net.size(); ++k) m.probes.push_back({m.net.name(k), {{k, 1.0}}, reduction::mean});
  return probe_base;
}

// Power inputs: the blocks of the power layers, spread by overlap area.
void add_power_inputs(compact_model& m, const grid_config& cfg, const grid_geometry& g,
                      const std::vector<std::vector<footprint>>& maps, const std::vector<std::size_t>& probe_base) {
  m.groups = 0;
  for (std::size_t l = 0; l < g.nd; ++l) {
    if (!cfg.layers[l].power) continue;
    const auto& blocks = cfg.layers[l].fp.blocks();
    for (std::size_t b = 0; b < blocks.size(); ++b) {
      power_input in;
      in.name = blocks[b].name;
      in.group = m.groups;
      in.probe = probe_base[l] + b;
      in.area_m2 = blocks[b].area();
      for (const auto& c : maps[l][b].cells)
        if (c.occupancy > 0) in.spread.push_back({l * g.nrc + c.index, c.occupancy * g.cell_area / in.area_m2});
      m.inputs.push_back(std::move(in));
    }
    ++m.groups;
  }
}

// Initial temperatures: a cell takes the overlap-weighted mean of the blocks over it (HotSpot
// sums occupancy x temperature, the same when blocks tile the cell); a cell no block touches
// takes the mean of its layer's blocks; a package node its own probe.
void set_initial_weights(compact_model& m, const grid_config& cfg, const grid_geometry& g,
                         const std::vector<std::vector<footprint>>& maps, const std::vector<std::size_t>& probe_base,
                         std::size_t pk) {
  m.init_from_probes.assign(m.net.size(), {});
  for (std::size_t l = 0; l < g.nl; ++l) {
    const std::size_t src = std::min(l, g.nd - 1);
    const std::size_t nb = cfg.layers[src].fp.size();
    std::vector<std::vector<node_weight>> per_cell(g.nrc);
    for (std::size_t b = 0; b < nb; ++b)
      for (const auto& c : maps[src][b].cells)
        if (c.occupancy > 0) per_cell[c.index].push_back({probe_base[l] + b, c.occupancy});
    for (std::size_t c = 0; c < g.nrc; ++c) {
      auto& w = per_cell[c];
      double sum = 0;
      for (const node_weight& x : w) sum += x.weight;
      if (sum > 0) {
        for (node_weight& x : w) x.weight /= sum;
      } else {
        for (std::size_t b = 0; b < nb; ++b) w.push_back({probe_base[l] + b, 1.0 / static_cast<double>(nb)});
      }
      m.init_from_probes[l * g.nrc + c] = std::move(w);
    }
  }
  const std::size_t n_package = m.net.size() - pk;
  for (std::size_t k = 0; k < n_package; ++k) m.init_from_probes[pk + k] = {{m.probes.size() - n_package + k, 1.0}};
}

// The secondary path's package layers (HotSpot's order: PCB, solder balls, substrate) over the
// first layer's floorplan, before the die layers.
grid_config with_secondary_layers(const grid_config& in) {
  grid_config out = in;
  out.layers.clear();
  const secondary_path_config& s = *in.secondary;
  const std::pair<const char*, std::pair<secondary_material, double>> layers[] = {
      {"pcb_", {pcb, s.t_pcb}}, {"solder_", {solder_balls, s.t_solder}}, {"sub_", {substrate, s.t_sub}}};
  for (const auto& [prefix, mt] : layers) {
    grid_layer l;
    l.fp = in.layers[0].fp;
    l.lateral = true;
    l.power = false;
    l.conductivity = mt.first.k;
    l.heat_capacity = mt.first.p;
    l.thickness = mt.second;
    l.prefix = prefix;
    out.layers.push_back(std::move(l));
  }
  out.layers.insert(out.layers.end(), in.layers.begin(), in.layers.end());
  return out;
}

}  // namespace

compact_model build_grid_model(const grid_config& cfg_in) {
  check_grid_config(cfg_in);
  grid_config expanded;
  if (cfg_in.secondary) expanded = with_secondary_layers(cfg_in);
  const grid_config& cfg = cfg_in.secondary ? expanded : cfg_in;
  const grid_geometry g = grid_geometry_of(cfg);
  if (cfg.secondary) detail::check_secondary(*cfg.secondary, g.W, g.H);
  std::vector<std::vector<footprint>> maps(g.nd);
  for (std::size_t l = 0; l < g.nd; ++l)
    maps[l] = map_blocks(cfg.layers[l].fp, g.shift[l].first, g.shift[l].second, g.H, g.rows, g.cols, g.cw, g.ch);

  grid_cells cells = uniform_cells(cfg, g);
  mark_fluid(cfg, g, cells);
  if (cfg.per_block_materials)
    for (std::size_t l = 0; l < g.nd; ++l)
      apply_block_materials(cfg.layers[l], g, maps[l], cells.rc[l], cells.from_blocks[l]);

  compact_model m;
  for (std::size_t l = 0; l < g.nl; ++l)
    for (std::size_t i = 0; i < g.rows; ++i)
      for (std::size_t j = 0; j < g.cols; ++j)
        m.net.add_node("layer_" + std::to_string(l) + "_cell_" + std::to_string(i) + "_" + std::to_string(j),
                       cells.rc[l][i * g.cols + j].c);
  const detail::package_rc rc = detail::compute_package_rc(cfg.package, g.W, g.H);
  const std::size_t pk = detail::add_package_nodes(m.net, cfg.package, rc);
  connect_cells(m.net, cfg, g, cells);
  connect_periphery(m.net, cfg, g, rc, pk);
  for (std::size_t l = 0; l < g.nd; ++l)
    if (cfg.layers[l].channels)
      add_coolant_flow(m.net, g.node(l, 0, 0), *cfg.layers[l].channels, g.cw, g.ch, cfg.layers[l].thickness);
  if (cfg.secondary) {
    // The PCB (layer 0) convects from every cell: its area share of r_convec_sec.
    const double r_cell = cfg.secondary->r_convec_sec * cfg.secondary->s_pcb * cfg.secondary->s_pcb / g.cell_area;
    for (std::size_t c = 0; c < g.nrc; ++c) m.net.connect_ambient(g.node(0, 0, 0) + c, 1.0 / r_cell);
    detail::secondary_cells sc;
    sc.pcb = g.node(0, 0, 0);
    sc.solder = g.node(1, 0, 0);
    sc.sub = g.node(2, 0, 0);
    sc.rows = g.rows;
    sc.cols = g.cols;
    sc.cw = g.cw;
    sc.ch = g.ch;
    detail::add_secondary_nodes(m.net, *cfg.secondary, g.W, g.H, sc);
  }

  const std::vector<std::size_t> probe_base = add_grid_probes(m, cfg, g, maps, pk);
  add_power_inputs(m, cfg, g, maps, probe_base);
  set_initial_weights(m, cfg, g, maps, probe_base, pk);
  m.grid_layers = g.nl;
  m.grid_rows = g.rows;
  m.grid_cols = g.cols;
  return m;
}

}  // namespace ptsim::thermal
