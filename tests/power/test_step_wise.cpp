#include <doctest/doctest.h>

#include <stdexcept>

#include "helpers.hpp"
#include "ptsim/power/step_wise.hpp"

using namespace ptsim::power;
using namespace ptsim::power::test;

namespace {
}

TEST_CASE("step_wise on rising and falling trends with hysteresis") {
  const opp_table t = four_opps();  // states: 0 -> 2000, 1 -> 1500, 2 -> 1000, 3 -> 500 MHz
  std::vector<cooling_device> devs(1);
  devs[0].opps = &t;
  thermal_zone_config cfg;
  cfg.control_temp_K = K0 + 85;  // trip 85 degC
  cfg.hysteresis_K = 2;          // released below 83 degC
  cfg.polling_period_s = 0.1;
  step_wise_governor g;
  g.start(cfg, devs);
  CHECK(devs[0].ceiling_hz == 2000 * MHz);

  struct step {
    double t_s, temp_C;
    std::size_t state;
    const char* why;
  };
  const step seq[] = {
      {0.00, 80.0, 0, "first reading, below the trip"},
      {0.05, 95.0, 0, "between polls: ignored"},
      {0.10, 86.0, 1, "crossed 85, rising: +1"},
      {0.20, 87.0, 2, "throttling, rising: +1"},
      {0.30, 87.0, 2, "stable: hold"},
      {0.40, 86.0, 2, "dropping but still >= 85: hold"},
      {0.50, 84.0, 2, "dropping below 85 but not below 83 (hysteresis): still throttling, hold"},
      {0.60, 84.5, 3, "rising while throttling (84.5 >= 83): +1"},
      {0.70, 88.0, 3, "rising at the deepest state (3 = #OPPs - 1): clamped"},
      {0.80, 82.9, 2, "below 83, dropping: -1"},
      {0.90, 82.0, 1, "dropping: -1"},
      {1.00, 82.5, 1, "rising but not throttling: hold"},
      {1.10, 81.0, 0, "dropping: -1"},
      {1.20, 80.0, 0, "dropping at state 0: stays"},
      {1.30, 84.0, 0, "rising to 84 after release: threshold is 85 again, no throttle"},
  };
  const double ceiling_of_state[] = {2000 * MHz, 1500 * MHz, 1000 * MHz, 500 * MHz};
  for (const step& s : seq) {
    g.update(s.t_s, K0 + s.temp_C, devs);
    INFO("t=" << s.t_s << " T=" << s.temp_C << ": " << s.why);
    CHECK(g.state(0) == s.state);
    CHECK(devs[0].ceiling_hz == ceiling_of_state[s.state]);
  }
}

TEST_CASE("step_wise throttles at once when the first reading is already hot") {
  const opp_table t = four_opps();
  std::vector<cooling_device> devs(2);
  devs[0].opps = &t;
  devs[1].opps = &t;
  thermal_zone_config cfg;
  cfg.control_temp_K = K0 + 85;
  step_wise_governor g;
  g.start(cfg, devs);
  g.update(0.0, K0 + 90, devs);  // the first reading counts as RAISING
  CHECK(g.state(0) == 1);
  CHECK(g.state(1) == 1);
  CHECK(devs[1].ceiling_hz == 1500 * MHz);
}

TEST_CASE("thermal governor registry and validation") {
  const auto& reg = thermal_governor_registry::instance();
  CHECK(reg.create("step_wise", {}) != nullptr);
  CHECK(reg.create("power_allocator", {}) != nullptr);
  CHECK(reg.contains("power_allocator"));
  CHECK(reg.names() == std::vector<std::string>{"power_allocator", "step_wise"});
  try {
    reg.create("fair_share", {});
    FAIL("no throw");
  } catch (const std::invalid_argument& e) {
    CHECK(std::string(e.what()).find("unknown thermal governor 'fair_share'; valid: power_allocator, step_wise") !=
          std::string::npos);
  }
  // step_wise takes no tunables; power_allocator's are named in the message.
  CHECK_THROWS_WITH_AS(reg.create("step_wise", {{"k_po", 1}}), doctest::Contains("it takes none"),
                       std::invalid_argument);
  CHECK_THROWS_WITH_AS(reg.create("power_allocator", {{"k_p", 1}}),
                       doctest::Contains("valid: k_po, k_pu, k_i, k_d, integral_cutoff"), std::invalid_argument);
  // A gain the governor refuses: the message names the governor.
  CHECK_THROWS_WITH_AS(reg.create("power_allocator", {{"k_i", -1}}), doctest::Contains("thermal governor 'power_allocator'"),
                       std::invalid_argument);
  std::vector<cooling_device> devs(1);  // opps missing
  step_wise_governor g;
  CHECK_THROWS_AS(g.start(thermal_zone_config{}, devs), std::invalid_argument);
  const opp_table t = four_opps();
  devs[0].opps = &t;
  thermal_zone_config bad;
  bad.polling_period_s = 0;
  CHECK_THROWS_AS(g.start(bad, devs), std::invalid_argument);
}
