#pragma once
// Bandwidth sharing between initiators under temporal decoupling. Time is cut into
// buckets of fixed width, each with capacity bandwidth*width bytes; a transfer books
// capacity from its start time onward, first come first served, so initiators that
// overlap in time share the bandwidth even when their transactions arrive out of order
// (each initiator runs ahead of the kernel by up to a quantum). Plain C++; times in s.
//
// Buckets are kept as runs of equal fill (run-length), so a transfer of many buckets,
// or one across a long idle stretch, is booked in a few steps rather than one per
// bucket: a 64 MiB tile on HBM spans ~20 buckets of 1 us but touches one or two runs.
#include <cstdint>
#include <vector>

namespace ptsim::tlm_models {

/// The booking granularity of memories and interconnects: well below a tile's transfer time.
inline constexpr double calendar_bucket_s = 1e-6;

class bandwidth_calendar {
 public:
  /// bytes_per_s > 0: sustainable bandwidth; bucket_s > 0: booking granularity.
  bandwidth_calendar(double bytes_per_s, double bucket_s);
  /// Books `bytes` starting no earlier than `start_s`; returns the completion time (s).
  double reserve(double start_s, double bytes);
  /// Forgets buckets that end before `now_s` (no transfer can start before the kernel time).
  void retire_before(double now_s);
  double bandwidth() const { return bw_; }
  /// Buckets from the oldest live one to the last booked one.
  std::size_t live_buckets() const;
  /// Runs of equal fill that hold them (what a booking walks).
  std::size_t runs() const { return runs_.size() - head_; }

 private:
  struct run {
    std::int64_t first;  ///< index of its first bucket
    std::int64_t count;  ///< buckets in the run
    double used;         ///< bytes booked in each of them
  };
  /// Index of the run holding bucket k (k inside the booked span).
  std::size_t find(std::int64_t k) const;
  /// Makes bucket k start a run (splitting the run holding it); returns that run's index.
  std::size_t split_at(std::int64_t k);
  /// Sets the fill of buckets [k0, k0 + n) (inside the booked span).
  void fill(std::int64_t k0, std::int64_t n, double used);
  std::int64_t end() const { return runs_.size() == head_ ? base_ : runs_.back().first + runs_.back().count; }

  double bw_, bucket_s_, cap_;
  std::int64_t base_ = 0;   ///< oldest live bucket
  /// Live runs are runs_[head_..]: contiguous from base_; beyond end() every bucket is
  /// empty. Retired runs are dropped from the front in batches (a vector: bookings insert
  /// near its end, where that is cheap).
  std::vector<run> runs_;
  std::size_t head_ = 0;
};

}  // namespace ptsim::tlm_models
