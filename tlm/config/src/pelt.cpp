#include "ptsim/tlm_config/pelt.hpp"

#include <array>
#include <cmath>

namespace ptsim::tlm_config {

namespace {

// runnable_avg_yN_inv[n] = (2^32 - 1) * y^n truncated, y = 2^(-1/32): the table that
// sched-pelt.c generates for kernel/sched/sched-pelt.h.
const std::array<std::uint32_t, pelt_half_life>& y_inv() {
  static const std::array<std::uint32_t, pelt_half_life> t = [] {
    std::array<std::uint32_t, pelt_half_life> a{};
    const double y = std::pow(0.5, 1.0 / pelt_half_life);
    for (std::uint32_t i = 0; i < pelt_half_life; ++i)
      a[i] = static_cast<std::uint32_t>(4294967295.0 * std::pow(y, static_cast<double>(i)));
    return a;
  }();
  return t;
}

}  // namespace

std::uint64_t pelt_decay(std::uint64_t val, std::uint64_t n) {
  if (n > static_cast<std::uint64_t>(pelt_half_life) * 63) return 0;  // beyond 63 half-lives
  if (n >= pelt_half_life) {
    val >>= n / pelt_half_life;
    n %= pelt_half_life;
  }
  // mul_u64_u32_shr(val, y, 32) without a 128-bit type: val = hi 2^32 + lo.
  const std::uint64_t y = y_inv()[n];
  return (val >> 32) * y + (((val & 0xffffffffu) * y) >> 32);
}

std::uint32_t pelt_load_avg_max() {
  // calc_converged_max(): max = max * y + 1024 until it stops growing.
  static const std::uint32_t m = [] {
    const std::uint64_t yi = y_inv()[1];
    std::uint64_t max = pelt_period_us, last = 0;
    for (;;) {
      max = ((max * yi) >> 32) + pelt_period_us;
      if (max == last) break;
      last = max;
    }
    return static_cast<std::uint32_t>(max);
  }();
  return m;
}

void pelt_signal::accumulate(std::uint64_t delta_us, bool running, double scale) {
  if (delta_us == 0) return;
  // accumulate_sum(): the part that completes the current segment (d1), whole segments
  // (d2, a decayed geometric series), and the part of the last one (d3).
  std::uint64_t contrib = delta_us;
  std::uint64_t delta = delta_us + period_contrib_;
  const std::uint64_t periods = delta / pelt_period_us;
  if (periods) {
    util_sum_ = pelt_decay(util_sum_, periods);
    delta %= pelt_period_us;
    if (running) {
      const std::uint64_t max = pelt_load_avg_max();
      const std::uint64_t c1 = pelt_decay(pelt_period_us - period_contrib_, periods);
      const std::uint64_t c2 = max - pelt_decay(max, periods) - pelt_period_us;
      contrib = c1 + c2 + delta;
    }
  }
  period_contrib_ = static_cast<std::uint32_t>(delta);
  if (running) {
    // cap_scale(contrib, scale_freq) * scale_cpu, both in 1024ths: one combined scale.
    const double s = scale < 0 ? 0 : scale > 1 ? 1 : scale;
    util_sum_ += static_cast<std::uint64_t>(static_cast<double>(contrib) * s * capacity_scale);
  }
  // ___update_load_avg(): divider = LOAD_AVG_MAX - 1024 + period_contrib.
  const std::uint64_t divider = pelt_load_avg_max() - pelt_period_us + period_contrib_;
  util_avg_ = static_cast<std::uint32_t>(util_sum_ / divider);
}

void pelt_signal::set_util(std::uint32_t util) {
  util_avg_ = util;
  util_sum_ = static_cast<std::uint64_t>(util) * (pelt_load_avg_max() - pelt_period_us + period_contrib_);
}

}  // namespace ptsim::tlm_config
