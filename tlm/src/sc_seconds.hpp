#pragma once
// Internal: seconds (double) <-> sc_time without the unit conversions of
// sc_time(double, SC_SEC), which profiling showed among the costliest calls per
// transaction. The kernel's resolution is fixed once the first sc_time exists.
#include <cmath>
#include <systemc>

namespace ptsim::tlm_models::detail {

inline double time_resolution_s() {
  static const double r = sc_core::sc_get_time_resolution().to_seconds();
  return r;
}

/// s >= 0, rounded to the kernel's resolution. A time past the kernel's 64-bit clock (an
/// operator on a 1 B/s memory may end centuries ahead) saturates near its end, which no run
/// reaches (durations are limited to 9.2e6 s), instead of wrapping around.
inline sc_core::sc_time to_sc(double s) {
  const double ticks = s / time_resolution_s();
  if (!(ticks < 9.0e18)) return sc_core::sc_time::from_value(static_cast<sc_dt::uint64>(9.0e18));
  if (!(ticks > 0)) return sc_core::SC_ZERO_TIME;
  // std::llround's answer (halves away from zero) without its library call, a visible share
  // of a transaction: the fraction x - trunc(x) is exact for every double below 2^63.
  const auto whole = static_cast<sc_dt::uint64>(ticks);
  return sc_core::sc_time::from_value(whole + (ticks - static_cast<double>(whole) >= 0.5 ? 1 : 0));
}

inline double now_s() { return sc_core::sc_time_stamp().to_seconds(); }

}  // namespace ptsim::tlm_models::detail
