#include <doctest/doctest.h>

#include "relative_approx.hpp"

#include "helpers.hpp"
#include "ptsim/power/power_allocator.hpp"

using namespace ptsim::power;
using namespace ptsim::power::test;

namespace {
}

TEST_CASE("IPA grant split: proportional to weighted request, surplus by headroom") {
  // budget 6 W, weighted requests 4/1/1 W: 4, 1, 1 W; actor 0 is capped at its 2 W max,
  // surplus 2 W; headroom 0, 3, 1 W (total 4): actor 1 gets 2*3/4 = 1.5, actor 2 2*1/4 = 0.5
  const auto g = ipa_divvy_up_power(6.0, {4, 1, 1}, {2, 4, 2});
  REQUIRE(g.size() == 3);
  CHECK(g[0] == ptsim_test::Approx(2.0));
  CHECK(g[1] == ptsim_test::Approx(2.5));
  CHECK(g[2] == ptsim_test::Approx(1.5));

  // Not enough headroom: budget 10, shares 6.667/1.667/1.667 W; surplus 4.667 W but only
  // 0.333 + 0.333 W of headroom: everyone ends at max (2 W), the rest is not allocated.
  const auto h = ipa_divvy_up_power(10.0, {4, 1, 1}, {2, 2, 2});
  CHECK(h[0] == ptsim_test::Approx(2.0));
  CHECK(h[1] == ptsim_test::Approx(2.0));
  CHECK(h[2] == ptsim_test::Approx(2.0));

  // Nobody requests power: nothing is granted.
  const auto z = ipa_divvy_up_power(5.0, {0, 0}, {3, 3});
  CHECK(z[0] == 0.0);
  CHECK(z[1] == 0.0);
}

namespace {
// Two actors: a big cluster (500..2000 MHz) and a little one (300/600/900 MHz).
struct ipa_fixture {
  opp_table big = four_opps();
  opp_table little = table_mhz({{300, 0.6}, {600, 0.7}, {900, 0.8}});
  std::vector<cooling_device> devs = std::vector<cooling_device>(2);
  thermal_zone_config cfg;
  ipa_fixture() {
    devs[0].opps = &big;
    devs[0].power_at_opp_W = {0.5, 1.2, 2.2, 3.5};
    devs[0].min_power_W = 0.5;
    devs[0].max_power_W = 3.5;
    devs[0].requested_power_W = 3.0;
    devs[1].opps = &little;
    devs[1].power_at_opp_W = {0.1, 0.25, 0.45};
    devs[1].min_power_W = 0.1;
    devs[1].max_power_W = 0.45;
    devs[1].requested_power_W = 0.4;
    cfg.control_temp_K = K0 + 85;  // switch-on defaults to 75 degC
    cfg.polling_period_s = 0.1;
    cfg.sustainable_power_W = 2.0;
  }
};
}  // namespace

