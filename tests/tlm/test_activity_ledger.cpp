// activity_ledger: intervals and bytes attributed to control periods of 1 ms.
#include <doctest/doctest.h>

#include "relative_approx.hpp"

#include "approx.hpp"

#include "ptsim/tlm_models/activity_ledger.hpp"

using tlm_test::near;
using ptsim::tlm_models::activity_ledger;
using kind = ptsim::tlm_models::activity_ledger::kind;

TEST_CASE("activity_ledger: intervals are split exactly across period boundaries") {
  activity_ledger l(1e-3);
  CHECK(l.period() == 1e-3);
  // Compute over [0.5 ms, 2.25 ms) with 1750 ops, spread in proportion to time:
  //   period 0: 0.5 ms, 500 ops; period 1: 1 ms, 1000 ops; period 2: 0.25 ms, 250 ops.
  l.add_interval(0.5e-3, 2.25e-3, kind::compute, 1750);
  // Stall over [2.25 ms, 2.5 ms): all in period 2.
  l.add_interval(2.25e-3, 2.5e-3, kind::stall);
  // Overhead over [0.9 ms, 1 ms): ends exactly on the boundary, so all in period 0.
  l.add_interval(0.9e-3, 1.0e-3, kind::overhead);
  // An empty or reversed interval books nothing.
  l.add_interval(0.7e-3, 0.7e-3, kind::compute, 99);
  l.add_interval(0.8e-3, 0.7e-3, kind::compute, 99);

  const auto p0 = l.take(0);
  CHECK(p0.compute_s == near(0.5e-3));
  CHECK(p0.ops == near(500));
  CHECK(p0.overhead_s == near(0.1e-3));
  CHECK(p0.stall_s == 0);
  CHECK(p0.busy_s() == near(0.6e-3));

  const auto p1 = l.take(1);
  CHECK(p1.compute_s == near(1e-3));
  CHECK(p1.ops == near(1000));
  CHECK(p1.overhead_s == 0);
  CHECK(p1.stall_s == 0);

  const auto p2 = l.take(2);
  CHECK(p2.compute_s == near(0.25e-3));
  CHECK(p2.ops == near(250));
  CHECK(p2.stall_s == near(0.25e-3));
  CHECK(p2.busy_s() == near(0.5e-3));
}

TEST_CASE("activity_ledger: take() returns a period once and forgets it") {
  activity_ledger l(1e-3);
  l.add_interval(0.0, 0.4e-3, kind::compute, 40);
  const auto first = l.take(0);
  CHECK(first.compute_s == near(0.4e-3));
  CHECK(first.ops == near(40));
  const auto again = l.take(0);  // already taken: nothing left
  CHECK(again.compute_s == 0);
  CHECK(again.ops == 0);
  // A late booking stamped in a collected period is not lost: it lands in the
  // oldest live period (1).
  l.add_interval(0.5e-3, 0.6e-3, kind::stall);
  const auto p1 = l.take(1);
  CHECK(p1.stall_s == near(0.1e-3));
  // A period nobody booked is empty.
  const auto p5 = l.take(5);
  CHECK(p5.busy_s() == 0);
  CHECK(p5.bytes_read == 0);
}

TEST_CASE("activity_ledger: bytes land in the period of their timestamp") {
  activity_ledger l(1e-3);
  l.add_bytes(0.9999e-3, 100, 0);  // period 0
  l.add_bytes(1.0e-3, 0, 50);      // a boundary belongs to the later period: 1
  l.add_bytes(1.5e-3, 20, 30);     // period 1
  l.add_bytes(2.5e-3, 7, 0);       // period 2
  const auto p0 = l.take(0), p1 = l.take(1), p2 = l.take(2);
  CHECK(p0.bytes_read == 100);
  CHECK(p0.bytes_written == 0);
  CHECK(p1.bytes_read == 20);
  CHECK(p1.bytes_written == 80);
  CHECK(p2.bytes_read == 7);
  CHECK(p2.bytes_written == 0);
}

TEST_CASE("activity_ledger: intervals far into a run, starting on a rounded boundary, terminate") {
  // 32.001 s is 32001 periods of 1 ms, but 32.001 / 0.001 rounds to 32000.999...; an
  // interval starting there once looped forever. Every busy second must be booked once.
  ptsim::tlm_models::activity_ledger l(1e-3);
  const double b = 32001 * 1e-3;
  l.add_interval(b, b + 2.5e-3, ptsim::tlm_models::activity_ledger::kind::compute, 10);
  double booked = 0, ops = 0;
  for (std::int64_t i = 31999; i < 32010; ++i) {
    const auto a = l.take(i);
    booked += a.compute_s;
    ops += a.ops;
  }
  CHECK(booked == ptsim_test::Approx(2.5e-3).epsilon(1e-9));
  CHECK(ops == ptsim_test::Approx(10).epsilon(1e-9));
}

