#include "package_rc.hpp"

#include <cmath>
#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>

namespace ptsim::thermal::detail {

void check_package(const package_config& pkg) {
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

void check_die_fits(const package_config& pkg, double W, double H) {
  // Equality would leave zero-area periphery nodes (zero capacitance, zero conductance),
  // so the die must be strictly smaller than the spreader, and the spreader than the sink.
  if (!(W < pkg.s_spreader && H < pkg.s_spreader)) {
    std::ostringstream msg;
    msg << "package: the die (" << W << " m x " << H << " m) must be smaller than the spreader ("
        << pkg.s_spreader << " m square)";
    throw std::invalid_argument(msg.str());
  }
  if (!(pkg.s_spreader < pkg.s_sink)) {
    std::ostringstream msg;
    msg << "package: the spreader (" << pkg.s_spreader << " m) must be smaller than the sink ("
        << pkg.s_sink << " m)";
    throw std::invalid_argument(msg.str());
  }
}

package_rc compute_package_rc(const package_config& pkg, double W, double H) {
  const double s_sp = pkg.s_spreader, s_hs = pkg.s_sink;
  package_rc rc;
  // The spreader outside the die, cut along its diagonals into W/E and N/S trapezoids.
  const double a_x = (s_sp + H) * (s_sp - W) / 4.0;
  const double a_y = (s_sp + W) * (s_sp - H) / 4.0;
  rc.area = {a_x, a_x, a_y, a_y};
  rc.area_outer = (s_hs * s_hs - s_sp * s_sp) / 4.0;
  for (int d = 0; d < 4; ++d) {
    // From the die edge to the trapezoid's middle: length (s_sp - die)/4, mean width (s_sp + 3 die)/4.
    const double len = is_x(d) ? (s_sp - W) / 4.0 : (s_sp - H) / 4.0;
    const double width_1 = is_x(d) ? (s_sp + 3.0 * H) / 4.0 : (s_sp + 3.0 * W) / 4.0;
    const double width_2 = is_x(d) ? (3.0 * s_sp + H) / 4.0 : (3.0 * s_sp + W) / 4.0;
    rc.r_sp1[d] = slab_r(pkg.k_spreader, len, width_1 * pkg.t_spreader);
    rc.r_hs1[d] = slab_r(pkg.k_sink, len, width_1 * pkg.t_sink);
    rc.r_hs2[d] = slab_r(pkg.k_sink, len, width_2 * pkg.t_sink);
  }
  rc.r_hs = slab_r(pkg.k_sink, (s_hs - s_sp) / 4.0, (s_hs + 3.0 * s_sp) / 4.0 * pkg.t_sink);
  return rc;
}

std::size_t add_package_nodes(rc_network& net, const package_config& pkg, const package_rc& rc) {
  const double sink_area = pkg.s_sink * pkg.s_sink;
  auto sink_cap = [&](double area) {
    // The sink's own heat capacity plus its area share of the lumped convection capacitance.
    return slab_c(pkg.p_sink, pkg.t_sink, area) + c_factor * pkg.c_convec * area / sink_area;
  };
  auto convection_r = [&](double area) {
    // Conduction through the sink base plus this node's area share of r_convec.
    return slab_r(pkg.k_sink, pkg.t_sink, area) + pkg.r_convec * sink_area / area;
  };
  const std::size_t first = net.size();
  for (int d = 0; d < 4; ++d)
    net.add_node("inode_" + std::to_string(d), slab_c(pkg.p_spreader, pkg.t_spreader, rc.area[d]));
  for (int d = 0; d < 4; ++d) net.add_node("inode_" + std::to_string(4 + d), sink_cap(rc.area[d]));
  for (int d = 0; d < 4; ++d) net.add_node("inode_" + std::to_string(8 + d), sink_cap(rc.area_outer));
  const std::size_t sp_per = first, hs_inner = first + 4, hs_outer = first + 8;
  for (std::size_t d = 0; d < 4; ++d) {
    net.connect(sp_per + d, hs_inner + d,
                1.0 / slab_r(pkg.k_spreader, pkg.t_spreader, rc.area[d]));
    net.connect(hs_inner + d, hs_outer + d, 1.0 / (rc.r_hs + rc.r_hs2[d]));
    net.connect_ambient(hs_inner + d, 1.0 / convection_r(rc.area[d]));
    net.connect_ambient(hs_outer + d, 1.0 / convection_r(rc.area_outer));
  }
  return first;
}

}  // namespace ptsim::thermal::detail