TEST_CASE("IPA PID over several periods, by hand") {
  ipa_fixture f;
  power_allocator_governor g;
  g.start(f.cfg, f.devs);
  // Defaults with dT = 85 - 75 = 10 K: k_po = 2/10 = 0.2 W/K, k_pu = 4/10 = 0.4 W/K,
  // k_i = max(0.4/10, 1/1024) = 0.04 W/K, k_d = 0. Sum of max power = 3.5 + 0.45 = 3.95 W.
  CHECK(g.k_po() == ptsim_test::Approx(0.2));
  CHECK(g.k_pu() == ptsim_test::Approx(0.4));
  CHECK(g.k_i() == ptsim_test::Approx(0.04));
  CHECK(g.k_d() == 0.0);

  // t=0: 70 degC < switch-on 75: inactive, no limits.
  g.update(0.0, K0 + 70, f.devs);
  CHECK_FALSE(g.active());
  CHECK(f.devs[0].ceiling_hz == 2000 * MHz);
  CHECK(f.devs[1].ceiling_hz == 900 * MHz);

  // t=0.1: 80 degC, err = +5 K: P = 0.4*5 = 2.0; no integration (err >= cutoff 0); I = 0.
  // budget = clamp(2 + 2, 0, 3.95) = 3.95. Split: 3*3.95/3.4 = 3.4853, 0.4*3.95/3.4 = 0.4647
  // -> little capped at 0.45, surplus 0.0147 goes to big's headroom 0.0147: 3.5 and 0.45.
  g.update(0.1, K0 + 80, f.devs);
  CHECK(g.active());
  CHECK(g.last_pid().p_W == ptsim_test::Approx(2.0));
  CHECK(g.last_pid().i_W == ptsim_test::Approx(0.0));
  CHECK(g.last_pid().budget_W == ptsim_test::Approx(3.95));
  CHECK(g.granted_power_W()[0] == ptsim_test::Approx(3.5));
  CHECK(g.granted_power_W()[1] == ptsim_test::Approx(0.45));
  CHECK(f.devs[0].ceiling_hz == 2000 * MHz);
  CHECK(f.devs[1].ceiling_hz == 900 * MHz);

  // t=0.15: between polls: nothing changes.
  g.update(0.15, K0 + 100, f.devs);
  CHECK(g.last_pid().budget_W == ptsim_test::Approx(3.95));

  // t=0.2: 86 degC, err = -1: P = 0.2*(-1) = -0.2; integrate: I = 0.04*(-1) = -0.04.
  // budget = 2 - 0.2 - 0.04 = 1.76. Grants 3*1.76/3.4 = 1.5529 -> big OPP 1.2 W (1000 MHz);
  // 0.4*1.76/3.4 = 0.2071 -> little 0.1 W (300 MHz).
  g.update(0.2, K0 + 86, f.devs);
  CHECK(g.last_pid().p_W == ptsim_test::Approx(-0.2));
  CHECK(g.last_pid().i_W == ptsim_test::Approx(-0.04));
  CHECK(g.last_pid().budget_W == ptsim_test::Approx(1.76));
  CHECK(g.granted_power_W()[0] == ptsim_test::Approx(3.0 * 1.76 / 3.4));
  CHECK(g.granted_power_W()[1] == ptsim_test::Approx(0.4 * 1.76 / 3.4));
  CHECK(f.devs[0].ceiling_hz == 1000 * MHz);
  CHECK(f.devs[1].ceiling_hz == 300 * MHz);

  // t=0.3: 88 degC, err = -3: P = -0.6; integral -1 - 3 = -4: I = -0.16.
  // budget = 2 - 0.6 - 0.16 = 1.24. Big 3*1.24/3.4 = 1.0941 -> 0.5 W (500 MHz);
  // little 0.1459 -> 0.1 W (300 MHz).
  g.update(0.3, K0 + 88, f.devs);
  CHECK(g.last_pid().i_W == ptsim_test::Approx(-0.16));
  CHECK(g.last_pid().budget_W == ptsim_test::Approx(1.24));
  CHECK(f.devs[0].ceiling_hz == 500 * MHz);
  CHECK(f.devs[1].ceiling_hz == 300 * MHz);

  // t=0.4: 84 degC, err = +1: P = 0.4; no integration, I stays 0.04*(-4) = -0.16.
  // budget = 2 + 0.4 - 0.16 = 2.24. Big 3*2.24/3.4 = 1.9765 -> 1.2 W (1000 MHz);
  // little 0.2635 -> 0.25 W (600 MHz).
  g.update(0.4, K0 + 84, f.devs);
  CHECK(g.last_pid().p_W == ptsim_test::Approx(0.4));
  CHECK(g.last_pid().i_W == ptsim_test::Approx(-0.16));
  CHECK(g.last_pid().budget_W == ptsim_test::Approx(2.24));
  CHECK(f.devs[0].ceiling_hz == 1000 * MHz);
  CHECK(f.devs[1].ceiling_hz == 600 * MHz);

  // t=0.5: 74 degC < 75: reset and lift the limits.
  g.update(0.5, K0 + 74, f.devs);
  CHECK_FALSE(g.active());
  CHECK(f.devs[0].ceiling_hz == 2000 * MHz);
  // t=0.6: 86 degC again: the integral restarted: I = -0.04, budget 1.76 as at t=0.2.
  g.update(0.6, K0 + 86, f.devs);
  CHECK(g.last_pid().i_W == ptsim_test::Approx(-0.04));
  CHECK(g.last_pid().budget_W == ptsim_test::Approx(1.76));
}

