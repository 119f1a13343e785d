#include <doctest/doctest.h>

#include "relative_approx.hpp"

#include <cmath>
#include <stdexcept>
#include <tuple>
#include <vector>

#include "ptsim/power/compute_power.hpp"
#include "ptsim/power/energy_model.hpp"

using namespace ptsim;
using namespace ptsim::power;

namespace {
struct em_row {
  double mhz;
  std::uint64_t microvolt;
  long mW;  // EM mW/core as listed in shared/reference/hardware-data.md (gs101.dtsi)
};
}  // namespace

TEST_CASE("EM formula P[uW] = C * mV^2 * MHz / 1e6, by hand") {
  // X1, C = 650, 500 MHz, 500 mV: 650 * 500^2 * 500 / 1e6 = 650 * 250000 * 500 / 1e6
  //   = 81250 uW = 81.25 mW
  CHECK(em_power_mW(650, 500, 500) == ptsim_test::Approx(81.25));
  // mV is truncated to an integer, as the kernel's u32 opp-microvolt / 1000:
  // 1426 MHz at 662.5 mV -> 662 mV: 650 * 662^2 * 1426 / 1e6 = 650 * 438244 * 1426 / 1e6
  //   = 406208.3636 -> 406208 uW = 406.208 mW (662.5 mV would give 406.822 -> 407 mW).
  CHECK(em_power_mW(650, 1426, 662.5) == ptsim_test::Approx(406.208));
  CHECK(em_power_mW(650, dt_opp{1426000000, 662500}) == ptsim_test::Approx(406.208));
  CHECK_THROWS_AS(em_power_mW(-1, 500, 500), std::invalid_argument);
}

TEST_CASE("EM formula reproduces the gs101 tables to the mW") {
  const std::vector<std::tuple<double, std::vector<em_row>>> clusters = {
      // cluster2, Cortex-X1, C = 650: the full table
      {650,
       {{500, 500000, 81},     {851, 556250, 171},   {984, 575000, 211},   {1106, 606250, 264},
        {1277, 631250, 330},   {1426, 662500, 406},  {1582, 693750, 494},  {1745, 731250, 606},
        {1826, 750000, 668},   {2048, 793750, 837},  {2188, 831250, 982},  {2252, 850000, 1058},
        {2401, 887500, 1228},  {2507, 925000, 1394}, {2630, 968750, 1602}, {2704, 1000000, 1758},
        {2802, 1056250, 2031}}},
      // cluster1, Cortex-A76, C = 284: several rows
      {284, {{400, 506250, 29}, {696, 562500, 62}, {1024, 625000, 114}, {1836, 818750, 349},
             {2130, 918750, 510}, {2253, 968750, 600}}},
      // cluster0, Cortex-A55, C = 70: several rows
      {70, {{300, 537500, 6}, {930, 668750, 29}, {1401, 781250, 60}, {1803, 906250, 104}}},
  };
  for (const auto& cluster : clusters) {
    const double coeff = std::get<0>(cluster);  // not a structured binding: INFO captures it in a lambda
    for (const em_row& r : std::get<1>(cluster)) {
      const double mw = em_power_mW(coeff, dt_opp{static_cast<std::uint64_t>(r.mhz * 1e6), r.microvolt});
      INFO("C=" << coeff << " " << r.mhz << " MHz " << r.microvolt << " uV -> " << mw << " mW");
      CHECK(std::lround(mw) == r.mW);  // the table lists mW rounded to the nearest
    }
  }
}

TEST_CASE("dynamic-power-coefficient to C_eff: coeff * 1e-12 F per core") {
  CHECK(em_c_eff_F(650) == ptsim_test::Approx(650e-12));
  CHECK(em_c_eff_F(650, 2) == ptsim_test::Approx(1.3e-9));
  CHECK(units::value_si(em_c_eff(284)) == ptsim_test::Approx(284e-12));
  // Consistency with the dynamic model: C_eff = 650 pF, 0.5 V, 500 MHz, fully busy:
  //   650e-12 * 0.25 * 5e8 = 0.08125 W = 81.25 mW, the EM value above.
  compute_power_params p;
  p.c_eff = em_c_eff(650);
  const compute_power_model m(p);
  CHECK(m.dynamic_W(0.5, 500e6, 1.0) * 1e3 == ptsim_test::Approx(em_power_mW(650, 500, 500)));
}
