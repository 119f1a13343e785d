#pragma once
// Floorplans from component lists: each component gets a rectangle of exactly its area, the
// rectangles tile a die of the requested aspect ratio (no overlaps, no gaps; optional white
// space as extra blocks), and each block's aspect ratio stays close to the component's
// preference. Export with write_flp (flp_format.hpp) for HotSpot or `ptsim thermal`.
#include <string>
#include <vector>

#include "ptsim/thermal/floorplan.hpp"

namespace ptsim::thermal {

/// A component to place.
struct floorplan_component {
  std::string name;
  double area_m2 = 0;  ///< > 0
  double aspect = 1.0;  ///< preferred width / height (> 0)
};

struct floorplan_options {
  double die_aspect = 1.0;  ///< die width / height (> 0)
  /// Fraction of the die left as white space (0 <= f < 1), placed as blocks named
  /// "whitespace_<k>" so that the floorplan still tiles the die.
  double whitespace = 0.0;
  double origin_x_m = 0, origin_y_m = 0;  ///< lower-left corner of the die
};

/// Places the components by recursive slicing: the list (largest first) is split in two, the
/// current rectangle is cut across in proportion to the two groups' areas, and each half is
/// placed recursively. At every cut both orientations and every split point are tried, and
/// the one whose pieces come closest to the preferred aspect ratios (single components) or to
/// square (groups, which can then be cut either way) wins. Deterministic. Throws
/// std::invalid_argument for an empty list, non-positive areas or aspects, duplicate names.
floorplan build_floorplan(const std::vector<floorplan_component>& components,
                          const floorplan_options& options = {});

}  // namespace ptsim::thermal
