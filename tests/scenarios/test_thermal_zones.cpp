// policy.thermal_zones: zones by name with their sensor, governor and cooling devices
// (DVFS domains, or fans); policy.thermal as the main zone; the retired policy.fan_zone
// and policy.thermal.domains refused with how to write them now.
#include <doctest/doctest.h>

#include "relative_approx.hpp"

#include <fstream>
#include <string>

#include "helpers.hpp"

namespace ps = ptsim::scenarios;
using ptsim_test::Approx;
using namespace scen_test;

namespace {
const std::string main_zone = "    control_temp: \"85 degC\"\n";
// default.yaml with `extra` after policy.thermal (its last line).
std::string with_policy(const std::string& extra) { return replace_once(default_text(), main_zone, main_zone + extra); }
}  // namespace

TEST_CASE("thermal_zones: a skin zone beside the main zone, both cooling big") {
  const std::string text = with_policy(
      "    cooling: [big, mid]\n"
      "  thermal_zones:\n"
      "    skin: { sensor: { node: cpu_big, time_constant: \"2 s\" }, control_temp: \"40 degC\",\n"
      "            polling_period: \"1 s\", cooling: [big] }\n");
  const auto sc = ps::load_scenario_text(text, "test.yaml");
  const auto& pol = sc.policy;
  CHECK(pol.thermal.name == "thermal");
  CHECK(pol.thermal.cooling == std::vector<std::string>{"big", "mid"});
  REQUIRE(pol.zones.size() == 1);
  const auto& skin = pol.zones[0];
  CHECK(skin.name == "skin");
  CHECK(skin.governor == "step_wise");  // a zone's default
  CHECK(skin.zone.control_temp_K == Approx(313.15));
  CHECK(skin.zone.switch_on_temp_K == Approx(303.15));  // control_temp - 10 K
  CHECK(skin.zone.polling_period_s == Approx(1.0));
  CHECK(skin.zone.hysteresis_K == Approx(2.0));
  CHECK(skin.sensor.node == "cpu_big");
  CHECK(skin.sensor.time_constant_s == Approx(2.0));
  CHECK(skin.cooling == std::vector<std::string>{"big"});
  // --set reaches a zone's keys, and a sweep's paths are the same.
  const auto set = ps::load_scenario_text(text, "test.yaml", with_sets({"policy.thermal_zones.skin.control_temp=38 degC"}));
  CHECK(set.policy.zones.at(0).zone.control_temp_K == Approx(311.15));
  // A zone made from --set alone.
  const auto made = ps::load_scenario_text(
      default_text(), "test.yaml",
      with_sets({"policy.thermal_zones.npu_zone.control_temp=70 degC", "policy.thermal_zones.npu_zone.cooling=[npu]"}));
  REQUIRE(made.policy.zones.size() == 1);
  CHECK(made.policy.zones[0].cooling == std::vector<std::string>{"npu"});
}