TEST_CASE("activity_ledger: an interval of days costs one segment, attributed period by period") {
  // 1 B/s memory: one tile's stall lasts ~3.8 days, 3.3e8 periods of 1 ms. Booking it must
  // not materialise those periods (it once took 19 s and 12.8 GB); each tick gets its share.
  activity_ledger l(1e-3);
  const double t0 = 0.25e-3, t1 = 327680.0;
  l.add_interval(t0, t1, kind::stall, 0);
  l.add_interval(t0, t1, kind::compute, (t1 - t0) * 1e6);  // 1e6 ops/s
  CHECK(l.live_segments() == 2);
  CHECK(l.live_periods() == 0);
  const auto p0 = l.take(0);
  CHECK(p0.stall_s == near(0.75e-3));
  CHECK(p0.compute_s == near(0.75e-3));
  CHECK(p0.ops == near(750));
  for (std::int64_t k = 1; k < 1000; ++k) {
    const auto p = l.take(k);
    CHECK(p.stall_s == near(1e-3));
    CHECK(p.ops == near(1000));
  }
  // Short bookings beside it still add up in their periods.
  l.add_interval(1.0005, 1.0009, kind::overhead);
  const auto p1000 = l.take(1000);
  CHECK(p1000.overhead_s == near(0.4e-3));
  CHECK(p1000.stall_s == near(1e-3));
  CHECK(l.live_segments() == 2);
  CHECK(l.live_periods() == 0);
}

TEST_CASE("activity_ledger: a long segment ends in its last period and is forgotten") {
  activity_ledger l(1e-3);
  l.add_interval(0.0, 0.1005, kind::compute, 1005);  // 100.5 periods: a segment
  CHECK(l.live_segments() == 1);
  double total = 0, ops = 0;
  for (std::int64_t k = 0; k <= 101; ++k) {
    const auto p = l.take(k);
    total += p.compute_s;
    ops += p.ops;
  }
  CHECK(total == near(0.1005));
  CHECK(ops == near(1005));
  CHECK(l.live_segments() == 0);
  // Part of a long interval stamped before the oldest live period lands there.
  l.add_interval(0.05, 0.3, kind::stall);
  const auto p102 = l.take(102);
  CHECK(p102.stall_s == near(0.102 - 0.05 + 1e-3));
}

TEST_CASE("activity_ledger: computing seconds at an activity below 1 book the rest as quiet, segments too") {
  activity_ledger l(1e-3);
  // [0.5 ms, 1.5 ms) at activity 0.25: each period 0.5 ms computing, 0.375 ms of it quiet.
  l.add_interval(0.5e-3, 1.5e-3, kind::compute, 0, 1, 0.25);
  // A stall at activity 0.25 books no quiet time: op_activity is the arithmetic's.
  l.add_interval(1.5e-3, 1.8e-3, kind::stall, 0, 1, 0.25);
  // A segment (longer than segment_periods): [2 ms, 102 ms) at activity 0.6, 0.4 ms quiet a period.
  l.add_interval(2e-3, 102e-3, kind::compute, 0, 1, 0.6);
  CHECK(l.live_segments() == 1);
  const auto p0 = l.take(0), p1 = l.take(1), p2 = l.take(2), p50 = l.take(50);
  CHECK(p0.compute_s == near(0.5e-3));
  CHECK(p0.quiet_s == near(0.375e-3));
  CHECK(p1.quiet_s == near(0.375e-3));
  CHECK(p1.stall_s == near(0.3e-3));
  CHECK(p2.compute_s == near(1e-3));
  CHECK(p2.quiet_s == near(0.4e-3));
  CHECK(p50.quiet_s == near(0.4e-3));
  // Activity 1 (the default) books none.
  l.add_interval(200e-3, 200.5e-3, kind::compute, 0);
  CHECK(l.take(200).quiet_s == 0);
}

TEST_CASE("activity_ledger: the remembered period and lookup never misplace a booking") {
  // Bookings in one period, then across its upper boundary, then back into it: each lands in
  // the period its own time says, whatever was looked up last. Period 0 is [0, 1 ms).
  activity_ledger l(1e-3);
  l.add_interval(0.2e-3, 0.4e-3, kind::compute, 2);  // remembers period 0
  l.add_interval(1.0e-3, 1.5e-3, kind::stall);       // starts exactly on period 1's start
  l.add_interval(0.6e-3, 0.7e-3, kind::overhead);    // back in period 0
  l.add_bytes(0.9e-3, 10, 0);
  l.add_bytes(1.1e-3, 0, 20);
  const auto p0 = l.take(0);
  CHECK(p0.compute_s == near(0.2e-3));
  CHECK(p0.ops == near(2));
  CHECK(p0.overhead_s == near(0.1e-3));
  CHECK(p0.stall_s == 0);
  CHECK(p0.bytes_read == 10);
  CHECK(p0.bytes_written == 0);
  // take() erased period 0: a late booking into it now lands in the oldest live period (1),
  // not in the erased one that was remembered.
  l.add_interval(0.8e-3, 0.9e-3, kind::overhead);
  const auto p1 = l.take(1);
  CHECK(p1.stall_s == near(0.5e-3));
  CHECK(p1.overhead_s == near(0.1e-3));
  CHECK(p1.bytes_written == 20);
  CHECK(p1.compute_s == 0);
}
