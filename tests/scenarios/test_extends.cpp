// extends: a scenario built on another file; errors point at the file that holds the value.
#include "relative_approx.hpp"
#include <unistd.h>

#include <filesystem>

#include "helpers.hpp"

using namespace scen_test;
namespace fs = std::filesystem;

namespace {
}  // namespace

TEST_CASE("a child changes some values and inherits the rest") {
  temp_dir t("extends");
  t.write("base.yaml", default_text());
  const auto child = t.write("child.yaml",
                             "extends: base.yaml\nname: warm\nthermal:\n  ambient: \"35 degC\"\npolicy:\n  governor: powersave\n");
  const auto sc = ps::load_scenario_file(child.string());
  const auto base = ps::load_scenario_text(default_text(), "base");
  CHECK(sc.name == "warm");
  CHECK(sc.thermal.ambient.value() == ptsim_test::Approx(308.15));
  CHECK(sc.policy.default_governor.name == "powersave");
  // Mappings merge: the thermal floorplan and the policy's thermal governor are inherited.
  CHECK(sc.thermal.fp.size() == base.thermal.fp.size());
  CHECK(sc.policy.thermal.governor == base.policy.thermal.governor);
  CHECK(sc.platform.units.size() == base.platform.units.size());
  // The resolved scenario stands alone: no extends left in it.
  CHECK(sc.resolved_yaml.find("extends") == std::string::npos);
  CHECK(ps::load_scenario_text(sc.resolved_yaml, "resolved").name == "warm");
}

TEST_CASE("errors name the child's file for its values and the base's for inherited ones") {
  temp_dir t("extends");
  const std::string bad_base = replace_once(default_text(), "rate: \"30 Hz\"", "rate: \"30 W\"");
  t.write("base.yaml", bad_base);
  const auto child = t.write("child.yaml", "extends: base.yaml\nname: x\nduration: \"2 parsecs\"\n");
  const auto ds = diagnostics_of([&] { ps::load_scenario_file(child.string()); });
  const auto d1 = only_at(ds, "duration");
  CHECK(d1.file == child.string());
  CHECK(d1.line == 3);
  const auto d2 = only_at(ds, "workload.streams.camera.arrival.rate");
  CHECK(d2.file == (t.dir / "base.yaml").string());
  const auto p = position_of(bad_base, "\"30 W\"");
  CHECK(d2.line == p.line);
  CHECK(d2.column == p.column);
}

TEST_CASE("extends refuses a missing base, a cycle, and text without a file") {
  temp_dir t("extends");
  const auto lone = t.write("lone.yaml", "extends: nowhere.yaml\nname: x\n");
  auto ds = diagnostics_of([&] { ps::load_scenario_file(lone.string()); });
  CHECK(only_at(ds, "extends").message.find("cannot open the base scenario") != std::string::npos);
  // A base's own extends is reported against the base, at its line.
  t.write("mid.yaml", "name: m\nextends: nowhere.yaml\n");
  const auto top = t.write("top.yaml", "extends: mid.yaml\nname: t\n");
  ds = diagnostics_of([&] { ps::load_scenario_file(top.string()); });
  const auto missing = only_at(ds, "extends");
  CHECK(missing.file == (t.dir / "mid.yaml").string());
  CHECK(missing.line == 2);
  const auto a = t.write("a.yaml", "extends: b.yaml\nname: a\n");
  t.write("b.yaml", "extends: a.yaml\nname: b\n");
  ds = diagnostics_of([&] { ps::load_scenario_file(a.string()); });
  REQUIRE(!ds.empty());
  // Reported where the cycle closes: b.yaml's extends, naming the files around it.
  CHECK(ds.front().file.find("b.yaml") != std::string::npos);
  CHECK(ds.front().message.find("extends cycle: a.yaml -> b.yaml -> a.yaml") != std::string::npos);
  const auto self = t.write("self.yaml", "extends: ./self.yaml\nname: s\n");
  ds = diagnostics_of([&] { ps::load_scenario_file(self.string()); });
  REQUIRE(!ds.empty());
  CHECK(ds.front().message.find("extends cycle: self.yaml -> self.yaml") != std::string::npos);
  ds = load_errors("extends: default.yaml\nname: x\n");
  CHECK(only_at(ds, "extends").message.find("needs a scenario file") != std::string::npos);
}

