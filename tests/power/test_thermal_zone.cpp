// Thermal zones and their cooling devices: several zones on one device (the deepest
// cooling wins), fans as a cooling device beside a DVFS domain, IPA's view of a domain.
#include <doctest/doctest.h>

#include "relative_approx.hpp"

#include <memory>
#include <stdexcept>

#include "helpers.hpp"
#include "ptsim/power/cooler.hpp"
#include "ptsim/power/power_allocator.hpp"
#include "ptsim/power/step_wise.hpp"
#include "ptsim/power/thermal_zone.hpp"

using namespace ptsim::power;
using namespace ptsim::power::test;

namespace {

thermal_zone_config trip(double control_C, double polling_s) {
  thermal_zone_config c;
  c.control_temp_K = K0 + control_C;
  c.hysteresis_K = 2;
  c.polling_period_s = polling_s;
  return c;
}

// A domain of four_opps() whose thermal ceiling lands in `ceiling`; its power per OPP
// 1, 2, 3, 4 W; its cpufreq request `request`.
std::unique_ptr<dvfs_cooler> domain(const opp_table& t, double& ceiling, const double& request) {
  dvfs_cooler::hooks h;
  h.power_at_opps = [](std::vector<double>& w) { w = {1, 2, 3, 4}; };
  h.request_hz = [&request] { return request; };
  h.set_ceiling = [&ceiling](double hz) { ceiling = hz; };
  return std::make_unique<dvfs_cooler>("big", t, std::move(h));
}
}  // namespace

TEST_CASE("two zones cool one domain: it runs at the lower of their ceilings") {
  const opp_table t = four_opps();  // states: 0 -> 2000, 1 -> 1500, 2 -> 1000, 3 -> 500 MHz
  double ceiling = 0, request = 2000 * MHz;
  auto big = domain(t, ceiling, request);
  // A skin zone (trip 40 degC, every 200 ms) and an SoC zone (trip 85 degC, every 100 ms).
  thermal_zone soc("soc", std::make_unique<step_wise_governor>(), trip(85, 0.1), {big.get()});
  thermal_zone skin("skin", std::make_unique<step_wise_governor>(), trip(40, 0.2), {big.get()});
  CHECK(ceiling == 2000 * MHz);  // bound, nothing asked yet

  struct step {
    double t_s, soc_C, skin_C, ceiling_MHz;
    bool skin_polls;
    const char* why;
  };
  const step seq[] = {
      {0.0, 90, 38, 1500, true, "soc: first reading hot (rising): state 1; skin below 40: state 0; min(1500, 2000)"},
      {0.1, 91, 38, 1000, false, "soc rising: state 2 (1000); skin not due, still 2000"},
      {0.2, 80, 42, 1500, true, "soc below 83 and dropping: state 1; skin crossed 40, rising: state 1; both 1500"},
      {0.3, 70, 42, 1500, false, "soc dropping: state 0 (2000); the skin zone's 1500 holds the domain"},
      {0.4, 70, 43, 1000, true, "soc holds 0; skin rising: state 2; min(2000, 1000)"},
  };
  for (const step& s : seq) {
    INFO("t=" << s.t_s << ": " << s.why);
    CHECK(soc.poll(s.t_s, K0 + s.soc_C));
    CHECK(skin.poll(s.t_s, K0 + s.skin_C) == s.skin_polls);
    CHECK(ceiling == s.ceiling_MHz * MHz);
  }
}

TEST_CASE("a zone cooling the fans beside a zone cooling a domain; two zones on the fans: the faster speed") {
  const opp_table t = four_opps();
  double ceiling = 0, request = 2000 * MHz, speed = 0;
  auto big = domain(t, ceiling, request);
  // 8 levels from 0.3 to 1.0: a level is 0.7 / 7 = 0.1.
  fan_cooler fans(0.3, 1.0, 8, [&speed](double s) { speed = s; });
  CHECK(fans.name() == "fans");
  CHECK(speed == 0.0);  // nothing bound: the fans keep their own speed
  thermal_zone fz("fans", std::make_unique<step_wise_governor>(), trip(70, 1.0), {&fans});
  CHECK(speed == 0.3);  // bound: state 0, the slowest
  thermal_zone gz("thermal", std::make_unique<step_wise_governor>(), trip(83, 0.1), {big.get()});

  CHECK(fz.poll(0.0, K0 + 75));  // hot at the first reading: one level up
  CHECK(gz.poll(0.0, K0 + 75));  // below 83: no limit
  CHECK(speed == ptsim_test::Approx(0.4).epsilon(1e-15));
  CHECK(ceiling == 2000 * MHz);
  CHECK_FALSE(fz.poll(0.1, K0 + 84));  // the fan zone polls once a second
  CHECK(gz.poll(0.1, K0 + 84));        // crossed 83, rising: state 1
  CHECK(speed == ptsim_test::Approx(0.4).epsilon(1e-15));
  CHECK(ceiling == 1500 * MHz);
  CHECK(fz.poll(1.0, K0 + 76));  // rising: state 2
  CHECK(speed == ptsim_test::Approx(0.5).epsilon(1e-15));

  // A second zone on the fans, hotter: three levels up at its first three polls. The fans
  // run at the deepest state asked, 3 (0.6), and stay there while the first zone asks 2.
  thermal_zone hot("gpu_inlet", std::make_unique<step_wise_governor>(), trip(30, 0.1), {&fans});
  for (double s : {1.0, 1.1, 1.2}) hot.poll(s, K0 + 35 + s);
  CHECK(speed == ptsim_test::Approx(0.6).epsilon(1e-15));
  CHECK(fans.speed_of_state(2) == ptsim_test::Approx(0.5).epsilon(1e-15));
  CHECK(fans.speed_of_state(7) == 1.0);
}

TEST_CASE("a domain's IPA view: power per OPP, at the request raised to the lowest OPP") {
  const opp_table t = four_opps();
  double ceiling = 0, request = 1200 * MHz;
  auto big = domain(t, ceiling, request);
  cooling_device v;
  big->estimate(v);
  CHECK(v.power_at_opp_W == std::vector<double>{1, 2, 3, 4});
  CHECK(v.min_power_W == 1);
  CHECK(v.max_power_W == 4);
  CHECK(v.requested_power_W == 2);  // 1200 MHz: the highest OPP at most that is 1000 MHz
  request = 100 * MHz;
  big->estimate(v);
  CHECK(v.requested_power_W == 1);  // below the table: its lowest OPP
}

TEST_CASE("thermal zones refuse what cannot work") {
  double speed = 0;
  fan_cooler fans(0.3, 1.0, 8, [&speed](double s) { speed = s; });
  CHECK_THROWS_WITH_AS(thermal_zone("z", std::make_unique<power_allocator_governor>(), trip(70, 1.0),
                                    {&fans}),
                       "thermal zone 'z': its governor splits a power budget, and 'fans' states no power per "
                       "cooling state",
                       std::invalid_argument);
  CHECK_THROWS_AS(thermal_zone("z", std::make_unique<step_wise_governor>(), trip(70, 1.0), {}),
                  std::invalid_argument);
  CHECK_THROWS_AS(fan_cooler(0.3, 1.0, 1, [](double) {}), std::invalid_argument);
}
