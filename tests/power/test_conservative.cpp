#include <doctest/doctest.h>

#include <stdexcept>

#include "helpers.hpp"

using namespace ptsim::power;
using namespace ptsim::power::test;

namespace {
// 400, 600, ..., 2000 MHz: 9 OPPs 200 MHz apart.
opp_table nine_opps() {
  std::vector<std::pair<double, double>> pts;
  for (int i = 0; i < 9; ++i) pts.push_back({400.0 + 200.0 * i, 0.5 + 0.05 * i});
  return table_mhz(pts);
}
std::unique_ptr<cpufreq_governor> make_conservative(tunables t) {
  t["sampling_rate_us"] = 1000;  // one decision per 1 ms control period
  auto g = governor_registry::instance().create("conservative", t);
  g->start(nine_opps(), 500e-6);
  return g;
}
}  // namespace

TEST_CASE("conservative: one step per sample up and down, hold in between, clamp at min") {
  // freq_step 10 % of 2000 MHz = 200 MHz: one OPP per step.
  auto g = make_conservative({{"freq_step", 10}});
  loop l{*g};
  l.cur_hz = 400 * MHz;
  CHECK(l.step(0.9) == 600 * MHz);   // load 90 > 80: 400 + 200
  CHECK(l.step(0.9) == 800 * MHz);   // 600 + 200
  CHECK(l.step(0.5) == 800 * MHz);   // 20 <= 50 <= 80: hold
  CHECK(l.step(0.1) == 600 * MHz);   // load 10 < 20: 800 - 200
  CHECK(l.step(0.1) == 400 * MHz);   // 600 - 200
  CHECK(l.step(0.1) == 400 * MHz);   // at the min: stays
  CHECK(l.step(0.8) == 400 * MHz);   // load 80 is not > 80
}

TEST_CASE("conservative: default 5 % step accumulates below the OPP spacing, clamps at max") {
  // step = 5 % of 2000 MHz = 100 MHz; increases use RELATION_H (highest OPP <= request).
  auto g = make_conservative({});
  loop l{*g};
  l.cur_hz = 1600 * MHz;
  CHECK(l.step(1.0) == 1600 * MHz);  // requested 1700 -> H -> 1600
  CHECK(l.step(1.0) == 1800 * MHz);  // requested 1800
  CHECK(l.step(1.0) == 1800 * MHz);  // requested 1900 -> 1800
  CHECK(l.step(1.0) == 2000 * MHz);  // requested 2000
  CHECK(l.step(1.0) == 2000 * MHz);  // min(2100, 2000): clamped at max
  // Decreases use RELATION_L (lowest OPP >= request).
  CHECK(l.step(0.0) == 2000 * MHz);  // requested 1900 -> L -> 2000
  CHECK(l.step(0.0) == 1800 * MHz);  // requested 1800
  CHECK(l.step(0.0) == 1800 * MHz);  // requested 1700 -> 1800
}

TEST_CASE("conservative: step and clamp follow the policy max") {
  // freq_step 10 % of a 1600 MHz policy max = 160 MHz.
  auto g = make_conservative({{"freq_step", 10}});
  loop l{*g};
  l.cur_hz = 1200 * MHz;
  l.policy_max_hz = 1600 * MHz;
  CHECK(l.step(1.0) == 1200 * MHz);  // requested 1360 -> H -> 1200
  CHECK(l.step(1.0) == 1400 * MHz);  // requested 1520 -> H -> 1400
  CHECK(l.step(1.0) == 1600 * MHz);  // min(1680, 1600) = 1600
  CHECK(l.step(1.0) == 1600 * MHz);  // already at the policy max
}

TEST_CASE("conservative: sampling_down_factor delays decreases") {
  auto g = make_conservative({{"freq_step", 10}, {"sampling_down_factor", 2}});
  loop l{*g};
  l.cur_hz = 1000 * MHz;
  CHECK(l.step(0.0) == 1000 * MHz);  // 1st low sample: skipped
  CHECK(l.step(0.0) == 800 * MHz);   // 2nd: 1000 - 200
  CHECK(l.step(0.0) == 800 * MHz);   // skipped
  CHECK(l.step(0.0) == 600 * MHz);
  CHECK(l.step(1.0) == 800 * MHz);   // increases are never delayed
}

TEST_CASE("conservative: evaluates only every sampling period (default 8 ms)") {
  auto g = governor_registry::instance().create("conservative", {{"freq_step", 10}});
  g->start(nine_opps(), 500e-6);
  loop l{*g};
  l.cur_hz = 400 * MHz;
  CHECK(l.run(7, 1.0) == 400 * MHz);
  CHECK(l.step(1.0) == 600 * MHz);
  CHECK(l.run(7, 1.0) == 600 * MHz);
  CHECK(l.step(1.0) == 800 * MHz);
}

TEST_CASE("conservative: down_threshold must be below up_threshold") {
  CHECK_THROWS_AS(governor_registry::instance().create(
                      "conservative", {{"up_threshold", 50}, {"down_threshold", 60}}),
                  std::invalid_argument);
}
