// Power capping: the window arithmetic and the split of a budget into OPP ceilings,
// on hand-computed cases.
#include <doctest/doctest.h>

#include "relative_approx.hpp"

#include <stdexcept>

#include "helpers.hpp"
#include "ptsim/power/power_cap.hpp"

using namespace ptsim::power;
using test::MHz;

namespace {
// Domain power at 500/1000/1500/2000 MHz: 1, 2, 4, 8 W.
capped_domain domain_a(const opp_table& t, double measured) {
  capped_domain d;
  d.opps = &t;
  d.power_at_opp_W = {1, 2, 4, 8};
  d.measured_power_W = measured;
  return d;
}

// Limit 10 W over a window of n = 4 periods of 1 ms, settled in m = 1 (deadbeat).
power_capper deadbeat_capper() {
  power_cap_config c;
  c.limit_W = 10;
  c.window_s = 4e-3;
  c.settle_s = 1e-3;
  return power_capper(c, 1e-3);
}
}  // namespace

TEST_CASE("deadbeat window: the next period's power brings the average back to the limit") {
  const opp_table t = test::four_opps();
  power_capper cap = deadbeat_capper();
  std::vector<capped_domain> d = {domain_a(t, 14)};
  // History: [14] plus 2 missing periods counted at the limit; the window keeps n - m = 3:
  // kept = 14 + 10 + 10 = 34; plan = 10 * 4 - 34 = 6 W. Nothing else draws power, so the
  // domain gets 6 W: the highest OPP within it is 1500 MHz (4 W).
  cap.update(14, d);
  CHECK(cap.planned_W() == ptsim_test::Approx(6.0));
  CHECK(d[0].ceiling_hz == 1500 * MHz);
  // Next period it drew 4 W, 2 W under plan: the learnt miss becomes 0.05 * (4 - 6) = -0.1.
  // kept = 14 + 4 + 10 = 28; plan = 40 - 28 = 12, less the miss: 12.1 W. Everything fits.
  d[0].measured_power_W = 4;
  cap.update(4, d);
  CHECK(cap.planned_W() == ptsim_test::Approx(12.1));
  CHECK(d[0].ceiling_hz == 2000 * MHz);
  // Long-run average over the samples seen: (14 + 4) / 2.
  CHECK(cap.average_W() == ptsim_test::Approx(9.0));
}

TEST_CASE("an idle stretch under a plan that cut nothing teaches no miss: the load's return is capped") {
  const opp_table t = test::four_opps();
  power_capper cap = deadbeat_capper();
  capped_domain d0;
  d0.opps = &t;
  d0.power_at_opp_W = {1, 2, 4, 16};  // a busy domain at 500/1000/1500/2000 MHz
  d0.measured_power_W = 1;
  std::vector<capped_domain> d = {d0};
  // Idle at 1 W: each plan is 40 - 3 x 1 = 37 W (once the window has filled), far above
  // what the platform draws, and no clock is cut. Nothing is learnt from that gap.
  for (int i = 0; i < 20; ++i) cap.update(1, d);
  CHECK(cap.planned_W() == ptsim_test::Approx(37.0));
  CHECK(d[0].ceiling_hz == 2000 * MHz);
  // The load returns at 16 W: kept = 1 + 1 + 16, plan = 40 - 18 = 22 W: 2000 MHz fits.
  d[0].measured_power_W = 16;
  cap.update(16, d);
  CHECK(cap.planned_W() == ptsim_test::Approx(22.0));
  CHECK(d[0].ceiling_hz == 2000 * MHz);
  // Next: kept = 1 + 16 + 16 = 33, plan = 7 W: 1500 MHz (4 W). Had the idle gap (1 - 37 W
  // per period) been learnt as a miss (about -23 W after 20 periods), the plan would be
  // ~30 W and the window would average (1 + 3 x 16) / 4 = 12.25 W, over the 10 W limit.
  cap.update(16, d);
  CHECK(cap.planned_W() == ptsim_test::Approx(7.0));
  CHECK(d[0].ceiling_hz == 1500 * MHz);
}

