#pragma once
// cpufreq governors: one small interface, one file per governor, and a registry.
// A governor sees what Linux's sees for one policy (DVFS domain) and returns the
// frequency it requests; the platform applies min(request, thermal, power-cap ceiling).
#include <memory>
#include <string>

#include "ptsim/power/opp_table.hpp"
#include "ptsim/power/registry.hpp"

namespace ptsim::power {

/// Inputs of one governor update, taken every control period.
struct cpufreq_sample {
  double now_s = 0;          ///< simulated time of this update
  double period_s = 0;       ///< time since the previous update (the control period)
  double utilization = 0;    ///< busy share of the domain over the period, in [0, 1]
                             ///< (max over its CPUs, as Linux's dbs_update/schedutil use)
  double iowait_share = 0;   ///< share of the period the domain waited on I/O (memory)
  /// The scheduler's utilisation of the domain (policy.scheduler: eas): its tasks' PELT
  /// util_avg, uclamp-clamped, max over its CPUs, / capacity, in [0, 1]; already frequency-
  /// invariant. Negative: none (schedutil uses the busy share at cur_hz).
  double sched_util = -1;
  double cur_hz = 0;         ///< frequency the domain ran at (after limits)
  double policy_min_hz = 0;  ///< scaling_min_freq
  double policy_max_hz = 0;  ///< scaling_max_freq (the effective ceiling after limits)
};

class cpufreq_governor {
 public:
  virtual ~cpufreq_governor() = default;
  /// Called once when the governor takes over a domain.
  virtual void start(const opp_table& opps, double transition_latency_s) = 0;
  /// Returns the requested frequency (Hz, a table frequency within the policy limits).
  virtual double update(const cpufreq_sample& s) = 0;
};

/// The cpufreq governors by name (the built-in ones registered at first use).
class governor_registry : public registry<cpufreq_governor> {
 public:
  static governor_registry& instance();

 private:
  governor_registry();
};

}  // namespace ptsim::power
