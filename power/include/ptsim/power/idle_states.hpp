#pragma once
// Idle states of a compute unit, as Linux cpuidle describes them: each state has a power,
// entry and exit latencies and a target residency (the shortest idle period for which
// entering it saves energy). The menu-like choice takes the deepest state whose target
// residency fits the predicted idle period and whose exit latency fits the latency limit.
#include <string>
#include <vector>

namespace ptsim::power {

struct idle_state {
  std::string name;               ///< e.g. "clock_gated", "retention", "power_gated"
  double power_W = 0;             ///< power while resident (replaces leakage + clock power)
  double entry_latency_s = 0;
  double exit_latency_s = 0;      ///< delays the next operator on wake-up
  double target_residency_s = 0;
};

/// States ordered shallow to deep: power must not increase, latencies and residencies
/// must not decrease; throws std::invalid_argument naming the offending state otherwise.
void validate_idle_states(const std::vector<idle_state>& states);

/// Index of the deepest state with target_residency <= predicted idle and exit latency <=
/// latency limit; -1 when none fits (the unit stays in the active clock-gated state).
int choose_idle_state(const std::vector<idle_state>& states, double predicted_idle_s, double latency_limit_s);

/// Energy over an idle period of length idle_s spent in state i (entry and exit at the
/// state's power; the whole period, since the unit sleeps from entry to wake).
double idle_energy_J(const idle_state& s, double idle_s);

}  // namespace ptsim::power