TEST_CASE("the uncontrolled part of the platform comes off the budget first") {
  const opp_table t = test::four_opps();
  power_cap_config c;
  c.limit_W = 10;
  c.window_s = 1e-3;  // n = m = 1: plan = limit every period
  power_capper cap(c, 1e-3);
  // Platform 12 W of which the domain drew 5 W: 7 W is outside the cap's reach, so the
  // domain may have 10 - 7 = 3 W: 1000 MHz (2 W) is the highest that fits.
  std::vector<capped_domain> d = {domain_a(t, 5)};
  cap.update(12, d);
  CHECK(d[0].ceiling_hz == 1000 * MHz);
}

TEST_CASE("a budget is shared by the same fraction of each domain's range") {
  const opp_table ta = test::four_opps();
  const opp_table tb = test::table_mhz({{400, 0.6}, {800, 0.7}, {1200, 0.8}});
  power_cap_config c;
  c.limit_W = 9;
  c.window_s = 1e-3;
  power_capper cap(c, 1e-3);
  capped_domain b;
  b.opps = &tb;
  b.power_at_opp_W = {1, 3, 5};
  b.measured_power_W = 6;
  std::vector<capped_domain> d = {domain_a(ta, 7), b};
  // Budget 9 W, all of the platform's 13 W is in the two domains. At fraction l of each
  // range, A may have 1 + 7l and B 1 + 4l. At l = 1: 8 + 5 = 13 > 9. Just below 1 the grants
  // are < 8 and < 5, so A fits 4 W and B 3 W: 7 W <= 9. That is the largest fitting l.
  cap.update(13, d);
  CHECK(d[0].ceiling_hz == 1500 * MHz);
  CHECK(d[1].ceiling_hz == 800 * MHz);
}

TEST_CASE("a soft limit cuts only low-priority domains; the hard limit cuts everyone") {
  const opp_table t = test::four_opps();
  power_cap_config c;
  c.limit_W = 14;
  c.soft_limit_W = 12;
  c.window_s = 1e-3;
  power_capper cap(c, 1e-3);
  std::vector<capped_domain> d = {domain_a(t, 8), domain_a(t, 8)};
  d[1].low_priority = true;
  // 16 W measured. Soft plan 12 W: the high-priority domain keeps its 8 W, so the low one
  // gets 4 W (1500 MHz). Hard plan 14 W: with the low one at 4 W, 12 W fits: nothing more.
  cap.update(16, d);
  CHECK(d[0].ceiling_hz == 2000 * MHz);
  CHECK(d[1].ceiling_hz == 1500 * MHz);
  // Soft 12, hard 10 (a lower hard limit binds everyone): 10 W between two domains in
  // proportion to their ranges: l with 2 * grant(l) fitting 10: grants < 8 -> 4 W each.
  power_cap_config c2 = c;
  c2.limit_W = 10;
  c2.soft_limit_W = 9;
  power_capper cap2(c2, 1e-3);
  std::vector<capped_domain> d2 = {domain_a(t, 8), domain_a(t, 8)};
  d2[1].low_priority = true;
  cap2.update(16, d2);
  // Soft (9 W): high keeps 8, low gets 1 W (500 MHz). Hard (10 W): everyone; low is already
  // at its floor (1 W), high may have up to 9 W in its range -> 8 W fits: 2000 MHz.
  CHECK(d2[1].ceiling_hz == 500 * MHz);
  CHECK(d2[0].ceiling_hz == 2000 * MHz);
}

TEST_CASE("bad power cap settings are refused") {
  power_cap_config c;
  c.limit_W = 0;
  CHECK_THROWS_AS(power_capper(c, 1e-3), std::invalid_argument);
  c.limit_W = 5;
  c.window_s = 1e-4;
  CHECK_THROWS_AS(power_capper(c, 1e-3), std::invalid_argument);
  c.window_s = 1;
  c.soft_limit_W = 6;
  CHECK_THROWS_AS(power_capper(c, 1e-3), std::invalid_argument);
}