TEST_CASE("a mapping of item numbers over an inherited list changes those items only") {
  temp_dir t("extends");
  t.write("base.yaml", default_text());
  const auto base = ps::load_scenario_text(default_text(), "base");
  // The NPU's top OPP (item 4) at another voltage, its clock and the other items inherited.
  const auto child = t.write("child.yaml",
                             "extends: base.yaml\nname: x\nplatform:\n  domains:\n    npu:\n      opps:\n"
                             "        4: { volt: \"760 mV\" }\n        0:\n          freq: \"250 MHz\"\n");
  const auto sc = ps::load_scenario_file(child.string());
  const auto npu_of = [](const ps::scenario& s) {
    for (const auto& d : s.domains)
      if (d.name == "npu") return d.opps;
    FAIL("no npu domain");
    return s.domains.front().opps;
  };
  const auto opps = npu_of(sc), was = npu_of(base);
  REQUIRE(opps.size() == was.size());
  REQUIRE(opps.size() == 5);
  CHECK(opps.voltage_v(4) == ptsim_test::Approx(0.760));
  CHECK(opps.frequency_hz(4) == ptsim_test::Approx(was.frequency_hz(4)));
  CHECK(opps.frequency_hz(0) == ptsim_test::Approx(250e6));
  CHECK(opps.voltage_v(0) == ptsim_test::Approx(was.voltage_v(0)));
  for (std::size_t i = 1; i < 4; ++i) CHECK(opps.voltage_v(i) == ptsim_test::Approx(was.voltage_v(i)));

  // An item the list does not have: the child's line and column, the list's length.
  const auto past = t.write("past.yaml",
                            "extends: base.yaml\nname: x\nplatform:\n  domains:\n    npu:\n      opps:\n"
                            "        7: { volt: \"760 mV\" }\n");
  const auto ds = diagnostics_of([&] { ps::load_scenario_file(past.string()); });
  const auto d = only_at(ds, "platform.domains.npu.opps[7]");
  CHECK(d.file == past.string());
  CHECK(d.line == 7);
  CHECK(d.column == 9);
  CHECK(d.message.find("has 5 items (0 to 4)") != std::string::npos);

  // A bad value inside a patched item is the child's, at its line and column.
  const auto bad = t.write("bad.yaml",
                           "extends: base.yaml\nname: x\nplatform:\n  domains:\n    npu:\n      opps:\n"
                           "        4: { volt: \"760 parsecs\" }\n");
  const auto bd = diagnostics_of([&] { ps::load_scenario_file(bad.string()); });
  REQUIRE(!bd.empty());
  CHECK(bd.front().file == bad.string());
  CHECK(bd.front().line == 7);
  CHECK(bd.front().path.find("opps") != std::string::npos);
}

TEST_CASE("a long chain of extends without a cycle loads, each level's value kept") {
  // Twelve levels: more than the old fixed bound of eight, which refused honest chains.
  temp_dir t("extends");
  t.write("l0.yaml", default_text());
  for (int i = 1; i <= 12; ++i)
    t.write("l" + std::to_string(i) + ".yaml",
            "extends: l" + std::to_string(i - 1) + ".yaml\nname: l" + std::to_string(i) + "\n" +
                (i == 5 ? "seed: 5\n" : ""));
  const auto sc = ps::load_scenario_file((t.dir / "l12.yaml").string());
  CHECK(sc.name == "l12");
  CHECK(sc.seed == 5);  // from the middle of the chain
}
