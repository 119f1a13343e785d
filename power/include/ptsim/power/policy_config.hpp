#pragma once
// Resolved DVFS domains and policy (what the scenario's platform.domains and policy say).
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "ptsim/power/domain_limits.hpp"
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
  /// A memory's clock (memory DVFS, devfreq): its components are memories, its OPPs their
  /// clock. Its governor defaults to policy.memory_governor, and the main thermal zone and
  /// the power cap leave it alone unless they name it.
  bool memory = false;
  /// A devfreq device's clock (a mobile GPU: Mali's kbase devfreq): its governor defaults
  /// to policy.devfreq_governor (simple_ondemand), not to the CPUs' cpufreq governor.
  bool devfreq = false;
  /// The board power limits the device accepts (nvidia-smi's min/max power limit); none:
  /// any positive limit.
  std::optional<double> min_power_limit_W, max_power_limit_W;
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

/// A thermal zone as a scenario declares it (policy.thermal, policy.thermal_zones.<name>):
/// its sensor, its governor with tunables and trip points, and the cooling devices it
/// drives by name: DVFS domains, or "fans" (cooler.hpp).
struct thermal_zone_spec {
  std::string name = "thermal";     ///< "thermal" for policy.thermal, else its key
  std::string governor = "none";    ///< "none" or a thermal_governor_registry name
  tunables values;                  ///< the governor's tunables
  thermal_zone_config zone;
  zone_sensor sensor;
  std::vector<std::string> cooling;  ///< cooling devices; empty = every DVFS domain
};

/// A memory's own temperature limit (HBM's firmware throttling, separate from the core's
/// zone): while the memory's floorplan block is at or above temp_K its domain's clock
/// ceiling is ceiling_hz (so its bandwidth is cut in proportion), until the block cools
/// below temp_K - hysteresis_K.
struct memory_throttle {
  std::string component;   ///< the memory (a key of platform.components)
  std::string domain;      ///< its memory DVFS domain
  double temp_K = 0.0;
  double hysteresis_K = 0.0;
  double ceiling_hz = 0.0;
};

struct policy_config {
  governor_choice default_governor;
  /// Of every memory domain without its own (default performance: the clock stays at its
  /// top, as a memory without DVFS).
  governor_choice memory_governor{"performance", {}};
  /// Of every devfreq device domain (a mobile GPU's) without its own: devfreq's
  /// simple_ondemand, as Mali's kbase devfreq registers it by default.
  governor_choice devfreq_governor{"simple_ondemand", {}};
  std::map<std::string, governor_choice> per_domain;
  thermal_zone_spec thermal;                ///< the main zone (policy.thermal)
  std::vector<thermal_zone_spec> zones;     ///< policy.thermal_zones, in the file's order
  std::optional<power_cap_config> power_cap;  ///< none when the scenario sets no limit
  std::vector<memory_throttle> memory_throttles;  ///< from the memories' throttle keys
  /// policy.limits by domain name, wildcards expanded; a domain without an entry has none.
  std::map<std::string, domain_limits> limits;
  /// The governor of a domain: its own override, else the default (memory_governor for
  /// a memory domain, devfreq_governor for a devfreq device's).
  const governor_choice& governor_for(const std::string& domain, bool memory = false, bool devfreq = false) const {
    auto it = per_domain.find(domain);
    if (it != per_domain.end()) return it->second;
    return memory ? memory_governor : devfreq ? devfreq_governor : default_governor;
  }
  const governor_choice& governor_for(const dvfs_domain_config& d) const {
    return governor_for(d.name, d.memory, d.devfreq);
  }
  /// A domain's limits, or nullptr when the scenario sets none.
  const domain_limits* limits_for(const std::string& domain) const {
    auto it = limits.find(domain);
    return it == limits.end() ? nullptr : &it->second;
  }
};

}  // namespace ptsim::power
