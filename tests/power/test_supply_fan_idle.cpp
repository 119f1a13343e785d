// Wall power through VR and PSU efficiency curves, fan affinity law, idle-state choice.
#include <doctest/doctest.h>

#include "relative_approx.hpp"

#include <stdexcept>

#include "ptsim/power/fan_power.hpp"
#include "ptsim/power/idle_states.hpp"
#include "ptsim/power/supply_power.hpp"

using namespace ptsim::power;

TEST_CASE("efficiency curves interpolate linearly and hold flat outside their points") {
  const auto t = psu_80plus_titanium();
  // Between (0.2, 0.94) and (0.5, 0.96): 0.94 + 0.02 * (0.35 - 0.2) / 0.3 = 0.95.
  CHECK(t.at(0.35) == ptsim_test::Approx(0.95));
  CHECK(t.at(0.01) == ptsim_test::Approx(0.90));
  CHECK(t.at(1.5) == ptsim_test::Approx(0.91));
  CHECK(efficiency_curve().at(0.3) == 1.0);
  CHECK_THROWS_AS(efficiency_curve({{0.5, 0.9}, {0.2, 0.9}}), std::invalid_argument);
  CHECK_THROWS_AS(efficiency_curve({{0.5, 1.2}}), std::invalid_argument);
}

TEST_CASE("wall power divides by the VR's then the PSU's efficiency at their loads") {
  supply_params s;
  s.vr_rated_W = 100;
  s.vr = vr_typical();
  s.psu_rated_W = 200;
  s.psu = psu_80plus_titanium();
  // VR at 50 % load: eta 0.92 -> 50 / 0.92 = 54.347826 W into the VR.
  // PSU at 54.347826 / 200 = 0.271739 load: eta = 0.94 + 0.02 * 0.071739 / 0.3 = 0.944783.
  // Wall: 54.347826 / 0.944783 = 57.52418 W.
  CHECK(wall_power_W(s, 50) == ptsim_test::Approx(57.52418).epsilon(1e-6));
  supply_params none;
  CHECK(wall_power_W(none, 42) == 42);
}

TEST_CASE("fan power goes with the cube of speed") {
  fan_params f{20, 10000, 1000};
  CHECK(fan_power_W(f, 10000) == ptsim_test::Approx(20));
  CHECK(fan_power_W(f, 5000) == ptsim_test::Approx(2.5));  // 20 * 0.5^3
  CHECK_THROWS_AS(fan_power_W(f, 500), std::invalid_argument);
  CHECK_THROWS_AS(fan_power_W(f, 12000), std::invalid_argument);
}

TEST_CASE("the menu-like choice takes the deepest state the idle period and latency allow") {
  const std::vector<idle_state> st = {{"clock_gated", 0.100, 0, 10e-6, 0},
                                      {"retention", 0.020, 20e-6, 50e-6, 500e-6},
                                      {"power_gated", 0.001, 100e-6, 200e-6, 3e-3}};
  CHECK_NOTHROW(validate_idle_states(st));
  CHECK(choose_idle_state(st, 1e-3, 1e-3) == 1);     // 3 ms residency does not fit 1 ms
  CHECK(choose_idle_state(st, 5e-3, 100e-6) == 1);   // power_gated's 200 us exit too slow
  CHECK(choose_idle_state(st, 5e-3, 1e-3) == 2);
  CHECK(choose_idle_state(st, 0.0, 1.0) == 0);
  CHECK(choose_idle_state(st, 1e-3, 5e-6) == -1);    // even clock gating's exit is too slow
  CHECK(idle_energy_J(st[2], 10e-3) == ptsim_test::Approx(1e-5));
  auto bad = st;
  bad[2].power_W = 0.5;  // deeper but hungrier
  CHECK_THROWS_AS(validate_idle_states(bad), std::invalid_argument);
}
