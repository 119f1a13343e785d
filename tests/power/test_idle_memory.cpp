// The menu-like idle governor (prediction from recent idle periods, then the deepest state
// that fits), idle power by leakage fraction, and DRAM power with refresh, self-refresh
// and the generation presets.
#include <doctest/doctest.h>

#include "relative_approx.hpp"

#include <cmath>
#include <limits>
#include <stdexcept>

#include "ptsim/power/idle_states.hpp"
#include "ptsim/power/memory_power.hpp"

using namespace ptsim::power;

namespace {
std::vector<idle_state> three_states() {
  idle_state cg{"clock_gated", 0, 0, 1e-6, 0, 1.0};
  idle_state ret{"retention", 0, 20e-6, 100e-6, 2e-3, 0.5};
  idle_state pg{"power_gated", 0, 100e-6, 1e-3, 20e-3, 0.1};
  return {cg, ret, pg};
}
}  // namespace

TEST_CASE("the predictor takes the mean of steady idle periods") {
  idle_predictor p;
  CHECK(std::isinf(p.predicted_s()));  // nothing pending yet: unbounded
  for (int i = 0; i < 3; ++i) p.observe(9e-3);
  CHECK(p.predicted_s() == ptsim_test::Approx(9e-3));
  // 8, 9, 10 ms: mean 9 ms, stddev 0.816 ms < 9/6 ms: accepted.
  idle_predictor q;
  for (double x : {8e-3, 9e-3, 10e-3}) q.observe(x);
  CHECK(q.predicted_s() == ptsim_test::Approx(9e-3));
}

TEST_CASE("the predictor drops outliers as menu does, then falls back on the shortest period") {
  // Seven periods of 5 ms and one of 100 ms: the mean (16.875 ms) has stddev 31.4 ms, so
  // the largest is dropped and the seven 5 ms periods give 5 ms.
  idle_predictor p;
  for (int i = 0; i < 7; ++i) p.observe(5e-3);
  p.observe(100e-3);
  CHECK(p.predicted_s() == ptsim_test::Approx(5e-3));
  // Alternating 1 ms and 10 ms: mean 5.5 ms, stddev 4.5 ms; dropping the largest twice
  // leaves four of 1 ms and two of 10 ms (mean 3 ms, stddev 4.36 ms), still no typical
  // interval, and menu stops at six: the shortest, 1 ms.
  idle_predictor q;
  for (int i = 0; i < 8; ++i) q.observe(i % 2 ? 10e-3 : 1e-3);
  CHECK(q.predicted_s() == ptsim_test::Approx(1e-3));
  // The window is the last 8: after 8 more steady periods the old ones are gone.
  for (int i = 0; i < 8; ++i) q.observe(3e-3);
  CHECK(q.predicted_s() == ptsim_test::Approx(3e-3));
}

TEST_CASE("the governor picks the deepest state the predicted idle period and the latency limit allow") {
  idle_governor g(three_states(), std::numeric_limits<double>::infinity());
  CHECK(g.select() == 2);  // no history: deepest
  g.reflect(9e-3);         // 9 ms: retention (2 ms) fits, power gating (20 ms) does not
  CHECK(g.select() == 1);
  idle_governor q(three_states(), 500e-6);  // PM QoS: power gating's 1 ms exit is too slow
  CHECK(q.select() == 1);
  for (int i = 0; i < 8; ++i) q.reflect(1e-3);
  CHECK(q.select() == 0);  // 1 ms idle: only clock gating
}

TEST_CASE("state power as a share of leakage; one form per list; deeper may not draw more") {
  const auto st = three_states();
  CHECK(st[1].power_at(0.2) == ptsim_test::Approx(0.1));
  CHECK(st[2].power_at(0.2) == ptsim_test::Approx(0.02));
  idle_state fixed{"fixed", 0.05, 0, 0, 0};
  CHECK(fixed.power_at(123.0) == 0.05);
  CHECK_NOTHROW(validate_idle_states(st));
  auto mixed = st;
  mixed[1].leakage_fraction = -1;
  mixed[1].power_W = 0.01;
  CHECK_THROWS_AS(validate_idle_states(mixed), std::invalid_argument);
  auto hungrier = st;
  hungrier[2].leakage_fraction = 0.7;
  CHECK_THROWS_AS(validate_idle_states(hungrier), std::invalid_argument);
  auto over = st;
  over[0].leakage_fraction = 1.5;
  CHECK_THROWS_AS(validate_idle_states(over), std::invalid_argument);
}

