#include <doctest/doctest.h>

#include "relative_approx.hpp"

#include <stdexcept>

#include "helpers.hpp"
#include "ptsim/power/dt_opp.hpp"

using namespace ptsim::power;
using namespace ptsim::power::test;

TEST_CASE("opp_table sorts by frequency and exposes SI values") {
  const opp_table t = table_mhz({{1500, 0.8}, {500, 0.6}, {2000, 0.9}, {1000, 0.7}});
  REQUIRE(t.size() == 4);
  CHECK(t.frequency_hz(0) == 500 * MHz);
  CHECK(t.frequency_hz(3) == 2000 * MHz);
  CHECK(t.voltage_v(1) == ptsim_test::Approx(0.7));
  CHECK(t.min_hz() == 500 * MHz);
  CHECK(t.max_hz() == 2000 * MHz);
}

TEST_CASE("opp_table validation") {
  CHECK_THROWS_AS(opp_table(std::vector<opp>{}), std::invalid_argument);
  CHECK_THROWS_AS(table_mhz({{0, 0.6}}), std::invalid_argument);
  CHECK_THROWS_AS(table_mhz({{500, -0.6}}), std::invalid_argument);
  CHECK_THROWS_AS(table_mhz({{500, 0.0}}), std::invalid_argument);
  CHECK_THROWS_AS(table_mhz({{500, 0.6}, {500, 0.7}}), std::invalid_argument);  // duplicate
  // Voltage must not decrease as frequency rises (checked after sorting).
  CHECK_THROWS_AS(table_mhz({{500, 0.8}, {1000, 0.7}}), std::invalid_argument);
  CHECK_NOTHROW(table_mhz({{500, 0.7}, {1000, 0.7}}));  // flat voltage is fine
}

TEST_CASE("RELATION_L / H / C lookups on 500/1000/1500/2000 MHz") {
  const opp_table t = four_opps();
  // L: lowest OPP >= target, clamped to the table.
  CHECK(t.index_at_least(1200 * MHz) == 2);  // 1500 is the first >= 1200
  CHECK(t.index_at_least(1000 * MHz) == 1);  // exact hit
  CHECK(t.index_at_least(100 * MHz) == 0);
  CHECK(t.index_at_least(3000 * MHz) == 3);  // above the table: max
  // H: highest OPP <= target, clamped.
  CHECK(t.index_at_most(1200 * MHz) == 1);
  CHECK(t.index_at_most(1500 * MHz) == 2);
  CHECK(t.index_at_most(100 * MHz) == 0);  // below the table: min
  CHECK(t.index_at_most(3000 * MHz) == 3);
  // C: closest; 1200 is 200 from 1000 and 300 from 1500; 1250 is a tie -> lower.
  CHECK(t.index_closest(1200 * MHz) == 1);
  CHECK(t.index_closest(1250 * MHz) == 1);
  CHECK(t.index_closest(1300 * MHz) == 2);
  CHECK(t.index_closest(5000 * MHz) == 3);
  CHECK(t.index_closest(1 * MHz) == 0);
  // index_of: exact within 1 Hz.
  CHECK(t.index_of(1000 * MHz) == 1);
  CHECK(t.index_of(1000 * MHz + 0.5) == 1);
  CHECK_THROWS_AS(t.index_of(1234 * MHz), std::out_of_range);
}

TEST_CASE("lookups tolerate float round-off around a table frequency") {
  const opp_table t = four_opps();
  // 1.25 * 2000 MHz * 0.6 = 1500 MHz in exact arithmetic; in doubles it may land an ULP
  // above, which must still select 1500 MHz for RELATION_L (kernel: integer kHz).
  CHECK(t.index_at_least(1500 * MHz * (1 + 1e-15)) == 2);
  CHECK(t.index_at_most(1500 * MHz * (1 - 1e-15)) == 2);
}

TEST_CASE("opp_table_from_dt: opp-hz in Hz, opp-microvolt in uV (gs101 cluster0 rows)") {
  const opp_table t = opp_table_from_dt({{574000000, 600000}, {300000000, 537500}, {738000000, 618750}});
  REQUIRE(t.size() == 3);
  CHECK(t.frequency_hz(0) == 300e6);
  CHECK(t.voltage_v(0) == ptsim_test::Approx(0.5375));  // 537500 uV
  CHECK(t.frequency_hz(2) == 738e6);
  CHECK(t.voltage_v(2) == ptsim_test::Approx(0.61875));
  CHECK_THROWS_AS(opp_table_from_dt({{300000000, 0}}), std::invalid_argument);  // missing voltage
}
