#include "secondary_rc.hpp"

#include <array>
#include <cmath>
#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>

#include "package_rc.hpp"

namespace ptsim::thermal::detail {

void check_secondary(const secondary_path_config& s, double W, double H) {
  const std::array<std::pair<const char*, double>, 10> values{{
      {"r_convec_sec", s.r_convec_sec}, {"c_convec_sec", s.c_convec_sec}, {"t_metal", s.t_metal},
      {"t_c4", s.t_c4}, {"s_sub", s.s_sub}, {"t_sub", s.t_sub}, {"s_solder", s.s_solder},
      {"t_solder", s.t_solder}, {"s_pcb", s.s_pcb}, {"t_pcb", s.t_pcb}}};
  for (const auto& [name, v] : values) {
    const bool zero_ok = std::string(name) == "c_convec_sec";
    if (!std::isfinite(v) || !(v > 0 || (zero_ok && v == 0)))
      throw std::invalid_argument(std::string("secondary path: ") + name + " must be positive and finite");
  }
  // As for the spreader: equal sizes would leave periphery nodes of zero area.
  for (const auto& [name, side] : {std::pair<const char*, double>{"s_sub", s.s_sub}, {"s_solder", s.s_solder}}) {
    if (!(W < side && H < side)) {
      std::ostringstream msg;
      msg << "secondary path: the die (" << W << " m x " << H << " m) must be smaller than " << name << " ("
          << side << " m square)";
      throw std::invalid_argument(msg.str());
    }
  }
  if (!(s.s_solder < s.s_pcb)) {
    std::ostringstream msg;
    msg << "secondary path: s_solder (" << s.s_solder << " m) must be smaller than s_pcb (" << s.s_pcb << " m)";
    throw std::invalid_argument(msg.str());
  }
}

namespace {

double trapezoid(double side, int d, double W, double H) {
  return is_x(d) ? (side + H) * (side - W) / 4.0 : (side + W) * (side - H) / 4.0;
}

// Die edge to the trapezoid's middle: length (side - die)/4, mean width (side + 3 die)/4
// (inner half) or (3 side + die)/4 (outer half).
double ring_lateral(double k, double side, double t, int d, bool outer, double W, double H) {
  const double len = is_x(d) ? (side - W) / 4.0 : (side - H) / 4.0;
  const double die = is_x(d) ? H : W;
  const double width = outer ? (3.0 * side + die) / 4.0 : (side + 3.0 * die) / 4.0;
  return slab_r(k, len, width * t);
}

}  // namespace

double secondary_r1(double k, double side, double t, int d, double W, double H) {
  return ring_lateral(k, side, t, d, false, W, H);
}

secondary_rings add_secondary_rings(rc_network& net, const secondary_path_config& s, double W, double H,
                                    std::size_t board_sink) {
  // Each layer outside the die is cut along its diagonals into W/E and N/S trapezoids, as the
  // spreader is (package_rc.cpp); the PCB's inner ring lies under the solder-ball field and
  // its outer ring reaches s_pcb.
  const double pcb_area = s.s_pcb * s.s_pcb;
  const double outer_area = (pcb_area - s.s_solder * s.s_solder) / 4.0;
  const double r_pcb = slab_r(pcb.k, (s.s_pcb - s.s_solder) / 4.0, (s.s_pcb + 3.0 * s.s_solder) / 4.0 * s.t_pcb);
  auto trap = [&](double side, int d) { return trapezoid(side, d, W, H); };

  const std::size_t first = net.size();
  const secondary_rings r{first, first + 4, first + 8, first + 12};
  for (int d = 0; d < 4; ++d)
    net.add_node("inode_" + std::to_string(12 + d), slab_c(substrate.p, s.t_sub, trap(s.s_sub, d)));
  for (int d = 0; d < 4; ++d)
    net.add_node("inode_" + std::to_string(16 + d), slab_c(solder_balls.p, s.t_solder, trap(s.s_solder, d)));
  // The PCB's nodes carry their area share of the convection capacitance, as the sink's do.
  for (int d = 0; d < 4; ++d) {
    const double a = trap(s.s_solder, d);
    net.add_node("inode_" + std::to_string(20 + d), slab_c(pcb.p, s.t_pcb, a) + c_factor * s.c_convec_sec * a / pcb_area);
  }
  for (int d = 0; d < 4; ++d)
    net.add_node("inode_" + std::to_string(24 + d),
                 slab_c(pcb.p, s.t_pcb, outer_area) + c_factor * s.c_convec_sec * outer_area / pcb_area);

  auto to_board_sink = [&](std::size_t n, double g) {
    if (board_sink == to_ambient) net.connect_ambient(n, g);
    else net.connect(n, board_sink, g);
  };
  for (std::size_t d = 0; d < 4; ++d) {
    const int di = static_cast<int>(d);
    // HotSpot links the substrate's ring to the solder's through the solder's thickness and
    // the solder's ring to the PCB's through the PCB's.
    net.connect(r.sub + d, r.solder + d, 1.0 / slab_r(solder_balls.k, s.t_solder, trap(s.s_solder, di)));
    net.connect(r.solder + d, r.pcb_in + d, 1.0 / slab_r(pcb.k, s.t_pcb, trap(s.s_solder, di)));
    net.connect(r.pcb_in + d, r.pcb_out + d, 1.0 / (ring_lateral(pcb.k, s.s_solder, s.t_pcb, di, true, W, H) + r_pcb));
    // Convection: each node's area share of r_convec_sec (no conduction term, as HotSpot).
    to_board_sink(r.pcb_in + d, trap(s.s_solder, di) / (s.r_convec_sec * pcb_area));
    to_board_sink(r.pcb_out + d, outer_area / (s.r_convec_sec * pcb_area));
  }
  return r;
}

void add_secondary_nodes(rc_network& net, const secondary_path_config& s, double W, double H,
                         const secondary_cells& g) {
  const secondary_rings rn = add_secondary_rings(net, s, W, H);
  // Edge cells to their side's node: half a cell plus the trapezoid's inner half, shared by
  // the edge's cells in parallel (as the spreader's; HotSpot's rx/ry naming kept).
  struct ring {
    std::size_t layer_base, node;
    secondary_material m;
    double t, side;
  };
  const ring rings[] = {{g.sub, rn.sub, substrate, s.t_sub, s.s_sub},
                        {g.solder, rn.solder, solder_balls, s.t_solder, s.s_solder},
                        {g.pcb, rn.pcb_in, pcb, s.t_pcb, s.s_solder}};
  for (const ring& r : rings) {
    const double rx_half = slab_r(r.m.k, g.cw, g.ch * r.t) / 2, ry_half = slab_r(r.m.k, g.ch, g.cw * r.t) / 2;
    const double r_ns = ry_half + static_cast<double>(g.cols) * secondary_r1(r.m.k, r.side, r.t, north, W, H);
    const double r_ew = rx_half + static_cast<double>(g.rows) * secondary_r1(r.m.k, r.side, r.t, west, W, H);
    for (std::size_t j = 0; j < g.cols; ++j) {
      net.connect(r.layer_base + j, r.node + north, 1.0 / r_ns);
      net.connect(r.layer_base + (g.rows - 1) * g.cols + j, r.node + south, 1.0 / r_ns);
    }
    for (std::size_t i = 0; i < g.rows; ++i) {
      net.connect(r.layer_base + i * g.cols + g.cols - 1, r.node + east, 1.0 / r_ew);
      net.connect(r.layer_base + i * g.cols, r.node + west, 1.0 / r_ew);
    }
  }
}

}  // namespace ptsim::thermal::detail
