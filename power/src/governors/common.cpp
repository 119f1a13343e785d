#include "governors/common.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>
#include <stdexcept>

#include "check.hpp"
#include "ptsim/power/governor_timing.hpp"

namespace ptsim::power::detail {

limits policy_limits(const opp_table& t, const cpufreq_sample& s) {
  return {s.policy_min_hz > 0.0 ? s.policy_min_hz : t.min_hz(),
          s.policy_max_hz > 0.0 ? s.policy_max_hz : t.max_hz()};
}

double resolve(const opp_table& t, double target_hz, relation r, const limits& l) {
  const std::size_t lo = t.index_at_least(l.min_hz);
  const std::size_t hi = t.index_at_most(l.max_hz);
  if (lo > hi || t.frequency_hz(lo) > l.max_hz + 1e-3) return t.frequency_hz(hi);
  const double target = std::clamp(target_hz, t.frequency_hz(lo), t.frequency_hz(hi));
  std::size_t i = 0;
  switch (r) {
    case relation::at_least: i = t.index_at_least(target); break;
    case relation::at_most: i = t.index_at_most(target); break;
    case relation::closest: i = t.index_closest(target); break;
  }
  return t.frequency_hz(std::clamp(i, lo, hi));
}

double initial_hz(const cpufreq_sample& s, const limits& l) {
  return s.cur_hz > 0.0 ? s.cur_hz : l.min_hz;
}

void check_sample(const cpufreq_sample& s) {
  if (!std::isfinite(s.period_s) || s.period_s < 0.0)
    bad_param("cpufreq_sample.period_s", "a finite value >= 0 s", s.period_s);
  if (!std::isfinite(s.now_s)) bad_param("cpufreq_sample.now_s", "a finite time in s", s.now_s);
}

double tunable(const tunables& t, const std::string& name, double def, double lo, double hi) {
  const auto it = t.find(name);
  if (it == t.end()) return def;
  return require_range(name, it->second, lo, hi);
}

void load_window::add(double busy_share, double period_s) {
  elapsed_s_ += period_s;
  busy_s_ += std::clamp(busy_share, 0.0, 1.0) * period_s;
}

namespace {
unsigned load_percent_of(double busy, double elapsed) {
  if (elapsed <= 0.0) return 0;
  // Slack so that e.g. 0.29 × 100 = 28.999... still reads 29, as integer µs would.
  return static_cast<unsigned>(std::floor(100.0 * busy / elapsed + 1e-9));
}
}  // namespace

unsigned load_window::load_percent() const { return load_percent_of(busy_s_, elapsed_s_); }

dbs_common::dbs_common(const tunables& t)
    : sampling_rate_us(tunable(t, "sampling_rate_us", 0, 0, std::numeric_limits<double>::max())),
      io_is_busy(tunable(t, "io_is_busy", 0, 0, 1) != 0.0) {}

double dbs_common::sampling_period_s(double transition_latency_s) const {
  return (sampling_rate_us > 0 ? sampling_rate_us : dbs_default_sampling_rate_us(transition_latency_s)) * 1e-6;
}

double dbs_common::busy_share(const cpufreq_sample& s) const {
  // With io_is_busy, time waiting on I/O counts as busy (Intel's default in Linux).
  return std::min(s.utilization + (io_is_busy ? s.iowait_share : 0.0), 1.0);
}

std::vector<tunable_info> dbs_common::with_tunables(std::vector<tunable_info> own) {
  own.push_back({"sampling_rate_us", 0,
                 "sampling period in us; 0 = max(2 ticks at HZ=250 = 8000 us, transition delay)"});
  own.push_back({"io_is_busy", 0, "1 = time waiting on I/O (iowait_share) counts as busy"});
  return own;
}

void require_started(bool started, const char* governor) {
  if (!started)
    throw std::logic_error(std::string(governor) + ": update() called before start()");
}

}  // namespace ptsim::power::detail
