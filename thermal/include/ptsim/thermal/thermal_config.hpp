#pragma once
// Resolved thermal section of a scenario.
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "ptsim/thermal/datacenter_package.hpp"
#include "ptsim/thermal/floorplan.hpp"
#include "ptsim/thermal/package.hpp"
#include "ptsim/thermal/phone_package.hpp"
#include "ptsim/thermal/solver.hpp"
#include "ptsim/thermal/temperature_formats.hpp"
#include "ptsim/units/quantities.hpp"

namespace ptsim::thermal {

/// Initial temperatures: the ambient everywhere; the steady state of the first control
/// period's power; or a HotSpot .steady / -init_file (every node of the model, in kelvin).
enum class initial_state { ambient, steady, file };

/// Which network the floorplan sits in (see plant.hpp).
enum class package_kind {
  hotspot,     ///< HotSpot block model: silicon, TIM, spreader, heat sink, convection
  phone,       ///< phone_package.hpp: the SoC under a frame, battery, display and back cover
  datacenter,  ///< datacenter_package.hpp: dies with own packages, sinks in series in air streams
};

/// A die of a datacenter model: some floorplan blocks under their own package.
struct datacenter_die {
  std::string name;
  std::vector<std::string> blocks;
  package_config package;  ///< r_convec at the fan's reference speed
  std::optional<sink_fan_config> sink;  ///< r_convec from this sink and fan instead (rpm at speed 1)
};

/// Air paths through heat sinks in series; every stream has its own fans of one model,
/// all at one speed.
struct datacenter_config {
  std::vector<datacenter_die> dies;
  std::vector<std::pair<std::string, std::vector<std::string>>> streams;  ///< name, dies upstream first
  fan_model fan;                 ///< per stream
  double flow_exponent = 0.8;
  double fan_speed = 1.0;        ///< when no thermal zone cools the fans
  double min_speed = 0.3, max_speed = 1.0;  ///< the range a zone cooling the fans drives
  int fan_levels = 8;            ///< its speeds (cooling states), min to max evenly
};

struct thermal_config {
  units::abs_kelvin_t ambient = units::celsius(25.0);
  floorplan fp;
  package_kind kind = package_kind::hotspot;
  package_config package;
  phone_config phone;
  datacenter_config datacenter;
  std::map<std::string, std::string> power_map;  ///< component -> block
  initial_state initial = initial_state::ambient;
  std::string initial_file;                    ///< initial_state::file: where it came from
  std::vector<named_temperature> initial_temperatures;  ///< its lines, read at load time
  /// Transient method; none = exponential up to max_exponential_nodes, else backward Euler.
  std::optional<integration_method> method;
  int substeps = 8;  ///< backward-Euler sub-steps per control period
};

}  // namespace ptsim::thermal
