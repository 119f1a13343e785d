#include "ptsim/thermal/package.hpp"

#include <array>
#include <cmath>
#include <stdexcept>
#include <string>
#include <utility>

#include "package_rc.hpp"

namespace ptsim::thermal {

const std::vector<package_field>& package_fields() {
  using q = package_quantity;
  using pc = package_config;
  static const std::vector<package_field> fields{
      {"t_chip", &pc::t_chip, q::length, "die thickness", "0.15 mm", false},
      {"k_chip", &pc::k_chip, q::conductivity, "die conductivity", "100 W/(m*K)", false},
      {"p_chip", &pc::p_chip, q::volumetric_heat_capacity, "die volumetric heat capacity", "1.75e6 J/(m^3*K)", false},
      {"t_interface", &pc::t_interface, q::length, "TIM thickness", "20 um", false},
      {"k_interface", &pc::k_interface, q::conductivity, "TIM conductivity", "4 W/(m*K)", false},
      {"p_interface", &pc::p_interface, q::volumetric_heat_capacity, "TIM volumetric heat capacity", "4e6 J/(m^3*K)",
       false},
      {"s_spreader", &pc::s_spreader, q::length, "spreader side", "30 mm", false},
      {"t_spreader", &pc::t_spreader, q::length, "spreader thickness", "1 mm", false},
      {"k_spreader", &pc::k_spreader, q::conductivity, "spreader conductivity", "400 W/(m*K)", false},
      {"p_spreader", &pc::p_spreader, q::volumetric_heat_capacity, "spreader volumetric heat capacity",
       "3.55e6 J/(m^3*K)", false},
      {"s_sink", &pc::s_sink, q::length, "sink side", "60 mm", false},
      {"t_sink", &pc::t_sink, q::length, "sink thickness", "6.9 mm", false},
      {"k_sink", &pc::k_sink, q::conductivity, "sink conductivity", "400 W/(m*K)", false},
      {"p_sink", &pc::p_sink, q::volumetric_heat_capacity, "sink volumetric heat capacity", "3.55e6 J/(m^3*K)", false},
      {"r_convec", &pc::r_convec, q::thermal_resistance, "sink-to-ambient convection resistance", "0.1 K/W", false},
      {"c_convec", &pc::c_convec, q::heat_capacity, "convection heat capacity", "140.4 J/K", true},
  };
  return fields;
}

namespace {

using detail::is_x;
using detail::slab_c;
using detail::slab_r;

// One conducting layer of the stack, for the lateral formulas that all layers share.
struct layer {
  double k, t;
};

}  // namespace

rc_network build_block_model(const floorplan& fp, const package_config& pkg) {
  detail::check_package(pkg);
  const std::size_t n = fp.size();
  if (n == 0) throw std::invalid_argument("package: the floorplan has no blocks");
  const double W = fp.width(), H = fp.height();
  detail::check_die_fits(pkg, W, H);
  const detail::package_rc rc = detail::compute_package_rc(pkg, W, H);

  const layer silicon{pkg.k_chip, pkg.t_chip}, tim{pkg.k_interface, pkg.t_interface},
      spreader{pkg.k_spreader, pkg.t_spreader}, sink{pkg.k_sink, pkg.t_sink};
  const double sink_area = pkg.s_sink * pkg.s_sink;

  rc_network net;
  const auto& blocks = fp.blocks();
  for (const block& b : blocks) net.add_node(b.name, slab_c(pkg.p_chip, pkg.t_chip, b.area()));
  for (const block& b : blocks)
    net.add_node("iface_" + b.name, slab_c(pkg.p_interface, pkg.t_interface, b.area()));
  for (const block& b : blocks)
    net.add_node("hsp_" + b.name, slab_c(pkg.p_spreader, pkg.t_spreader, b.area()));
  for (const block& b : blocks) {
    // The sink's own heat capacity plus its area share of the lumped convection capacitance.
    net.add_node("hsink_" + b.name, slab_c(pkg.p_sink, pkg.t_sink, b.area()) +
                                        detail::c_factor * pkg.c_convec * b.area() / sink_area);
  }
  const std::size_t sp_per = detail::add_package_nodes(net, pkg, rc), hs_inner = sp_per + 4;

  auto connect_r = [&](std::size_t a, std::size_t b, double r) { net.connect(a, b, 1.0 / r); };

  // Vertical: each node sits at its layer's top, so a link spans the upper layer.
  for (std::size_t i = 0; i < n; ++i) {
    const double a = blocks[i].area();
    connect_r(i, n + i, slab_r(silicon.k, silicon.t, a));
    connect_r(n + i, 2 * n + i, slab_r(tim.k, tim.t, a));
    connect_r(2 * n + i, 3 * n + i, slab_r(spreader.k, spreader.t, a));
    // Conduction through the sink base plus this block's area share of r_convec.
    net.connect_ambient(3 * n + i, 1.0 / (slab_r(pkg.k_sink, pkg.t_sink, a) + pkg.r_convec * sink_area / a));
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
  auto on_side = [&](const block& b, int d) { return detail::on_border(fp, b, d); };
  // Half-block lateral conductance of block b towards side d in layer ly (W/K).
  auto half_g = [](const block& b, int d, const layer& ly) {
    return is_x(d) ? ly.k * b.height_m * ly.t / (b.width_m / 2.0)
                   : ly.k * b.width_m * ly.t / (b.height_m / 2.0);
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
      // The trapezoid's own resistance r_1 (HotSpot's r_sp1 / r_hs1) is shared among the
      // edge's blocks in proportion to their conductance: in parallel they give 1/g_edge + r_1.
      const double r1 = l == 0 ? rc.r_sp1[d] : rc.r_hs1[d];
      for (std::size_t i = 0; i < n; ++i) {
        if (!on_side(blocks[i], d)) continue;
        const double g = half_g(blocks[i], d, ly);
        connect_r(base + i, periphery + static_cast<std::size_t>(d), (1.0 + r1 * g_edge) / g);
      }
    }
  }
  return net;
}

}  // namespace ptsim::thermal
