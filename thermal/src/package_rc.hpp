#pragma once
// Private: HotSpot's package resistances and capacitances around a die of W x H, shared by
// the block and grid models, and the 12 package nodes they both end with.
#include <array>
#include <cmath>
#include <cstddef>

#include "ptsim/thermal/floorplan.hpp"
#include "ptsim/thermal/package.hpp"
#include "ptsim/thermal/rc_network.hpp"

namespace ptsim::thermal::detail {

/// HotSpot's lumping factor; it multiplies every capacitance, the convection one included.
inline constexpr double c_factor = 0.333;

/// Resistance of a slab (K/W): length L along the flow, cross-section A.
inline double slab_r(double k, double length, double area) { return length / (k * area); }
/// Lumped capacitance (J/K) of a slab of volumetric heat capacity p, thickness t, area A.
inline double slab_c(double p, double t, double area) { return c_factor * p * t * area; }

/// Sides, in HotSpot's package node order.
enum side { west = 0, east = 1, north = 2, south = 3 };
inline bool is_x(int d) { return d == west || d == east; }
/// Whether block b lies on side d of the floorplan's bounding box (within 1 um, as HotSpot's
/// block model decides which blocks touch the package's periphery).
inline bool on_border(const floorplan& fp, const block& b, int d) {
  constexpr double tolerance_m = 1e-6;
  switch (d) {
    case west: return std::abs(b.x_m - fp.min_x()) < tolerance_m;
    case east: return std::abs(b.x_m + b.width_m - (fp.min_x() + fp.width())) < tolerance_m;
    case north: return std::abs(b.y_m + b.height_m - (fp.min_y() + fp.height())) < tolerance_m;
    default: return std::abs(b.y_m - fp.min_y()) < tolerance_m;
  }
}

/// Throws std::invalid_argument naming the first non-positive or non-finite parameter.
void check_package(const package_config& pkg);
/// Throws std::invalid_argument unless W, H < s_spreader < s_sink.
void check_die_fits(const package_config& pkg, double W, double H);

struct package_rc {
  std::array<double, 4> area{};     ///< spreader trapezoid / sink-inner area per side (m^2)
  double area_outer = 0;            ///< each sink-outer quarter (m^2)
  std::array<double, 4> r_sp1{};    ///< spreader: die edge to trapezoid middle (K/W)
  std::array<double, 4> r_hs1{};    ///< sink under the trapezoid, same geometry
  std::array<double, 4> r_hs2{};    ///< sink inner to outer, inner half
  double r_hs = 0;                  ///< sink inner to outer, outer half
};
package_rc compute_package_rc(const package_config& pkg, double W, double H);

/// Adds inode_0..11 (spreader periphery W,E,N,S; sink inner; sink outer) with their
/// capacitances, links among them and to ambient. Returns the index of inode_0.
std::size_t add_package_nodes(rc_network& net, const package_config& pkg, const package_rc& rc);

}  // namespace ptsim::thermal::detail
