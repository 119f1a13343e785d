// bandwidth_calendar: capacity booked in buckets, first come first served.
// Numbers are chosen to be exact in binary: 1000 B/s, buckets of 0.25 s (250 B each),
// so every expected time below is bytes / bandwidth worked out by hand.
#include <doctest/doctest.h>

#include "approx.hpp"

#include <cmath>
#include <cstdint>
#include <map>
#include <stdexcept>

#include "ptsim/tlm_models/bandwidth_calendar.hpp"

using tlm_test::near;
using ptsim::tlm_models::bandwidth_calendar;

namespace {
constexpr double bw = 1000.0;   // B/s
constexpr double bucket = 0.25; // s
}  // namespace

TEST_CASE("bandwidth_calendar: a single transfer takes bytes / bandwidth") {
  bandwidth_calendar c(bw, bucket);
  CHECK(c.bandwidth() == bw);
  // 1000 B at 1000 B/s from t = 0: done at 1 s.
  CHECK(c.reserve(0.0, 1000.0) == near(1.0));
  // On an idle link a transfer starting mid-bucket: 10.1 s + 300/1000 s = 10.4 s.
  bandwidth_calendar d(bw, bucket);
  CHECK(d.reserve(10.1, 300.0) == near(10.4));
  // Zero bytes take no time.
  CHECK(d.reserve(3.0, 0.0) == near(3.0));
}

TEST_CASE("bandwidth_calendar: two transfers starting together share the bandwidth") {
  bandwidth_calendar c(bw, bucket);
  // The first gets the link as if alone: 1000/1000 = 1 s; the second waits for it: 2 s.
  CHECK(c.reserve(0.0, 1000.0) == near(1.0));
  CHECK(c.reserve(0.0, 1000.0) == near(2.0));
  // Sizes that end mid-bucket: 1100 B each -> 1.1 s and 2.2 s.
  bandwidth_calendar d(bw, bucket);
  CHECK(d.reserve(0.0, 1100.0) == near(1.1));
  CHECK(d.reserve(0.0, 1100.0) == near(2.2));
}

TEST_CASE("bandwidth_calendar: out-of-order bookings still share capacity") {
  bandwidth_calendar c(bw, bucket);
  // B starts later (t = 2 s, 500 B) but is booked first: alone on the link, done at 2.5 s.
  CHECK(c.reserve(2.0, 500.0) == near(2.5));
  // A starts at 0 with 3000 B: it has [0, 2) to itself (2000 B), must not use B's
  // [2, 2.5), then carries its last 1000 B over [2.5, 3.5). Equivalently: all
  // 3500 B booked since t = 0 go through by 3500/1000 = 3.5 s.
  CHECK(c.reserve(0.0, 3000.0) == near(3.5));
  // A third, from 0 with 250 B, finds the link full until 3.5 s: 3.75 s.
  CHECK(c.reserve(0.0, 250.0) == near(3.75));
}

TEST_CASE("bandwidth_calendar: retire_before forgets the past and keeps bookings correct") {
  bandwidth_calendar c(bw, bucket);
  CHECK(c.reserve(0.0, 1000.0) == near(1.0));
  CHECK(c.live_buckets() == 4);  // [0, 1) in 0.25 s buckets
  c.retire_before(0.5);          // buckets [0, 0.25) and [0.25, 0.5) have ended
  CHECK(c.live_buckets() == 2);
  c.retire_before(0.6);  // [0.5, 0.75) has not ended: nothing more to forget
  CHECK(c.live_buckets() == 2);
  // The live part of the first booking still holds: a new 500 B from 0.5 s waits until 1 s.
  CHECK(c.reserve(0.5, 500.0) == near(1.5));
  // A start before the retired horizon is booked from the oldest live bucket (0.5 s):
  // the link is full until 1.5 s, so 250 B end at 1.75 s.
  CHECK(c.reserve(0.1, 250.0) == near(1.75));
  // Retiring past every booking leaves an idle link.
  c.retire_before(10.0);
  CHECK(c.live_buckets() == 0);
  CHECK(c.reserve(10.0, 250.0) == near(10.25));

  // A bucket partly used and still live after retiring: 100 B at 0 end at 0.1 s; the
  // link is idle afterwards, so 100 B from 0.2 s end at 0.3 s.
  bandwidth_calendar d(bw, bucket);
  CHECK(d.reserve(0.0, 100.0) == near(0.1));
  d.retire_before(0.2);
  CHECK(d.live_buckets() == 1);
  CHECK(d.reserve(0.2, 100.0) == near(0.3));
}

