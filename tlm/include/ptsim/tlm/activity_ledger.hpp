#pragma once
// What a component did, attributed to control periods. Initiators run ahead of the
// kernel (temporal decoupling), so activity is booked by its own timestamps into the
// periods it falls in, and the control tick collects a period once it is over. Plain C++.
#include <cstdint>
#include <deque>

namespace ptsim::tlm {

struct period_activity {
  double compute_s = 0;   ///< executing arithmetic (or overlapped with memory)
  double stall_s = 0;     ///< waiting on memory beyond the arithmetic
  double overhead_s = 0;  ///< launch overhead and DVFS stalls
  double ops = 0;         ///< arithmetic operations done
  double bytes_read = 0;
  double bytes_written = 0;
  double busy_s() const { return compute_s + stall_s + overhead_s; }
};

class activity_ledger {
 public:
  enum class kind { compute, stall, overhead };
  explicit activity_ledger(double period_s);
  /// Books the interval [t0, t1) of `k`, split over the periods it spans, and `ops`
  /// spread in proportion to time.
  void add_interval(double t0, double t1, kind k, double ops = 0);
  /// Books bytes at time t.
  void add_bytes(double t, double read, double written);
  /// Returns and forgets period `index` (covering [index*T, (index+1)*T)).
  period_activity take(std::int64_t index);
  double period() const { return period_s_; }

 private:
  period_activity& at(std::int64_t index);
  double period_s_;
  std::int64_t base_ = 0;
  std::deque<period_activity> periods_;
};

}  // namespace ptsim::tlm
