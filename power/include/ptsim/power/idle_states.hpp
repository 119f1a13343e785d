#pragma once
// Idle states of a compute unit, as Linux cpuidle describes them: each state has a power,
// entry and exit latencies and a target residency (the shortest idle period for which
// entering it saves energy). The menu-like choice takes the deepest state whose target
// residency fits the predicted idle period and whose exit latency fits the latency limit.
//
// Power while resident, in W: either a fixed power_W, or leakage_fraction * P_leak(V, T)
// of the unit's leakage model (retention keeps a share of the leakage, power gating cuts
// most of it). A unit that is idle but in no state draws its full leakage; its dynamic
// power is already zero (activity 0), so a clock-gated state has leakage_fraction 1.
#include <array>
#include <cstddef>
#include <string>
#include <vector>

namespace ptsim::power {

struct idle_state {
  std::string name;               ///< e.g. "clock_gated", "retention", "power_gated"
  double power_W = 0;             ///< power while resident (used when leakage_fraction < 0)
  double entry_latency_s = 0;     ///< time from going idle to being in the state
  double exit_latency_s = 0;      ///< delays the next operator on wake-up
  double target_residency_s = 0;
  double leakage_fraction = -1;   ///< >= 0: power = leakage_fraction * leakage (overrides power_W)

  /// Power while resident, given the unit's leakage at its present voltage and temperature.
  double power_at(double leakage_W) const { return leakage_fraction >= 0 ? leakage_fraction * leakage_W : power_W; }
};

/// States ordered shallow to deep: all given by power or all by leakage fraction (in
/// [0, 1]); power must not increase, latencies and residencies must not decrease; throws
/// std::invalid_argument naming the offending state otherwise.
void validate_idle_states(const std::vector<idle_state>& states);

/// Index of the deepest state with target_residency <= predicted idle and exit latency <=
/// latency limit; -1 when none fits (the unit stays in the active clock-gated state).
int choose_idle_state(const std::vector<idle_state>& states, double predicted_idle_s, double latency_limit_s);

/// Energy over an idle period of length idle_s spent in state i (entry and exit at the
/// state's power; the whole period, since the unit sleeps from entry to wake).
double idle_energy_J(const idle_state& s, double idle_s);

/// Predicts the next idle period from the last ones, like the menu governor's "typical
/// interval" (drivers/cpuidle/governors/menu.c, get_typical_interval): the mean of the
/// last 8 periods if their standard deviation is at most a sixth of it; otherwise the
/// largest period is dropped as an outlier and the test repeated while at least 6 remain.
/// Where menu then falls back on the next timer event (which a simulated unit does not
/// have), this predicts the shortest recent period, the cautious choice. With no history
/// yet the unit has nothing pending and the prediction is unbounded (the deepest state).
class idle_predictor {
 public:
  static constexpr std::size_t window = 8;
  double predicted_s() const;
  void observe(double idle_s);

 private:
  std::array<double, window> hist_{};
  std::size_t n_ = 0, next_ = 0;
};

/// A unit's idle governor: the state list, the latency limit (PM QoS) and the predictor.
class idle_governor {
 public:
  idle_governor(std::vector<idle_state> states, double latency_limit_s);
  /// The state for an idle period starting now (-1: none).
  int select() const { return choose_idle_state(states_, pred_.predicted_s(), latency_limit_s_); }
  /// The idle period that just ended.
  void reflect(double idle_s) { pred_.observe(idle_s); }
  const std::vector<idle_state>& states() const { return states_; }

 private:
  std::vector<idle_state> states_;
  double latency_limit_s_;
  idle_predictor pred_;
};

}  // namespace ptsim::power