TEST_CASE("DRAM power: background, refresh and bytes while active; self-refresh after the idle timer") {
  memory_power_params p;
  p.background_W = 0.5;
  p.refresh_W = 0.1;
  p.energy_per_byte_read_J = 30e-12;
  p.energy_per_byte_write_J = 40e-12;
  p.self_refresh_W = 0.05;
  p.self_refresh_after_s = 2e-3;
  memory_power_model m(p);
  const double T = 1e-3;
  // Traffic: 0.5 + 0.1 + (30e-12 * 1e7 + 40e-12 * 5e6) / 1e-3 = 0.6 + 0.3 + 0.2 = 1.1 W.
  CHECK(m.step_W(1e7, 5e6, T) == ptsim_test::Approx(1.1));
  // Idle periods: the timer counts 0, 1 ms (still active: 0.6 W), then 2 ms: self-refresh.
  CHECK(m.step_W(0, 0, T) == ptsim_test::Approx(0.6));
  CHECK(m.step_W(0, 0, T) == ptsim_test::Approx(0.6));
  CHECK(m.step_W(0, 0, T) == ptsim_test::Approx(0.05));
  CHECK(m.in_self_refresh());
  CHECK(m.step_W(0, 0, T) == ptsim_test::Approx(0.05));
  // Traffic wakes it and restarts the timer.
  CHECK(m.step_W(1e6, 0, T) == ptsim_test::Approx(0.6 + 0.03));
  CHECK_FALSE(m.in_self_refresh());
  CHECK(m.step_W(0, 0, T) == ptsim_test::Approx(0.6));
  // Energy over the 7 periods, by hand: (1.1 + 0.6 + 0.6 + 0.05 + 0.05 + 0.63 + 0.6) mJ = 3.63 mJ.
  memory_power_model e(p);
  double J = 0;
  for (double r : {1e7, 0.0, 0.0, 0.0, 0.0, 1e6, 0.0}) J += e.step_W(r, r == 1e7 ? 5e6 : 0, T) * T;
  CHECK(J == ptsim_test::Approx(3.63e-3));
  // Without a self-refresh power it never leaves the active state.
  memory_power_params q = p;
  q.self_refresh_W = -1;
  memory_power_model n(q);
  for (int i = 0; i < 5; ++i) CHECK(n.step_W(0, 0, T) == ptsim_test::Approx(0.6));
}

TEST_CASE("memory presets: every generation, lower-power generations cheaper per byte") {
  for (const char* name : {"lpddr5", "lpddr5x", "ddr5", "gddr6", "hbm3", "hbm3e"}) {
    CAPTURE(name);
    const memory_preset* m = find_memory_preset(name);
    REQUIRE(m);
    CHECK(m->read_J_per_B > 0);
    CHECK(m->self_refresh_W_per_GB < m->background_W_per_GB);  // self-refresh saves power
  }
  CHECK(find_memory_preset("lpddr5x")->read_J_per_B < find_memory_preset("lpddr5")->read_J_per_B);
  CHECK(find_memory_preset("hbm3e")->read_J_per_B < find_memory_preset("hbm3")->read_J_per_B);
  CHECK(find_memory_preset("ddr5")->read_J_per_B > find_memory_preset("hbm3")->read_J_per_B);
  // Soldered GDDR6 on a short board channel: between the RDIMM and the stacked HBM (Micron: 7.5 pJ/bit).
  CHECK(find_memory_preset("gddr6")->read_J_per_B == ptsim_test::Approx(7.5e-12 * 8));
  CHECK(find_memory_preset("gddr6")->read_J_per_B < find_memory_preset("ddr5")->read_J_per_B);
  CHECK(find_memory_preset("gddr6")->read_J_per_B > find_memory_preset("hbm3")->read_J_per_B);
  CHECK(find_memory_preset("gddr7") == nullptr);
}
