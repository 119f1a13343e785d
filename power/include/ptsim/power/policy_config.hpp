#pragma once
// Resolved DVFS domains and policy (what the scenario's platform.domains and policy say).
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "ptsim/power/governor.hpp"
#include "ptsim/power/opp_table.hpp"
#include "ptsim/power/power_cap.hpp"
#include "ptsim/power/thermal_governor.hpp"
#include "ptsim/units/quantities.hpp"

namespace ptsim::power {

struct dvfs_domain_config {
  std::string name;
  opp_table opps;
  units::seconds_t transition_latency = units::seconds(500e-6);
};

struct governor_choice {
  std::string name = "schedutil";
  tunables values;
};

/// What a thermal zone reads: a floorplan block or a package node (a phone's skin), seen
/// through a first-order lag and with Gaussian noise (thermal/sensor.hpp).
struct zone_sensor {
  std::string node;              ///< block or package node; empty = the hottest block
  double time_constant_s = 0.0;  ///< 0: no lag
  double noise_K = 0.0;          ///< standard deviation; 0: exact
};

struct thermal_policy_config {
  std::string governor = "none";  ///< "none" or a thermal_governor_registry name
  tunables values;                 ///< the governor's tunables (policy.thermal.tunables)
  thermal_zone_config zone;
  zone_sensor sensor;
  std::vector<std::string> domains;  ///< cooling devices; empty = every domain
};

/// A second zone whose cooling device is the fans (datacenter models): step_wise raises
/// the fan speed one level per polling period while hot and rising, and lowers it once
/// below control_temp - hysteresis and falling.
struct fan_zone_config {
  bool enabled = false;
  std::string governor = "step_wise";
  thermal_zone_config zone;
  zone_sensor sensor;
};

struct policy_config {
  governor_choice default_governor;
  std::map<std::string, governor_choice> per_domain;
  thermal_policy_config thermal;
  fan_zone_config fan_zone;
  std::optional<power_cap_config> power_cap;  ///< none when the scenario sets no limit
  /// The governor of a domain: its own override, else the default.
  const governor_choice& governor_for(const std::string& domain) const {
    auto it = per_domain.find(domain);
    return it == per_domain.end() ? default_governor : it->second;
  }
};

}  // namespace ptsim::power
