#pragma once
// Resolved thermal section of a scenario.
#include <map>
#include <optional>
#include <string>

#include "ptsim/thermal/floorplan.hpp"
#include "ptsim/thermal/package.hpp"
#include "ptsim/thermal/solver.hpp"
#include "ptsim/units/quantities.hpp"

namespace ptsim::thermal {

enum class initial_state { ambient, steady };

struct thermal_config {
  units::abs_kelvin_t ambient = units::celsius(25.0);
  floorplan fp;
  package_config package;
  std::map<std::string, std::string> power_map;  ///< component -> block
  initial_state initial = initial_state::ambient;
  /// Transient method; none = exponential up to max_exponential_nodes, else backward Euler.
  std::optional<integration_method> method;
  int substeps = 8;  ///< backward-Euler sub-steps per control period
};

}  // namespace ptsim::thermal