TEST_CASE("IPA derivative term divides by the polling period in ms") {
  ipa_fixture f;
  power_allocator_params p;
  p.k_d = 100;  // W*ms/K
  power_allocator_governor g(p);
  g.start(f.cfg, f.devs);
  // err = 85 - 80 = 5, prev_err 0 after reset: D = 100 * (5 - 0) / 100 ms = 5 W
  g.update(0.0, K0 + 80, f.devs);
  CHECK(g.last_pid().d_W == ptsim_test::Approx(5.0));
  // err = 3: D = 100 * (3 - 5) / 100 = -2 W; P = 0.4*3 = 1.2; budget = 2 + 1.2 - 2 = 1.2
  g.update(0.1, K0 + 82, f.devs);
  CHECK(g.last_pid().d_W == ptsim_test::Approx(-2.0));
  CHECK(g.last_pid().budget_W == ptsim_test::Approx(1.2));
}

TEST_CASE("IPA tunables through the registry reach the controller; the rest keep their defaults") {
  ipa_fixture f;
  auto made = thermal_governor_registry::instance().create("power_allocator", {{"k_po", 0.5}, {"k_d", 100}});
  auto* g = dynamic_cast<power_allocator_governor*>(made.get());
  REQUIRE(g != nullptr);
  g->start(f.cfg, f.devs);
  CHECK(g->k_po() == 0.5);
  CHECK(g->k_d() == 100);
  CHECK(g->k_pu() == ptsim_test::Approx(0.4));  // 2 x 2 W / 10 K, as without tunables
  CHECK(g->k_i() == ptsim_test::Approx(0.04));
  // The same derivative step as by hand above: err 5 K after reset, D = 100 x 5 / 100 ms.
  g->update(0.0, K0 + 80, f.devs);
  CHECK(g->last_pid().d_W == ptsim_test::Approx(5.0));
}

TEST_CASE("IPA splits by weight x requested power") {
  ipa_fixture f;
  for (auto& d : f.devs) d.requested_power_W = 1.0;
  f.devs[0].weight = 3.0;
  f.devs[1].weight = 1.0;
  f.devs[1].max_power_W = 10.0;  // no cap in the way
  f.devs[1].power_at_opp_W = {0.1, 0.25, 0.45};
  power_allocator_governor g;
  g.start(f.cfg, f.devs);
  // T = control: err 0 -> P = 0, I = 0: budget = sustainable 2 W, split 3:1 -> 1.5 and 0.5
  g.update(0.0, K0 + 85, f.devs);
  CHECK(g.last_pid().budget_W == ptsim_test::Approx(2.0));
  CHECK(g.granted_power_W()[0] == ptsim_test::Approx(1.5));
  CHECK(g.granted_power_W()[1] == ptsim_test::Approx(0.5));
  CHECK(f.devs[0].ceiling_hz == 1000 * MHz);  // 1.2 <= 1.5 < 2.2
  CHECK(f.devs[1].ceiling_hz == 900 * MHz);   // 0.45 <= 0.5
}

TEST_CASE("IPA estimates sustainable power from the min-OPP power when not given") {
  ipa_fixture f;
  f.cfg.sustainable_power_W = 0;
  power_allocator_governor g;
  g.start(f.cfg, f.devs);
  g.update(0.0, K0 + 80, f.devs);
  // sum of power at the maximum cooling state: 0.5 + 0.1 = 0.6 W; k_pu = 2*0.6/10 = 0.12
  CHECK(g.sustainable_power_W() == ptsim_test::Approx(0.6));
  CHECK(g.k_pu() == ptsim_test::Approx(0.12));
  CHECK(g.k_po() == ptsim_test::Approx(0.06));
  // k_i = max(0.012, 1/1024 = 0.000977) = 0.012
  CHECK(g.k_i() == ptsim_test::Approx(0.012));
}
