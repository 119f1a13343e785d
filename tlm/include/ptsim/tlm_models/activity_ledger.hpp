#pragma once
// What a component did, attributed to control periods. Initiators run ahead of the
// kernel (temporal decoupling), so activity is booked by its own timestamps into the
// periods it falls in, and the control tick collects a period once it is over. Plain C++.
//
// Memory and time are bounded by what is live, not by how long an interval is: an
// interval that spans many periods (an operator on a very slow memory or at a tiny
// efficiency can take days of simulated time) is kept as one segment and attributed
// to each period only when the tick collects it, so booking it costs O(1) and a run
// that ends long before the segment does never materialises the periods beyond.
#include <cstdint>
#include <map>
#include <vector>

namespace ptsim::tlm_models {

struct period_activity {
  double compute_s = 0;   ///< executing arithmetic (or overlapped with memory)
  double stall_s = 0;     ///< waiting on memory beyond the arithmetic
  double overhead_s = 0;  ///< launch overhead and DVFS stalls
  /// Of compute_s, the seconds its kernels did not toggle: each computing second counts
  /// 1 - activity (op_activity below 1: a kernel kind that switches less of the unit).
  double quiet_s = 0;
  double ops = 0;         ///< arithmetic operations done
  double bytes_read = 0;
  double bytes_written = 0;
  double busy_s() const { return compute_s + stall_s + overhead_s; }
};

class activity_ledger {
 public:
  enum class kind { compute, stall, overhead };
  /// Intervals spanning more periods than this are kept as segments (see above).
  static constexpr std::int64_t segment_periods = 64;
  explicit activity_ledger(double period_s);
  // Not copied or moved: it remembers a pointer into its own map (the last period booked).
  activity_ledger(const activity_ledger&) = delete;
  activity_ledger& operator=(const activity_ledger&) = delete;
  /// Books the interval [t0, t1) of `k`, split over the periods it spans, and `ops`
  /// spread in proportion to time. `share` < 1 books work that occupies that share of the
  /// unit (host software on one core of a many-core cluster): its seconds count share-fold.
  /// `activity` < 1 (compute only) books 1 - activity of each computing second as quiet_s.
  void add_interval(double t0, double t1, kind k, double ops = 0, double share = 1, double activity = 1);
  /// Books bytes at time t.
  void add_bytes(double t, double read, double written);
  /// Returns and forgets period `index` (covering [index*T, (index+1)*T)).
  period_activity take(std::int64_t index);
  double period() const { return period_s_; }
  /// Live bookkeeping (periods booked ahead, long segments): for tests of the bound.
  std::size_t live_periods() const { return periods_.size(); }
  std::size_t live_segments() const { return segments_.size(); }

 private:
  struct segment {
    double t0, t1;  ///< [t0, t1), t0 >= the start of the oldest live period
    kind k;
    double ops;     ///< over the whole of [t0, t1)
    double span;    ///< t1 - t0 as first booked (ops are spread over it)
    double share;   ///< of the unit the work occupies
    double activity;
  };
  period_activity& at(std::int64_t index);
  /// The period holding t (period_of's answer), remembering the last one asked.
  std::int64_t period_at(double t);
  static void add(period_activity& p, kind k, double dt, double ops, double share = 1, double activity = 1);
  double period_s_;
  std::int64_t base_ = 0;  ///< oldest live period; earlier ones have been taken
  std::map<std::int64_t, period_activity> periods_;
  std::vector<segment> segments_;
  // Lookups remembered: at()'s last period, period_at()'s last answer and its bounds.
  std::int64_t last_index_ = 0;
  period_activity* last_ = nullptr;
  std::int64_t known_ = 0;
  double known_lo_ = 0, known_hi_ = -1;  // empty until the first call
};

}  // namespace ptsim::tlm_models
