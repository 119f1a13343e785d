#include "ptsim/power/idle_states.hpp"

#include <stdexcept>

namespace ptsim::power {

void validate_idle_states(const std::vector<idle_state>& st) {
  for (std::size_t i = 0; i < st.size(); ++i) {
    const auto& s = st[i];
    if (!(s.power_W >= 0) || !(s.entry_latency_s >= 0) || !(s.exit_latency_s >= 0) || !(s.target_residency_s >= 0))
      throw std::invalid_argument("idle state '" + s.name + "': power, latencies and residency must be >= 0");
    if (i == 0) continue;
    const auto& p = st[i - 1];
    if (s.power_W > p.power_W)
      throw std::invalid_argument("idle state '" + s.name + "' draws more than the shallower '" + p.name + "'");
    if (s.exit_latency_s < p.exit_latency_s || s.target_residency_s < p.target_residency_s)
      throw std::invalid_argument("idle state '" + s.name + "' is deeper than '" + p.name +
                                  "' but has a shorter exit latency or target residency");
  }
}

int choose_idle_state(const std::vector<idle_state>& st, double predicted_idle_s, double latency_limit_s) {
  int best = -1;
  for (std::size_t i = 0; i < st.size(); ++i)
    if (st[i].target_residency_s <= predicted_idle_s && st[i].exit_latency_s <= latency_limit_s)
      best = static_cast<int>(i);
  return best;
}

double idle_energy_J(const idle_state& s, double idle_s) { return s.power_W * idle_s; }

}  // namespace ptsim::power
