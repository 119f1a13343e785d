#pragma once
// Resolved thermal section of a scenario.
#include <map>
#include <string>

#include "ptsim/thermal/floorplan.hpp"
#include "ptsim/thermal/package.hpp"
#include "ptsim/units/quantities.hpp"

namespace ptsim::thermal {

enum class initial_state { ambient, steady };
enum class step_method { exponential, backward_euler };

struct thermal_config {
  units::abs_kelvin_t ambient = units::celsius(25.0);
  floorplan fp;
  package_config package;
  std::map<std::string, std::string> power_map;  ///< component -> block
  initial_state initial = initial_state::ambient;
  step_method method = step_method::exponential;
  int substeps = 8;  ///< backward-Euler sub-steps per control period
};

}  // namespace ptsim::thermal
