#include "ptsim/tlm_models/activity_ledger.hpp"

#include <algorithm>
#include <cmath>

namespace ptsim::tlm_models {

activity_ledger::activity_ledger(double period_s) : period_s_(period_s) {}

period_activity& activity_ledger::at(std::int64_t index) {
  // Late bookings into an already collected period land in the oldest live one.
  if (index < base_) index = base_;
  // Bookings come in runs into one period (a unit's tiles): the last one found is kept
  // (a map's elements stay where they are until erased; take() forgets it).
  if (last_ != nullptr && last_index_ == index) return *last_;
  last_index_ = index;
  last_ = &periods_[index];
  return *last_;
}

void activity_ledger::add(period_activity& p, kind k, double dt, double ops, double share, double activity) {
  dt *= share;
  switch (k) {
    case kind::compute:
      p.compute_s += dt;
      p.quiet_s += dt * (1 - activity);
      break;
    case kind::stall: p.stall_s += dt; break;
    case kind::overhead: p.overhead_s += dt; break;
  }
  p.ops += ops;
}

namespace {
// Index of the period holding t. Walk period indices, not times: t / T rounds, and a
// boundary computed as (i+1)*T can equal t while floor(t / T) still says i.
std::int64_t period_of(double t, double T) {
  const double q = std::floor(t / T);
  // Far beyond any simulable time (the kernel's 64-bit clock ends at ~9.2e6 s): saturate.
  if (!(q < 4.0e18)) return static_cast<std::int64_t>(4.0e18);
  auto idx = static_cast<std::int64_t>(q);
  while (static_cast<double>(idx + 1) * T <= t) ++idx;
  while (idx > 0 && static_cast<double>(idx) * T > t) --idx;
  return idx;
}
}  // namespace

std::int64_t activity_ledger::period_at(double t) {
  // The period of the last call holds most times asked (its bounds computed as period_of's).
  if (t >= known_lo_ && t < known_hi_) return known_;
  known_ = period_of(t, period_s_);
  known_lo_ = static_cast<double>(known_) * period_s_;
  known_hi_ = static_cast<double>(known_ + 1) * period_s_;
  return known_;
}

void activity_ledger::add_interval(double t0, double t1, kind k, double ops, double share, double activity) {
  if (!(t1 > t0)) return;
  const double span = t1 - t0;
  const std::int64_t first = period_at(t0), last = period_at(t1);
  if (last - first > segment_periods) {
    // A long interval: its part before the oldest live period lands there at once (as
    // late bookings do), the rest waits as one segment for the ticks that collect it.
    double from = t0;
    const double live_start = static_cast<double>(base_) * period_s_;
    if (from < live_start) {
      const double to = std::min(t1, live_start);
      add(at(base_), k, to - from, ops * (to - from) / span, share, activity);
      from = to;
    }
    if (t1 > from) segments_.push_back({from, t1, k, ops, span, share, activity});
    return;
  }
  auto idx = first;
  double t = t0;
  for (; t < t1; ++idx) {
    const double end = std::min(t1, static_cast<double>(idx + 1) * period_s_);
    if (!(end > t)) continue;
    const double dt = end - t;
    add(at(idx), k, dt, ops * dt / span, share, activity);
    t = end;
  }
}

void activity_ledger::add_bytes(double t, double read, double written) {
  const double q = std::floor(t / period_s_ + 1e-12);
  period_activity& p = at(q < 4.0e18 ? static_cast<std::int64_t>(q) : static_cast<std::int64_t>(4.0e18));
  p.bytes_read += read;
  p.bytes_written += written;
}

period_activity activity_ledger::take(std::int64_t index) {
  if (index < base_) return {};
  period_activity out;
  last_ = nullptr;
  // Periods before `index` that were never taken are forgotten with it.
  while (!periods_.empty() && periods_.begin()->first <= index) {
    if (periods_.begin()->first == index) out = periods_.begin()->second;
    periods_.erase(periods_.begin());
  }
  const double lo = static_cast<double>(index) * period_s_, hi = static_cast<double>(index + 1) * period_s_;
  for (std::size_t i = 0; i < segments_.size();) {
    segment& s = segments_[i];
    const double a = std::max(s.t0, lo), b = std::min(s.t1, hi);
    if (b > a) add(out, s.k, b - a, s.ops * (b - a) / s.span, s.share, s.activity);
    if (s.t1 <= hi) {
      segments_[i] = segments_.back();
      segments_.pop_back();
    } else {
      s.t0 = std::max(s.t0, hi);
      ++i;
    }
  }
  base_ = index + 1;
  return out;
}

}  // namespace ptsim::tlm_models
