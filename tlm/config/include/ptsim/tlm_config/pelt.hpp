#pragma once
// Per-entity load tracking as Linux's kernel/sched/pelt.c does it: time in 1024 us
// segments, a geometric series with y^32 = 1/2 (32-segment half-life), integer decay
// through the 2^32-scaled table of y^n, and frequency- and capacity-invariant utilisation:
// a running segment contributes in proportion to (f / f_max) x (capacity / 1024), so that
// util_avg lies in [0, 1024] and means the same on every CPU and at every frequency.
// (Kernels 4.15-5.7 scale each contribution, as here; later ones slow the PELT clock
// instead, which gives the same steady state.)
#include <cstdint>

namespace ptsim::tlm_config {

inline constexpr std::uint32_t pelt_period_us = 1024;  ///< one PELT segment
inline constexpr std::uint32_t pelt_half_life = 32;    ///< segments: y^32 = 1/2
inline constexpr std::uint32_t capacity_scale = 1024;  ///< SCHED_CAPACITY_SCALE

/// LOAD_AVG_MAX: the largest sum the series reaches with the kernel's integer arithmetic
/// (47742), computed the way Documentation/scheduler/sched-pelt.c does.
std::uint32_t pelt_load_avg_max();

/// val * y^n with the kernel's integer arithmetic (decay_load).
std::uint64_t pelt_decay(std::uint64_t val, std::uint64_t n);

/// One entity's utilisation signal.
class pelt_signal {
 public:
  /// Advances the signal by `delta_us` microseconds, running or not, with the invariance
  /// scale `scale` = (f / f_max) x (capacity / 1024) in [0, 1] while running.
  void accumulate(std::uint64_t delta_us, bool running, double scale);
  /// util_avg in [0, 1024].
  std::uint32_t util_avg() const { return util_avg_; }
  /// Sets util_avg (and a matching sum), as the kernel does for a new task.
  void set_util(std::uint32_t util);

 private:
  std::uint64_t util_sum_ = 0;       ///< contributions x capacity scale
  std::uint32_t period_contrib_ = 0;  ///< microseconds into the current segment
  std::uint32_t util_avg_ = 0;
};

}  // namespace ptsim::tlm_config
