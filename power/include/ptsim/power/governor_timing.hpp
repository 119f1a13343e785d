#pragma once
// Default update periods of the cpufreq governors, as Linux derives them from the
// hardware's transition latency (drivers/cpufreq/cpufreq.c, cpufreq_governor.c).
namespace ptsim::power {

/// CONFIG_HZ assumed for tick-based periods (250 Hz: a 4 ms tick).
inline constexpr double default_tick_hz = 250.0;

/// cpufreq_policy_transition_delay_us() (Linux 6.10+, 2 ms cap), in µs:
///  - driver_delay_us when > 0 (a driver's own transition_delay_us);
///  - else with L = transition latency in whole µs (truncated, as the kernel's ns / 1000):
///    L when L > 2000 µs, otherwise min(L × 1000, 2000 µs);
///  - else (L = 0: latency unknown or under 1 µs) 1000 µs.
/// Kernels before the patch capped at 10 ms instead of 2 ms (cap_us = 10000).
double transition_delay_us(double transition_latency_s, double driver_delay_us = 0.0,
                           double cap_us = 2000.0);

/// Default sampling_rate of ondemand and conservative, in µs:
/// max(2 ticks (8000 µs at HZ = 250), transition_delay_us(latency)).
double dbs_default_sampling_rate_us(double transition_latency_s,
                                    double tick_hz = default_tick_hz);

}  // namespace ptsim::power
