#include "ptsim/thermal/package.hpp"

#include <array>
#include <cmath>
#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>

namespace ptsim::thermal {

namespace {

// HotSpot's lumping factor; it multiplies every capacitance, the convection one included.
constexpr double c_factor = 0.333;
// HotSpot's tolerance for "this block edge lies on the die border" (m).
constexpr double border_tolerance_m = 1e-6;

/// Resistance of a slab (K/W): length L along the flow, cross-section A.
double slab_r(double k, double length, double area) { return length / (k * area); }
/// Lumped capacitance (J/K) of a slab of volumetric heat capacity p, thickness t, area A.
double slab_c(double p, double t, double area) { return c_factor * p * t * area; }

enum side { west = 0, east = 1, north = 2, south = 3 };
bool is_x(int d) { return d == west || d == east; }

// One conducting layer of the stack, for the lateral formulas that all layers share.
struct layer {
  double k, t;
};

void check_config(const package_config& pkg) {
  const std::array<std::pair<const char*, double>, 14> values{{
      {"t_chip", pkg.t_chip}, {"k_chip", pkg.k_chip}, {"p_chip", pkg.p_chip},
      {"t_interface", pkg.t_interface}, {"k_interface", pkg.k_interface},
      {"p_interface", pkg.p_interface}, {"s_spreader", pkg.s_spreader},
      {"t_spreader", pkg.t_spreader}, {"k_spreader", pkg.k_spreader},
      {"p_spreader", pkg.p_spreader}, {"s_sink", pkg.s_sink}, {"t_sink", pkg.t_sink},
      {"k_sink", pkg.k_sink}, {"p_sink", pkg.p_sink}}};
  for (const auto& [name, v] : values) {
    if (!std::isfinite(v) || !(v > 0))
      throw std::invalid_argument(std::string("package: ") + name + " must be positive and finite");
  }
  if (!std::isfinite(pkg.r_convec) || !(pkg.r_convec > 0))
    throw std::invalid_argument("package: r_convec must be positive and finite");
  if (!std::isfinite(pkg.c_convec) || pkg.c_convec < 0)
    throw std::invalid_argument("package: c_convec must be non-negative and finite");
}

}  // namespace

rc_network build_block_model(const floorplan& fp, const package_config& pkg) {
  check_config(pkg);
  const std::size_t n = fp.size();
  if (n == 0) throw std::invalid_argument("package: the floorplan has no blocks");
  const double W = fp.width(), H = fp.height();
  const double s_sp = pkg.s_spreader, s_hs = pkg.s_sink;
  // Equality would leave zero-area periphery nodes (zero capacitance, zero conductance),
  // so the die must be strictly smaller than the spreader, and the spreader than the sink.
  if (!(W < s_sp && H < s_sp)) {
    std::ostringstream msg;
    msg << "package: the die (" << W << " m x " << H << " m) must be smaller than the spreader ("
        << s_sp << " m square)";
    throw std::invalid_argument(msg.str());
  }
  if (!(s_sp < s_hs)) {
    std::ostringstream msg;
    msg << "package: the spreader (" << s_sp << " m) must be smaller than the sink (" << s_hs
        << " m)";
    throw std::invalid_argument(msg.str());
  }

  const layer silicon{pkg.k_chip, pkg.t_chip}, tim{pkg.k_interface, pkg.t_interface},
      spreader{pkg.k_spreader, pkg.t_spreader}, sink{pkg.k_sink, pkg.t_sink};
  const double sink_area = s_hs * s_hs;
  // Spreader outside the die cut along its diagonals into W/E and N/S trapezoids, and the
  // sink outside the spreader in four equal quarters.
  const double a_x = (s_sp + H) * (s_sp - W) / 4.0;
  const double a_y = (s_sp + W) * (s_sp - H) / 4.0;
  const double a_o = (s_hs * s_hs - s_sp * s_sp) / 4.0;
  auto side_area = [&](int d) { return is_x(d) ? a_x : a_y; };

  rc_network net;
  const auto& blocks = fp.blocks();
  auto sink_cap = [&](double area) {
    // The sink's own heat capacity plus its area share of the lumped convection capacitance.
    return slab_c(pkg.p_sink, pkg.t_sink, area) + c_factor * pkg.c_convec * area / sink_area;
  };
  for (const block& b : blocks) net.add_node(b.name, slab_c(pkg.p_chip, pkg.t_chip, b.area()));
  for (const block& b : blocks)
    net.add_node("iface_" + b.name, slab_c(pkg.p_interface, pkg.t_interface, b.area()));
  for (const block& b : blocks)
    net.add_node("hsp_" + b.name, slab_c(pkg.p_spreader, pkg.t_spreader, b.area()));
  for (const block& b : blocks) net.add_node("hsink_" + b.name, sink_cap(b.area()));
  const std::size_t sp_per = 4 * n, hs_inner = 4 * n + 4, hs_outer = 4 * n + 8;
  for (int d = 0; d < 4; ++d)
    net.add_node("inode_" + std::to_string(d), slab_c(pkg.p_spreader, pkg.t_spreader, side_area(d)));
  for (int d = 0; d < 4; ++d) net.add_node("inode_" + std::to_string(4 + d), sink_cap(side_area(d)));
  for (int d = 0; d < 4; ++d) net.add_node("inode_" + std::to_string(8 + d), sink_cap(a_o));

  auto connect_r = [&](std::size_t a, std::size_t b, double r) { net.connect(a, b, 1.0 / r); };
  auto convection_r = [&](double area) {
    // Conduction through the sink base plus this node's area share of r_convec.
    return slab_r(pkg.k_sink, pkg.t_sink, area) + pkg.r_convec * sink_area / area;
  };

  // Vertical: each node sits at its layer's top, so a link spans the upper layer.
  for (std::size_t i = 0; i < n; ++i) {
    const double a = blocks[i].area();
    connect_r(i, n + i, slab_r(silicon.k, silicon.t, a));
    connect_r(n + i, 2 * n + i, slab_r(tim.k, tim.t, a));
    connect_r(2 * n + i, 3 * n + i, slab_r(spreader.k, spreader.t, a));
    net.connect_ambient(3 * n + i, 1.0 / convection_r(a));
  }

  // Lateral, between adjacent blocks, in all four layers (silicon optional).
  for (const adjacency& adj : fp.adjacencies()) {
    const block& bi = blocks[adj.a];
    const block& bj = blocks[adj.b];
    const double half_i = (adj.vertical_edge ? bi.width_m : bi.height_m) / 2.0;
    const double half_j = (adj.vertical_edge ? bj.width_m : bj.height_m) / 2.0;
    const std::array<layer, 4> layers{silicon, tim, spreader, sink};
    for (std::size_t l = 0; l < 4; ++l) {
      if (l == 0 && pkg.omit_lateral) continue;
      const double g_len = layers[l].k * layers[l].t * adj.shared_length_m;
      connect_r(l * n + adj.a, l * n + adj.b, half_i / g_len + half_j / g_len);
    }
  }

  // Border blocks to the periphery of their edge(s), spreader and sink layers.
  const double x0 = fp.min_x(), y0 = fp.min_y();
  auto on_side = [&](const block& b, int d) {
    switch (d) {
      case west: return std::abs(b.x_m - x0) < border_tolerance_m;
      case east: return std::abs(b.x_m + b.width_m - (x0 + W)) < border_tolerance_m;
      case north: return std::abs(b.y_m + b.height_m - (y0 + H)) < border_tolerance_m;
      default: return std::abs(b.y_m - y0) < border_tolerance_m;
    }
  };
  // Half-block lateral conductance of block b towards side d in layer ly (W/K).
  auto half_g = [](const block& b, int d, const layer& ly) {
    return is_x(d) ? ly.k * b.height_m * ly.t / (b.width_m / 2.0)
                   : ly.k * b.width_m * ly.t / (b.height_m / 2.0);
  };
  // Lateral resistance of a trapezoid from the die edge to its middle (K/W), HotSpot's
  // r_sp1 / r_hs1: length (s_sp - die)/4, mean width (s_sp + 3 die)/4.
  auto r_1 = [&](int d, const layer& ly) {
    return is_x(d) ? slab_r(ly.k, (s_sp - W) / 4.0, (s_sp + 3.0 * H) / 4.0 * ly.t)
                   : slab_r(ly.k, (s_sp - H) / 4.0, (s_sp + 3.0 * W) / 4.0 * ly.t);
  };
  const std::array<std::pair<std::size_t, const layer*>, 2> border_layers{
      {{2 * n, &spreader}, {3 * n, &sink}}};
  for (std::size_t l = 0; l < 2; ++l) {
    const std::size_t base = border_layers[l].first;
    const layer& ly = *border_layers[l].second;
    const std::size_t periphery = l == 0 ? sp_per : hs_inner;
    for (int d = 0; d < 4; ++d) {
      double g_edge = 0.0;
      for (const block& b : blocks)
        if (on_side(b, d)) g_edge += half_g(b, d, ly);
      // The trapezoid's own resistance r_1 is shared among the edge's blocks in proportion
      // to their conductance: in parallel they give 1/g_edge + r_1.
      const double r1 = r_1(d, ly);
      for (std::size_t i = 0; i < n; ++i) {
        if (!on_side(blocks[i], d)) continue;
        const double g = half_g(blocks[i], d, ly);
        connect_r(base + i, periphery + d, (1.0 + r1 * g_edge) / g);
      }
    }
  }

  // Package: spreader periphery -> sink inner -> sink outer, each sink node to ambient.
  const double r_hs = slab_r(pkg.k_sink, (s_hs - s_sp) / 4.0, (s_hs + 3.0 * s_sp) / 4.0 * pkg.t_sink);
  for (int d = 0; d < 4; ++d) {
    const double a_d = side_area(d);
    const double r_hs2 = is_x(d)
        ? slab_r(pkg.k_sink, (s_sp - W) / 4.0, (3.0 * s_sp + H) / 4.0 * pkg.t_sink)
        : slab_r(pkg.k_sink, (s_sp - H) / 4.0, (3.0 * s_sp + W) / 4.0 * pkg.t_sink);
    connect_r(sp_per + d, hs_inner + d, slab_r(pkg.k_spreader, pkg.t_spreader, a_d));
    connect_r(hs_inner + d, hs_outer + d, r_hs + r_hs2);
    net.connect_ambient(hs_inner + d, 1.0 / convection_r(a_d));
    net.connect_ambient(hs_outer + d, 1.0 / convection_r(a_o));
  }
  return net;
}

}  // namespace ptsim::thermal
