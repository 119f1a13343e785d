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

struct thermal_policy_config {
  std::string governor = "none";  ///< "none", "step_wise" or "power_allocator"
  thermal_zone_config zone;
  std::string sensor;                ///< block name; empty = hottest block
  std::vector<std::string> domains;  ///< cooling devices; empty = every domain
};

struct policy_config {
  governor_choice default_governor;
  std::map<std::string, governor_choice> per_domain;
  thermal_policy_config thermal;
  std::optional<power_cap_config> power_cap;  ///< none when the scenario sets no limit
  /// The governor of a domain: its own override, else the default.
  const governor_choice& governor_for(const std::string& domain) const {
    auto it = per_domain.find(domain);
    return it == per_domain.end() ? default_governor : it->second;
  }
};

}  // namespace ptsim::power