TEST_CASE("bandwidth_calendar: rejects non-positive bandwidth or bucket") {
  CHECK_THROWS_AS(bandwidth_calendar(0.0, bucket), std::invalid_argument);
  CHECK_THROWS_AS(bandwidth_calendar(bw, 0.0), std::invalid_argument);
}

namespace {

// The calendar's semantics, one bucket at a time, as plainly as possible: the reference
// the run-length implementation must match on any sequence of bookings and retirements.
class reference_calendar {
 public:
  reference_calendar(double bw, double bucket) : bw_(bw), w_(bucket), cap_(bw * bucket) {}
  double reserve(double start, double bytes) {
    if (bytes <= 0) return start;
    auto k = static_cast<std::int64_t>(std::floor(start / w_));
    double t = start;
    if (k < base_) k = base_, t = static_cast<double>(k) * w_;
    for (;;) {
      double& used = used_[k];
      const double b0 = static_cast<double>(k) * w_;
      const double avail = std::min(cap_ - used, (b0 + w_ - t) * bw_);
      if (avail > 0) {
        const double take = std::min(avail, bytes);
        used += take;
        bytes -= take;
        if (bytes <= 0) return std::max(t + take / bw_, b0 + used / bw_);
      }
      ++k;
      t = static_cast<double>(k) * w_;
    }
  }
  void retire_before(double now) {
    const auto k = static_cast<std::int64_t>(std::floor(now / w_));
    if (k > base_) base_ = k;
  }

 private:
  double bw_, w_, cap_;
  std::int64_t base_ = 0;
  std::map<std::int64_t, double> used_;
};

}  // namespace

TEST_CASE("bandwidth_calendar: run-length booking matches bucket-by-bucket booking") {
  // Pseudo-random starts, sizes from a fraction of a bucket to hundreds of buckets, and
  // retirements, as several initiators running ahead of the kernel produce them.
  for (int trial = 0; trial < 20; ++trial) {
    CAPTURE(trial);
    bandwidth_calendar c(bw, bucket);
    reference_calendar r(bw, bucket);
    std::uint64_t x = 12345 + static_cast<std::uint64_t>(trial) * 7919;
    auto next = [&x] { return (x = x * 6364136223846793005ull + 1442695040888963407ull) >> 11; };
    double now = 0;
    for (int i = 0; i < 400; ++i) {
      const double start = now + static_cast<double>(next() % 4000) / 1000.0;        // up to 16 buckets ahead
      const double bytes = next() % 3 == 0 ? static_cast<double>(next() % 60000)     // up to 240 buckets
                                           : static_cast<double>(next() % 400);
      CHECK(c.reserve(start, bytes) == near(r.reserve(start, bytes), 1e-12));
      if (next() % 5 == 0) {
        now += static_cast<double>(next() % 2000) / 1000.0;
        c.retire_before(now);
        r.retire_before(now);
      }
    }
    // Long transfers collapse into a few runs.
    CHECK(c.runs() < c.live_buckets() + 1);
  }
  // A transfer of a million buckets on an idle link is booked in closed form.
  bandwidth_calendar big(bw, bucket);
  CHECK(big.reserve(0.0, 250.0 * 1e6) == near(250e3));
  CHECK(big.runs() == 1);
  CHECK(big.live_buckets() == 1000000);
}
