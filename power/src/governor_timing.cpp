#include "ptsim/power/governor_timing.hpp"

#include <algorithm>
#include <cmath>

#include "check.hpp"

namespace ptsim::power {

double transition_delay_us(double latency_s, double driver_delay_us, double cap_us) {
  detail::require_non_negative("transition_latency_s", latency_s);
  detail::require_non_negative("driver_delay_us", driver_delay_us);
  if (driver_delay_us > 0.0) return driver_delay_us;
  // The kernel stores the latency in ns and divides by 1000 in integers; round to whole
  // ns first so that 500e-6 s does not become 499.999... µs.
  const double latency_us = std::floor(std::round(latency_s * 1e9) / 1000.0);
  if (latency_us > 0.0) {
    // Slow hardware: the latency itself. Fast hardware: 1000 × L, capped, because
    // re-evaluating much faster than a few ms only adds overhead.
    if (latency_us > cap_us) return latency_us;
    return std::min(latency_us * 1000.0, cap_us);
  }
  return 1000.0;  // LATENCY_MULTIPLIER µs when the latency is unknown
}

double dbs_default_sampling_rate_us(double latency_s, double tick_hz) {
  detail::require_positive("tick_hz", tick_hz);
  // CPUFREQ_DBS_MIN_SAMPLING_INTERVAL: two ticks, because load sampled over less than
  // that is dominated by tick granularity.
  const double two_ticks_us = 2.0 * 1e6 / tick_hz;
  return std::max(two_ticks_us, transition_delay_us(latency_s));
}

}  // namespace ptsim::power
