#pragma once
// Bandwidth sharing between initiators under temporal decoupling. Time is cut into
// buckets of fixed width, each with capacity bandwidth*width bytes; a transfer books
// capacity from its start time onward, first come first served, so initiators that
// overlap in time share the bandwidth even when their transactions arrive out of order
// (each initiator runs ahead of the kernel by up to a quantum). Plain C++; times in s.
#include <cstdint>
#include <deque>

namespace ptsim::tlm {

class bandwidth_calendar {
 public:
  /// bytes_per_s > 0: sustainable bandwidth; bucket_s > 0: booking granularity.
  bandwidth_calendar(double bytes_per_s, double bucket_s);
  /// Books `bytes` starting no earlier than `start_s`; returns the completion time (s).
  double reserve(double start_s, double bytes);
  /// Forgets buckets that end before `now_s` (no transfer can start before the kernel time).
  void retire_before(double now_s);
  double bandwidth() const { return bw_; }
  std::size_t live_buckets() const { return used_.size(); }

 private:
  double bw_, bucket_s_, cap_;
  std::int64_t base_ = 0;     ///< index of used_.front()
  std::deque<double> used_;   ///< bytes booked per bucket
};

}  // namespace ptsim::tlm
