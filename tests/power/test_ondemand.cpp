#include <doctest/doctest.h>

#include "helpers.hpp"

using namespace ptsim::power;
using namespace ptsim::power::test;

// Table 500/1000/1500/2000 MHz; latency 500 us -> sampling rate max(8000, 2000) = 8 ms,
// i.e. one decision every 8 control periods of 1 ms.

TEST_CASE("ondemand holds the start frequency until the first 8 ms window closes") {
  auto g = governor_registry::instance().create("ondemand", {});
  g->start(four_opps(), 500e-6);
  loop l{*g};
  l.cur_hz = 500 * MHz;
  CHECK(l.run(7, 1.0) == 500 * MHz);   // 7 ms: no decision yet
  CHECK(l.step(1.0) == 2000 * MHz);    // 8 ms: load 100 > 95 -> policy max
}

TEST_CASE("ondemand: jump above up_threshold, sampling_down_factor keeps max longer") {
  auto g = governor_registry::instance().create("ondemand", {{"sampling_down_factor", 2}});
  g->start(four_opps(), 500e-6);
  loop l{*g};
  l.cur_hz = 500 * MHz;
  CHECK(l.run(8, 1.0) == 2000 * MHz);  // jump at 8 ms; cur 500 < max -> next window 2 x 8 ms
  // Idle from now on: the next decision is 16 ms later, not 8.
  CHECK(l.run(15, 0.0) == 2000 * MHz);
  // 16th ms: load 0 -> f = 500 + 0 * (2000 - 500) / 100 = 500 MHz
  CHECK(l.step(0.0) == 500 * MHz);
  // rate_mult is back to 1: next decision after 8 ms.
  CHECK(l.run(7, 1.0) == 500 * MHz);
  CHECK(l.step(1.0) == 2000 * MHz);
}

TEST_CASE("ondemand: proportional step below up_threshold, load averaged over the window") {
  auto g = governor_registry::instance().create("ondemand", {});
  g->start(four_opps(), 500e-6);
  loop l{*g};
  l.cur_hz = 2000 * MHz;
  // 4 ms at 100 % and 4 ms at 20 %: load = 100 * (4 + 0.8) / 8 = 60
  // f = 500 + 60 * 1500 / 100 = 1400 MHz -> closest OPP 1500 MHz
  l.run(4, 1.0);
  CHECK(l.run(4, 0.2) == 1500 * MHz);
  // load 40: f = 500 + 40 * 15 = 1100 MHz -> closest 1000 MHz
  CHECK(l.run(8, 0.4) == 1000 * MHz);
}

TEST_CASE("ondemand: load equal to up_threshold is not above it") {
  auto g = governor_registry::instance().create("ondemand", {{"up_threshold", 80}});
  g->start(four_opps(), 500e-6);
  loop l{*g};
  l.cur_hz = 500 * MHz;
  // load 80, not > 80: f = 500 + 80 * 15 = 1700 MHz -> closest 1500 MHz (not the max)
  CHECK(l.run(8, 0.8) == 1500 * MHz);
  // load 81 > 80 -> max
  CHECK(l.run(8, 0.81) == 2000 * MHz);
}

TEST_CASE("ondemand: requests stay inside the policy limits") {
  auto g = governor_registry::instance().create("ondemand", {{"sampling_rate_us", 1000}});
  g->start(four_opps(), 500e-6);
  loop l{*g};
  l.cur_hz = 500 * MHz;
  l.policy_max_hz = 1500 * MHz;
  CHECK(l.step(1.0) == 1500 * MHz);  // load 100 -> policy max 1500 MHz
  l.policy_max_hz = 1000 * MHz;      // ceiling drops between decisions...
  l.policy_min_hz = 1000 * MHz;
  CHECK(l.step(0.0) == 1000 * MHz);  // load 0 -> 500 MHz, raised to the 1000 MHz floor
}

TEST_CASE("ondemand: io_is_busy counts iowait as load") {
  auto g = governor_registry::instance().create("ondemand", {{"io_is_busy", 1}});
  g->start(four_opps(), 500e-6);
  loop l{*g};
  l.cur_hz = 500 * MHz;
  // busy 0.5 + iowait 0.5 = 100 % -> max; without io_is_busy it would be load 50
  CHECK(l.run(8, 0.5, 0.5) == 2000 * MHz);
}
