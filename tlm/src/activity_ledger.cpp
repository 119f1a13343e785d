#include "ptsim/tlm/activity_ledger.hpp"

#include <algorithm>
#include <cmath>

namespace ptsim::tlm {

activity_ledger::activity_ledger(double period_s) : period_s_(period_s) {}

period_activity& activity_ledger::at(std::int64_t index) {
  // Late bookings into an already collected period land in the oldest live one.
  if (index < base_) index = base_;
  while (static_cast<std::int64_t>(periods_.size()) <= index - base_) periods_.emplace_back();
  return periods_[static_cast<std::size_t>(index - base_)];
}

void activity_ledger::add_interval(double t0, double t1, kind k, double ops) {
  if (!(t1 > t0)) return;
  const double span = t1 - t0;
  // Walk period indices, not times: t / T rounds, and a boundary computed as (i+1)*T
  // can equal t while floor(t / T) still says i, so a time-driven loop can stall.
  auto idx = static_cast<std::int64_t>(std::floor(t0 / period_s_));
  while (static_cast<double>(idx + 1) * period_s_ <= t0) ++idx;
  while (idx > 0 && static_cast<double>(idx) * period_s_ > t0) --idx;
  double t = t0;
  for (; t < t1; ++idx) {
    const double end = std::min(t1, static_cast<double>(idx + 1) * period_s_);
    if (!(end > t)) continue;
    const double dt = end - t;
    period_activity& p = at(idx);
    switch (k) {
      case kind::compute: p.compute_s += dt; break;
      case kind::stall: p.stall_s += dt; break;
      case kind::overhead: p.overhead_s += dt; break;
    }
    p.ops += ops * dt / span;
    t = end;
  }
}

void activity_ledger::add_bytes(double t, double read, double written) {
  period_activity& p = at(static_cast<std::int64_t>(std::floor(t / period_s_ + 1e-12)));
  p.bytes_read += read;
  p.bytes_written += written;
}

period_activity activity_ledger::take(std::int64_t index) {
  if (index < base_) return {};
  period_activity out = at(index);
  while (base_ <= index && !periods_.empty()) {
    periods_.pop_front();
    ++base_;
  }
  if (base_ <= index) base_ = index + 1;
  return out;
}

}  // namespace ptsim::tlm
