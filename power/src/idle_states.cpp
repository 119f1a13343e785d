#include "ptsim/power/idle_states.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <utility>

namespace ptsim::power {

void validate_idle_states(const std::vector<idle_state>& st) {
  for (std::size_t i = 0; i < st.size(); ++i) {
    const auto& s = st[i];
    if (!(s.power_W >= 0) || !(s.entry_latency_s >= 0) || !(s.exit_latency_s >= 0) || !(s.target_residency_s >= 0))
      throw std::invalid_argument("idle state '" + s.name + "': power, latencies and residency must be >= 0");
    if (s.leakage_fraction > 1)
      throw std::invalid_argument("idle state '" + s.name + "': leakage_fraction must be in [0, 1]");
    if (i == 0) continue;
    const auto& p = st[i - 1];
    if ((s.leakage_fraction >= 0) != (p.leakage_fraction >= 0))
      throw std::invalid_argument("idle state '" + s.name + "' gives its power another way than '" + p.name +
                                  "': give every state a power, or every state a leakage_fraction");
    const bool by_fraction = s.leakage_fraction >= 0;
    if ((by_fraction ? s.leakage_fraction > p.leakage_fraction : s.power_W > p.power_W))
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

double idle_predictor::predicted_s() const {
  if (n_ == 0) return std::numeric_limits<double>::infinity();
  std::array<double, window> v{};
  std::copy(hist_.begin(), hist_.begin() + static_cast<std::ptrdiff_t>(n_), v.begin());
  std::size_t m = n_;
  // At most `window` values: an insertion sort (std::sort's inlined path for long ranges
  // makes GCC 12 warn about bounds it cannot reach here).
  for (std::size_t i = 1; i < m; ++i)
    for (std::size_t j = i; j > 0 && v[j - 1] > v[j]; --j) std::swap(v[j - 1], v[j]);
  // menu: accept the mean when avg^2 > 36 * variance (stddev < avg / 6); else drop the
  // largest and retry while at least 3/4 of a full window is left.
  for (;;) {
    double sum = 0;
    for (std::size_t i = 0; i < m; ++i) sum += v[i];
    const double avg = sum / static_cast<double>(m);
    double var = 0;
    for (std::size_t i = 0; i < m; ++i) var += (v[i] - avg) * (v[i] - avg);
    var /= static_cast<double>(m);
    if (avg * avg > 36.0 * var || var == 0) return avg;
    if ((m - 1) * 4 < window * 3) break;
    --m;  // v is sorted: the last is the largest
  }
  return v[0];
}

void idle_predictor::observe(double idle_s) {
  hist_[next_] = idle_s;
  next_ = (next_ + 1) % window;
  n_ = std::min(n_ + 1, window);
}

idle_governor::idle_governor(std::vector<idle_state> states, double latency_limit_s)
    : states_(std::move(states)), latency_limit_s_(latency_limit_s) {
  validate_idle_states(states_);
}

}  // namespace ptsim::power
