#pragma once
// cpufreq governors: one small interface, one file per governor, and a registry.
// A governor sees what Linux's sees for one policy (DVFS domain) and returns the
// frequency it requests; the platform applies min(request, thermal, power-cap ceiling).
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "ptsim/power/opp_table.hpp"

namespace ptsim::power {

/// Inputs of one governor update, taken every control period.
struct cpufreq_sample {
  double now_s = 0;          ///< simulated time of this update
  double period_s = 0;       ///< time since the previous update (the control period)
  double utilization = 0;    ///< busy share of the domain over the period, in [0, 1]
                             ///< (max over its CPUs, as Linux's dbs_update/schedutil use)
  double iowait_share = 0;   ///< share of the period the domain waited on I/O (memory)
  double cur_hz = 0;         ///< frequency the domain ran at (after limits)
  double policy_min_hz = 0;  ///< scaling_min_freq
  double policy_max_hz = 0;  ///< scaling_max_freq (the effective ceiling after limits)
};

/// Tunables by name (e.g. "up_threshold" -> 95, "rate_limit_us" -> 2000).
using tunables = std::map<std::string, double>;

class cpufreq_governor {
 public:
  virtual ~cpufreq_governor() = default;
  /// Called once when the governor takes over a domain.
  virtual void start(const opp_table& opps, double transition_latency_s) = 0;
  /// Returns the requested frequency (Hz, a table frequency within the policy limits).
  virtual double update(const cpufreq_sample& s) = 0;
};

struct tunable_info {
  std::string name;
  double default_value;
  std::string meaning;
};

struct governor_info {
  std::string name;
  std::string description;
  std::vector<tunable_info> tunables;
};

/// Registry of cpufreq governors by name; a user adds one with register_governor()
/// (e.g. from main() before the scenario loads), without touching the core.
class governor_registry {
 public:
  using factory = std::function<std::unique_ptr<cpufreq_governor>(const tunables&)>;
  static governor_registry& instance();  ///< holds the built-in governors
  void register_governor(governor_info info, factory make);
  bool contains(const std::string& name) const;
  /// Throws std::invalid_argument for an unknown name or tunable (message lists the valid ones).
  std::unique_ptr<cpufreq_governor> create(const std::string& name, const tunables& t) const;
  std::vector<governor_info> list() const;  ///< sorted by name
  const governor_info& info(const std::string& name) const;
  /// Changes whenever a governor is registered (lets caches of the names refresh).
  std::size_t generation() const { return entries_.size(); }

 private:
  governor_registry();
  std::map<std::string, std::pair<governor_info, factory>> entries_;
};

}  // namespace ptsim::power
