// NVMe power states in scenarios: the server preset's APST table resolved, mistakes placed.
#include <doctest/doctest.h>

#include "relative_approx.hpp"

#include "helpers.hpp"

using namespace scen_test;

namespace {
const std::string server = PTSIM_SOURCE_DIR "/scenarios/server-training.yaml";

}  // namespace

TEST_CASE("the server preset's NVMe drive has PS3 and PS4 under APST") {
  const auto sc = ps::load_scenario_file(server);
  const ptsim::tlm_config::memory_config* ssd = nullptr;
  for (const auto& m : sc.platform.memories)
    if (m.name == "nvme0") ssd = &m;
  REQUIRE(ssd);
  REQUIRE(ssd->power_states.size() == 2);
  CHECK(ssd->power_states[0].name == "PS3");
  CHECK(ssd->power_states[0].idle_after_s == ptsim_test::Approx(0.1));
  CHECK(ssd->power_states[0].entry_latency_s == ptsim_test::Approx(210e-6));
  CHECK(ssd->power_states[0].exit_latency_s == ptsim_test::Approx(1.2e-3));
  CHECK(ssd->power_states[1].exit_latency_s == ptsim_test::Approx(8e-3));
  const auto& p = power_of(sc, "nvme0").memory;
  REQUIRE(p.low_power_state_W.size() == 2);
  CHECK(p.low_power_state_W[0] == ptsim_test::Approx(0.07));
  CHECK(p.low_power_state_W[1] == ptsim_test::Approx(0.01));
  CHECK(p.background_W == ptsim_test::Approx(5.0));
}

TEST_CASE("NVMe power-state mistakes are placed") {
  SUBCASE("states out of order") {
    const auto ds = diagnostics_of([] {
      ps::load_scenario_file(server, with_sets({"platform.components.nvme0.power_states.1.idle_after=50 ms"}));
    });
    bool found = false;
    for (const auto& d : ds)
      found = found || (d.path == "platform.components.nvme0.power_states" && contains(d.message, "idle_after"));
    CHECK(found);
  }
  SUBCASE("a state above PS0 idle power") {
    const auto ds = diagnostics_of(
        [] { ps::load_scenario_file(server, with_sets({"platform.components.nvme0.power_states.0.power=6 W"})); });
    bool found = false;
    for (const auto& d : ds)
      found = found || (d.path == "platform.components.nvme0.power_states[0].power" && contains(d.message, "idle_power"));
    CHECK(found);
  }
}
