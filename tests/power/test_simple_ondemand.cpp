// devfreq simple_ondemand (drivers/devfreq/governor_simple_ondemand.c), decisions computed
// by hand in the kernel's integer arithmetic. Table 400/800/1200/1600/2000 MHz; 1 ms
// periods; polling_ms 10, so a decision every 10 periods on busy/total in microseconds.
#include <doctest/doctest.h>

#include <stdexcept>

#include "helpers.hpp"

using namespace ptsim::power;
using namespace ptsim::power::test;

namespace {
opp_table five_opps() { return table_mhz({{400, 0.6}, {800, 0.6}, {1200, 0.6}, {1600, 0.6}, {2000, 0.6}}); }

std::unique_ptr<cpufreq_governor> make_ondemand(const tunables& t) {
  auto g = governor_registry::instance().create("simple_ondemand", t);
  g->start(five_opps(), 0.0);
  return g;
}
}  // namespace

TEST_CASE("simple_ondemand: up, keep and load-proportional decisions (defaults 90 / 5)") {
  auto g = make_ondemand({{"polling_ms", 10}});
  loop l{*g};
  l.cur_hz = 2000 * MHz;
  // Until the polling period is complete the request stays where the device started.
  CHECK(l.run(9, 0.0) == 2000 * MHz);
  // busy 0 of 10000 us at 2000 MHz: 0 * 100 <= 10000 * 85, f = 0 -> lowest OPP, 400 MHz.
  CHECK(l.step(0.0) == 400 * MHz);
  // busy 9500 of 10000: 950000 > 10000 * 90 -> the maximum.
  CHECK(l.run(10, 0.95) == 2000 * MHz);
  // busy 8800: 880000 <= 900000 but > 10000 * (90 - 5) = 850000 -> keep 2000 MHz.
  CHECK(l.run(10, 0.88) == 2000 * MHz);
  // busy 5000: b = 5000 * 2e9 / 10000 = 1e9; * 100 / (90 - 5/2 = 88) = 1136363636 Hz
  // -> lowest OPP at or above: 1200 MHz.
  CHECK(l.run(10, 0.50) == 1200 * MHz);
  // busy 3000 at 1200 MHz: 3000 * 1.2e9 / 10000 = 3.6e8; * 100 / 88 = 409090909 -> 800 MHz.
  CHECK(l.run(10, 0.30) == 800 * MHz);
}

TEST_CASE("simple_ondemand: downdifferential / 2 truncates, as the kernel's unsigned division") {
  auto g = make_ondemand({{"polling_ms", 10}});
  loop l{*g};
  l.cur_hz = 2000 * MHz;
  // busy 3510 us: 3510 * 2e9 / 10000 = 702e6; * 100 / 88 = 797727272 Hz -> 800 MHz. With
  // an exact 90 - 2.5 = 87.5 it would be 802285714 Hz -> 1200 MHz.
  CHECK(l.run(10, 0.351) == 800 * MHz);
}

TEST_CASE("simple_ondemand: tunables (exynos-bus' 40 / 5) and the policy limits") {
  auto g = make_ondemand({{"polling_ms", 10}, {"upthreshold", 40}, {"downdifferential", 5}});
  loop l{*g};
  l.cur_hz = 400 * MHz;
  // busy 3800: 380000 > 10000 * 35 -> keep 400 MHz; busy 4100: 410000 > 400000 -> max.
  CHECK(l.run(10, 0.38) == 400 * MHz);
  CHECK(l.run(10, 0.41) == 2000 * MHz);
  // The maximum within a policy ceiling of 1700 MHz is 1600 MHz (highest OPP below it).
  l.policy_max_hz = 1700 * MHz;
  CHECK(l.run(10, 0.99) == 1600 * MHz);
  // A floor: load 0 goes to the lowest OPP at or above 1000 MHz.
  l.policy_max_hz = 0;
  l.policy_min_hz = 1000 * MHz;
  CHECK(l.run(10, 0.0) == 1200 * MHz);
}

TEST_CASE("simple_ondemand: an upthreshold below the downdifferential is refused (-EINVAL)") {
  CHECK_THROWS_AS(make_ondemand({{"upthreshold", 4}, {"downdifferential", 5}}), std::invalid_argument);
}

// The mobile GPU's default (presets/phone-flagship.yaml: Mali-G78 MP20 on gs101's shader
// clocks 202 .. 848 MHz, gs101-gpu.dtsi gpu_dvfs_table_v2) with the governor's defaults:
// upthreshold 90, downdifferential 5, polling 50 ms; 1 ms periods, so total = 50000 us.
TEST_CASE("simple_ondemand on the gs101 GPU table: defaults 90 / 5 / 50 ms, decisions by hand") {
  auto g = governor_registry::instance().create("simple_ondemand", {});
  g->start(table_mhz({{202, 0.55}, {251, 0.5625}, {302, 0.575}, {351, 0.5875}, {400, 0.6}, {471, 0.625},
                      {510, 0.64375}, {572, 0.6625}, {701, 0.725}, {762, 0.7625}, {848, 0.8}}),
           0.0);
  loop l{*g};
  l.cur_hz = 848 * MHz;
  // Inside the first window the device stays where it started.
  CHECK(l.run(49, 0.2) == 848 * MHz);
  // busy 0.2 x 50000 = 10000 us: 1000000 <= 50000 x 85; b = 10000 x 848e6 / 50000 = 169.6e6;
  // x 100 / 88 = 192727272 Hz -> the lowest OPP at or above: 202 MHz.
  CHECK(l.step(0.2) == 202 * MHz);
  // busy 47500 us (95 %): 4750000 > 50000 x 90 = 4500000 -> the maximum, 848 MHz.
  CHECK(l.run(50, 0.95) == 848 * MHz);
  // busy 43500 us (87 %): 4350000 <= 4500000 but > 50000 x 85 = 4250000 -> keep 848 MHz.
  CHECK(l.run(50, 0.87) == 848 * MHz);
  // busy 20000 us (40 %) at 848 MHz: b = 20000 x 848e6 / 50000 = 339.2e6; x 100 / 88 =
  // 385454545 Hz -> 400 MHz.
  CHECK(l.run(50, 0.40) == 400 * MHz);
  // busy 30000 us (60 %) at 400 MHz: 240e6 x 100 / 88 = 272727272 Hz -> 302 MHz.
  CHECK(l.run(50, 0.60) == 302 * MHz);
  // busy 44000 us (88 %) at 302 MHz: above 85 %, not above 90 %: kept at 302 MHz (the
  // proportional rule would give 44000 x 302e6 / 50000 x 100 / 88 = 302 MHz too: the band
  // keeps the clock where the load nearly fills it).
  CHECK(l.run(50, 0.88) == 302 * MHz);
  // busy 45500 us (91 %) at 302 MHz: 4550000 > 4500000 -> straight to 848 MHz.
  CHECK(l.run(50, 0.91) == 848 * MHz);
  // busy 35000 us (70 %) at 848 MHz: 593.6e6 x 100 / 88 = 674545454 Hz -> 701 MHz.
  CHECK(l.run(50, 0.70) == 701 * MHz);
}
