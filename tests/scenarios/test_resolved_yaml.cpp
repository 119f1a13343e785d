// resolved_yaml: the scenario after overrides, deterministic, and enough to rerun it.
#include <doctest/doctest.h>

#include "relative_approx.hpp"

#include <string>

#include "helpers.hpp"

namespace ps = ptsim::scenarios;
using namespace scen_test;

namespace {
void check_same(const ps::scenario& a, const ps::scenario& b) {
  CHECK(a.name == b.name);
  CHECK(a.duration.value() == b.duration.value());
  CHECK(a.control_period.value() == b.control_period.value());
  CHECK(a.record_period.value() == b.record_period.value());
  CHECK(a.seed == b.seed);
  REQUIRE(a.domains.size() == b.domains.size());
  for (std::size_t i = 0; i < a.domains.size(); ++i) {
    CHECK(a.domains[i].name == b.domains[i].name);
    REQUIRE(a.domains[i].opps.size() == b.domains[i].opps.size());
    for (std::size_t k = 0; k < a.domains[i].opps.size(); ++k) {
      CHECK(a.domains[i].opps.frequency_hz(k) == b.domains[i].opps.frequency_hz(k));
      CHECK(a.domains[i].opps.voltage_v(k) == b.domains[i].opps.voltage_v(k));
    }
  }
  REQUIRE(a.platform.units.size() == b.platform.units.size());
  for (std::size_t i = 0; i < a.platform.units.size(); ++i) {
    CHECK(a.platform.units[i].name == b.platform.units[i].name);
    CHECK(a.platform.units[i].domain == b.platform.units[i].domain);
    CHECK(a.platform.units[i].cores == b.platform.units[i].cores);
    CHECK(a.platform.units[i].ops_per_cycle == b.platform.units[i].ops_per_cycle);
  }
  REQUIRE(a.power.size() == b.power.size());
  for (std::size_t i = 0; i < a.power.size(); ++i) {
    CHECK(a.power[i].component == b.power[i].component);
    CHECK(a.power[i].compute.c_eff.value() == b.power[i].compute.c_eff.value());
    CHECK(a.power[i].memory.energy_per_byte_read_J == b.power[i].memory.energy_per_byte_read_J);
  }
  REQUIRE(a.workload.streams.size() == b.workload.streams.size());
  for (std::size_t i = 0; i < a.workload.streams.size(); ++i) {
    CHECK(a.workload.streams[i].name == b.workload.streams[i].name);
    CHECK(a.workload.streams[i].rate.value() == b.workload.streams[i].rate.value());
    REQUIRE(a.workload.streams[i].stages.size() == b.workload.streams[i].stages.size());
    for (std::size_t k = 0; k < a.workload.streams[i].stages.size(); ++k)
      CHECK(a.workload.streams[i].stages[k].unit == b.workload.streams[i].stages[k].unit);
  }
  CHECK(a.thermal.ambient.value() == b.thermal.ambient.value());
  REQUIRE(a.thermal.fp.size() == b.thermal.fp.size());
  for (std::size_t i = 0; i < a.thermal.fp.size(); ++i) {
    CHECK(a.thermal.fp.blocks()[i].name == b.thermal.fp.blocks()[i].name);
    CHECK(a.thermal.fp.blocks()[i].x_m == b.thermal.fp.blocks()[i].x_m);
    CHECK(a.thermal.fp.blocks()[i].width_m == b.thermal.fp.blocks()[i].width_m);
  }
  CHECK(a.thermal.power_map == b.thermal.power_map);
  CHECK(a.thermal.package.r_convec == b.thermal.package.r_convec);
  CHECK(a.thermal.package.k_interface == b.thermal.package.k_interface);
  CHECK(a.policy.default_governor.name == b.policy.default_governor.name);
  REQUIRE(a.policy.per_domain.size() == b.policy.per_domain.size());
  for (const auto& [dom, g] : a.policy.per_domain) {
    REQUIRE(b.policy.per_domain.count(dom) == 1);
    CHECK(g.name == b.policy.per_domain.at(dom).name);
    CHECK(g.values == b.policy.per_domain.at(dom).values);
  }
  CHECK(a.policy.thermal.governor == b.policy.thermal.governor);
  CHECK(a.policy.thermal.zone.control_temp_K == b.policy.thermal.zone.control_temp_K);
  CHECK(a.policy.thermal.zone.hysteresis_K == b.policy.thermal.zone.hysteresis_K);
}
}  // namespace

TEST_CASE("the same text gives the same resolved YAML") {
  const auto a = ps::load_scenario_text(default_text(), "a.yaml");
  const auto b = ps::load_scenario_text(default_text(), "b.yaml");
  CHECK(a.resolved_yaml == b.resolved_yaml);
  const auto opts = with_sets({"policy.governors.big=ondemand", "thermal.ambient=35 degC"});
  CHECK(ps::load_scenario_text(default_text(), "a.yaml", opts).resolved_yaml ==
        ps::load_scenario_text(default_text(), "a.yaml", opts).resolved_yaml);
}

TEST_CASE("resolved YAML reloads to the same scenario") {
  const auto first = ps::load_scenario_text(default_text(), "default.yaml");
  const auto again = ps::load_scenario_text(first.resolved_yaml, "resolved.yaml");
  check_same(first, again);
  // A fixed point: resolving the resolved text changes nothing.
  CHECK(again.resolved_yaml == first.resolved_yaml);
}

TEST_CASE("resolved YAML carries the overrides, so it reruns without them") {
  const auto opts = with_sets({"policy.governors.big=ondemand", "policy.governors.big.tunables.up_threshold=80",
                               "thermal.ambient=35 degC", "policy.thermal.hysteresis=3 K",
                               "workload.streams.camera.stages.1.unit=cpu_big"});
  auto o = opts;
  o.seed = 7;
  const auto first = ps::load_scenario_text(default_text(), "default.yaml", o);
  REQUIRE(first.policy.per_domain.count("big") == 1);
  const auto again = ps::load_scenario_text(first.resolved_yaml, "resolved.yaml");
  check_same(first, again);
  CHECK(again.seed == 7u);
  CHECK(again.thermal.ambient.value() == ptsim_test::Approx(308.15));
  CHECK(again.policy.per_domain.at("big").values.at("up_threshold") == ptsim_test::Approx(80));
  CHECK(again.workload.streams[0].stages[1].unit == "cpu_big");
  CHECK(again.resolved_yaml == first.resolved_yaml);
}
