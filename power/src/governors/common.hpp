#pragma once
// Internals shared by the cpufreq governors: tunable parsing, mapping a target
// frequency onto the table within the policy limits, and the dbs load window.
#include <string>
#include <vector>

#include "ptsim/power/governor.hpp"

namespace ptsim::power::detail {

/// CPUFREQ_RELATION_*: how a target frequency maps onto the table.
enum class relation {
  at_least,  ///< L: lowest OPP >= target
  at_most,   ///< H: highest OPP <= target
  closest    ///< C: closest OPP, ties to the lower
};

/// The policy limits of a sample, falling back to the table when a field is unset (<= 0).
struct limits {
  double min_hz, max_hz;
};
limits policy_limits(const opp_table& t, const cpufreq_sample& s);

/// Maps target onto a table frequency inside [min_hz, max_hz] (the kernel clamps the target
/// to the policy, then looks up only OPPs inside it). If no OPP lies inside the limits, the
/// highest OPP <= max_hz (or the lowest OPP): the ceiling is a thermal/power limit, it wins.
double resolve(const opp_table& t, double target_hz, relation r, const limits& l);

/// The frequency a governor starts from: the current one if known, else the policy min.
double initial_hz(const cpufreq_sample& s, const limits& l);

/// Rejects samples that would corrupt the governor state (negative or NaN period).
void check_sample(const cpufreq_sample& s);

/// Value of tunable `name`, or `def` when absent; checked against [lo, hi].
double tunable(const tunables& t, const std::string& name, double def, double lo, double hi);

/// Load over a dbs sampling window, accumulated over control periods: the kernel's
/// load = 100 × (wall - idle) / wall since the previous sample.
class load_window {
 public:
  void add(double busy_share, double period_s);
  double elapsed_s() const { return elapsed_s_; }
  double busy_s() const { return busy_s_; }
  /// True once the window covers `length_s` (with slack for float sums of periods).
  bool complete(double length_s) const { return elapsed_s_ >= length_s - 1e-9; }
  /// Integer percent, truncated like the kernel's unsigned arithmetic.
  unsigned load_percent() const;
  void reset() { elapsed_s_ = busy_s_ = 0.0; }

 private:
  double elapsed_s_ = 0.0, busy_s_ = 0.0;
};

/// What ondemand and conservative share (Linux's dbs_data, cpufreq_governor.c): the
/// sampling period and whether time waiting on I/O counts as busy.
struct dbs_common {
  /// Reads the tunables sampling_rate_us (0 = derived from the transition latency) and
  /// io_is_busy (0 or 1), in that order.
  explicit dbs_common(const tunables& t);
  /// The sampling period (s) on a domain with this transition latency.
  double sampling_period_s(double transition_latency_s) const;
  /// The busy share of a sample: utilisation, plus I/O wait with io_is_busy; at most 1.
  double busy_share(const cpufreq_sample& s) const;
  /// `own` tunables followed by the two above, as `ptsim list governors` shows them.
  static std::vector<tunable_info> with_tunables(std::vector<tunable_info> own);

  double sampling_rate_us;
  bool io_is_busy;
};

/// Throws std::logic_error when a governor is updated before start().
void require_started(bool started, const char* governor);

}  // namespace ptsim::power::detail

namespace ptsim::power {
// One registration function per governor file, called from governor_registry's
// constructor (explicit calls: static self-registration is dropped by the linker).
void register_performance(governor_registry& r);
void register_powersave(governor_registry& r);
void register_userspace(governor_registry& r);
void register_ondemand(governor_registry& r);
void register_conservative(governor_registry& r);
void register_schedutil(governor_registry& r);
void register_simple_ondemand(governor_registry& r);
void register_gpu_boost(governor_registry& r);
}  // namespace ptsim::power