TEST_CASE("thermal_zones: what cannot work is refused at its line and column") {
  SUBCASE("an unknown cooling device") {
    const std::string text = with_policy("  thermal_zones:\n    skin: { control_temp: \"40 degC\", cooling: [big, gpu9] }\n");
    const position at = position_of(text, "gpu9");
    const auto d = only_at(load_errors(text), "policy.thermal_zones.skin.cooling[1]");
    CHECK(d.line == at.line);
    CHECK(d.column == at.column);
    CHECK(contains(d.message, "unknown cooling device 'gpu9' (a DVFS domain: big, little, mid, npu, or fans)"));
  }
  SUBCASE("an unknown cooling device of the main zone") {
    const std::string text = with_policy("    cooling: [bigg]\n");
    const position at = position_of(text, "bigg");
    const auto d = only_at(load_errors(text), "policy.thermal.cooling[0]");
    CHECK(d.line == at.line);
    CHECK(d.column == at.column);
    CHECK(contains(d.message, "unknown cooling device 'bigg'"));
  }
  SUBCASE("the fans of a model without fans") {
    const std::string text = with_policy("  thermal_zones:\n    f: { control_temp: \"40 degC\", cooling: [fans] }\n");
    const position at = position_of(text, "fans]");
    const auto d = only_at(load_errors(text), "policy.thermal_zones.f.cooling[0]");
    CHECK(d.line == at.line);
    CHECK(d.column == at.column);
    CHECK(contains(d.message, "the fans are a cooling device only with thermal.model: datacenter"));
  }
  SUBCASE("a device twice, no device, the main zone's name") {
    const std::string text = with_policy(
        "  thermal_zones:\n"
        "    a: { control_temp: \"40 degC\", cooling: [big, big] }\n"
        "    b: { control_temp: \"40 degC\", cooling: [] }\n"
        "    thermal: { control_temp: \"40 degC\", cooling: [big] }\n");
    const auto ds = load_errors(text);
    CHECK(contains(only_at(ds, "policy.thermal_zones.a.cooling[1]").message, "'big' is listed twice"));
    CHECK(contains(only_at(ds, "policy.thermal_zones.b.cooling").message, "at least one cooling device"));
    CHECK(contains(only_at(ds, "policy.thermal_zones.thermal").message, "is policy.thermal's zone"));
  }
  SUBCASE("a zone without its trip or its devices") {
    const auto ds = load_errors(with_policy("  thermal_zones:\n    c: { governor: step_wise }\n"));
    CHECK(contains(only_at(ds, "policy.thermal_zones.c.control_temp").message, "missing required key 'control_temp'"));
    CHECK(contains(only_at(ds, "policy.thermal_zones.c.cooling").message, "missing required key 'cooling'"));
  }
  SUBCASE("power_allocator on the fans") {
    // The server preset's zone cooling the fans, under IPA.
    const auto ds = diagnostics_of([] {
      ps::load_scenario_file(PTSIM_SOURCE_DIR "/scenarios/server-training.yaml",
                             with_sets({"policy.thermal_zones.fans.governor=power_allocator"}));
    });
    const auto d = only_at(ds, "policy.thermal_zones.fans.cooling[0]");
    CHECK(contains(d.file, "presets/server-8xh100.yaml"));
    CHECK(d.line == position_of(read_file(PTSIM_SOURCE_DIR "/scenarios/presets/server-8xh100.yaml"), "fans]").line);
    CHECK(contains(d.message, "governor power_allocator splits a power budget and the fans state no power"));
  }
}

TEST_CASE("the retired policy.fan_zone and policy.thermal.domains say how to write them now") {
  const std::string text = replace_once(default_text(), "policy:\n",
                                        "policy:\n  fan_zone: { control_temp: \"70 degC\" }\n");
  const position at = position_of(text, "fan_zone:");
  const auto d = only_at(load_errors(text), "policy.fan_zone");
  CHECK(d.line == at.line);
  CHECK(d.column == at.column);
  CHECK(contains(d.message, "policy.fan_zone is now a zone of policy.thermal_zones that cools the fans: write "
                            "'thermal_zones: { fans: { control_temp: \"70 degC\", polling_period: \"1 s\", "
                            "cooling: [fans] } }'"));
  CHECK(contains(d.to_string(), "test.yaml:" + std::to_string(at.line) + ":" + std::to_string(at.column)));
  // The same words for a --set path.
  const auto s = diagnostics_of(
      [] { ps::load_scenario_text(default_text(), "test.yaml", with_sets({"policy.fan_zone.control_temp=70 degC"})); });
  REQUIRE(s.size() == 1);
  CHECK(contains(s[0].message, "policy.fan_zone is now a zone of policy.thermal_zones"));

  // In a file that extends another (the server preset's fan zone written the old way).
  const std::string overlay = PTSIM_BINARY_DIR "/fan_zone_overlay.yaml";
  std::ofstream(overlay) << "extends: " PTSIM_SOURCE_DIR "/scenarios/server-training.yaml\npolicy:\n"
                            "  fan_zone: { control_temp: \"70 degC\" }\n";
  const auto od = only_at(diagnostics_of([&] { ps::load_scenario_file(overlay); }), "policy.fan_zone");
  CHECK(od.file == overlay);
  CHECK(od.line == 3);
  CHECK(contains(od.message, "policy.fan_zone is now a zone of policy.thermal_zones"));

  const std::string old = with_policy("    domains: [big]\n");
  const position dat = position_of(old, "domains: [big]");
  const auto dd = only_at(load_errors(old), "policy.thermal.domains");
  CHECK(dd.line == dat.line);
  CHECK(dd.column == dat.column);
  CHECK(contains(dd.message, "'domains' is now 'cooling'"));
}
