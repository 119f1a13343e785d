// bandwidth_calendar: capacity booked in buckets, first come first served.
// Numbers are chosen to be exact in binary: 1000 B/s, buckets of 0.25 s (250 B each),
// so every expected time below is bytes / bandwidth worked out by hand.
#include <doctest/doctest.h>

#include "approx.hpp"

#include <stdexcept>

#include "ptsim/tlm/bandwidth_calendar.hpp"

using tlm_test::near;
using ptsim::tlm::bandwidth_calendar;

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
