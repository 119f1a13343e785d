// Bad scenario files: every problem is reported with file, line, column, key path,
// what was expected and what was found. The inputs are default.yaml with one exact
// edit, so the expected positions are computed from the edited text.
#include <doctest/doctest.h>

#include "relative_approx.hpp"

#include <string>

#include "helpers.hpp"

namespace ps = ptsim::scenarios;
using namespace scen_test;

TEST_CASE("the default text is what these tests assume") {
  // Anchors the edits below (and checks position_of itself on a known line).
  const position p = position_of(default_text(), "duration: \"20 s\"");
  CHECK(p.line == 9);
  CHECK(p.column == 1);
  CHECK_NOTHROW(ps::load_scenario_text(default_text(), "test.yaml"));
}

TEST_CASE("a misspelled key: line, column, path and the nearest valid key") {
  const std::string text = replace_once(default_text(), "duration: \"20 s\"", "duraton: \"20 s\"");
  const position at = position_of(text, "duraton:");
  CHECK(at.line == 9);
  const auto ds = load_errors(text);
  const auto d = only_at(ds, "duraton");
  CHECK(d.file == "test.yaml");
  CHECK(d.line == at.line);
  CHECK(d.column == at.column);
  CHECK(contains(d.message, "unknown key 'duraton'"));
  CHECK(contains(d.message, "did you mean 'duration'"));
  CHECK(contains(d.to_string(), "test.yaml:9:1: duraton: "));
  // The real key is now missing, and that is said too.
  CHECK(contains(only_at(ds, "duration").message, "missing required key 'duration'"));
}

TEST_CASE("a misspelled nested key") {
  const std::string text =
      replace_once(default_text(), "    control_temp: \"85 degC\"", "    control_tmp: \"85 degC\"");
  const position at = position_of(text, "control_tmp:");
  const auto d = only_at(load_errors(text), "policy.thermal.control_tmp");
  CHECK(d.line == at.line);
  CHECK(d.column == at.column);
  CHECK(d.column == 5);
  CHECK(contains(d.message, "did you mean 'control_temp'"));
}

TEST_CASE("a key far from every valid one lists the valid keys") {
  const std::string text = replace_once(default_text(), "  quantum: \"50 us\"", "  zzzzzzzzzz: \"50 us\"");
  const auto d = only_at(load_errors(text), "platform.zzzzzzzzzz");
  CHECK_FALSE(contains(d.message, "did you mean"));
  CHECK(contains(d.message, "valid keys"));
  CHECK(contains(d.message, "quantum"));
  CHECK(contains(d.message, "components"));
}

TEST_CASE("a wrong unit is reported at the value") {
  SUBCASE("block mapping") {
    const std::string text = replace_once(default_text(), "bandwidth: \"51.2 GB/s\"", "bandwidth: \"51.2 GHz\"");
    const position key = position_of(text, "bandwidth: \"51.2 GHz\"");
    const position value = position_of(text, "\"51.2 GHz\"");
    CHECK(key.line == 125);
    const auto d = only_at(load_errors(text), "platform.components.lpddr.bandwidth");
    CHECK(d.line == value.line);
    CHECK(d.column == value.column);
    CHECK(contains(d.message, "expected bandwidth"));
    CHECK(contains(d.message, "51.2 GHz"));
    CHECK(contains(d.message, "frequency"));
  }
  SUBCASE("flow mapping inside a list") {
    const std::string text = replace_once(default_text(), "volt: \"537.5 mV\" }\n        - { freq: \"574 MHz\"",
                                          "volt: \"537.5 mA\" }\n        - { freq: \"574 MHz\"");
    const position value = position_of(text, "\"537.5 mA\"");
    CHECK(value.line == 21);
    const auto d = only_at(load_errors(text), "platform.domains.little.opps[0].volt");
    CHECK(d.line == value.line);
    CHECK(d.column == value.column);
    CHECK(contains(d.message, "expected voltage"));
    CHECK(contains(d.message, "537.5 mA"));
  }
  SUBCASE("a number without a unit") {
    const std::string text = replace_once(default_text(), "duration: \"20 s\"", "duration: 20");
    const auto d = only_at(load_errors(text), "duration");
    CHECK(d.line == 9);
    CHECK(d.column == 11);
    CHECK(contains(d.message, "without a unit"));
  }
  SUBCASE("degC where a temperature difference is expected") {
    const std::string text =
        replace_once(default_text(), "leakage: { power: \"121 mW\", v_ref: \"750 mV\", "
                                     "t_ref: \"25 degC\", doubling: \"25 K\"",
                     "leakage: { power: \"121 mW\", v_ref: \"750 mV\", "
                     "t_ref: \"25 degC\", doubling: \"25 degC\"");
    const auto d = only_at(load_errors(text), "platform.components.cpu_big.leakage.doubling");
    CHECK(d.line == 104);
    CHECK(contains(d.message, "difference"));
  }
  SUBCASE("out of range") {
    const std::string text = replace_once(default_text(), "      efficiency: 0.8\n", "      efficiency: 1.5\n");
    const auto d = only_at(load_errors(text), "platform.components.lpddr.efficiency");
    CHECK(d.line == 127);
    CHECK(contains(d.message, "<= 1"));
    CHECK(contains(d.message, "1.5"));
  }
  SUBCASE("an enumeration") {
    const std::string text = replace_once(default_text(), "  governor: schedutil", "  governor: schedutl");
    const auto d = only_at(load_errors(text), "policy.governor");
    CHECK(d.line == 172);
    CHECK(d.column == 13);
    CHECK(contains(d.message, "expected one of ["));
    CHECK(contains(d.message, "found 'schedutl'"));
    CHECK(contains(d.message, "did you mean 'schedutil'"));
  }
}

TEST_CASE("a key given twice is an error, not a silent choice") {
  const std::string text = replace_once(default_text(), "duration: \"20 s\"\n", "duration: \"20 s\"\nduration: \"5 s\"\n");
  const auto d = only_at(load_errors(text), "duration");
  CHECK(d.line == 10);
  CHECK(d.column == 1);
  CHECK(contains(d.message, "duplicate key 'duration'"));
  CHECK(contains(d.message, "line 9"));
  // Also among user-chosen names (a map of components).
  const std::string comps = replace_once(default_text(), "  components:\n", "  components:\n    noc: { kind: noc, connect: lpddr, bandwidth: \"1 GB/s\" }\n");
  const auto c = only_at(load_errors(comps), "platform.components.noc");
  CHECK(contains(c.message, "duplicate key 'noc'"));
}

TEST_CASE("a temperature difference below its minimum is stated in K") {
  const std::string text = replace_once(
      default_text(), "leakage: { power: \"121 mW\", v_ref: \"750 mV\", "
                      "t_ref: \"25 degC\", doubling: \"25 K\"",
      "leakage: { power: \"121 mW\", v_ref: \"750 mV\", "
      "t_ref: \"25 degC\", doubling: \"0 K\"");
  const auto d = only_at(load_errors(text), "platform.components.cpu_big.leakage.doubling");
  CHECK(contains(d.message, "> 0 K"));
  CHECK_FALSE(contains(d.message, "degC"));
}

TEST_CASE("missing required keys") {
  SUBCASE("top level") {
    const std::string text = replace_once(default_text(), "name: phone-camera\n", "");
    const auto d = only_at(load_errors(text), "name");
    CHECK(contains(d.message, "missing required key 'name'"));
    CHECK(d.line >= 1);
  }
  SUBCASE("inside a section, pointed at the section") {
    const std::string text = replace_once(default_text(), "  ambient: \"25 degC\"\n", "");
    const position section = position_of(text, "thermal:\n  floorplan:");
    CHECK(section.line == 147);
    const auto d = only_at(load_errors(text), "thermal.ambient");
    CHECK(contains(d.message, "missing required key 'ambient'"));
    // Pointed at the thermal mapping: the line of its key or of its first entry.
    CHECK(d.line >= section.line);
    CHECK(d.line <= section.line + 1);
  }
  SUBCASE("a component's required key") {
    const std::string text = replace_once(default_text(), "      bandwidth: \"128 GB/s\"\n", "");
    const auto d = only_at(load_errors(text), "platform.components.noc.bandwidth");
    CHECK(contains(d.message, "missing required key 'bandwidth'"));
  }
}

TEST_CASE("a YAML syntax error reports its line") {
  // An unclosed flow mapping: the parser can only notice at the next key it meets, which
  // here is 'policy:' after one blank line.
  const std::string text = replace_once(default_text(), "  solver: { method: auto }", "  solver: { method: auto");
  const position at = position_of(text, "  solver: {");
  const auto ds = load_errors(text);
  REQUIRE(ds.size() == 1);
  CHECK(ds[0].file == "test.yaml");
  CHECK(contains(ds[0].message, "YAML syntax error"));
  CHECK(ds[0].line >= at.line);
  CHECK(ds[0].line <= at.line + 2);

  // A key indented deeper than its siblings in a block mapping.
  const std::string bad_indent = replace_once(default_text(), "control_period: \"1 ms\"\nrecord_period:",
                                              "control_period: \"1 ms\"\n  stray: \"x\"\nrecord_period:");
  const position stray = position_of(bad_indent, "  stray:");
  const auto ds2 = load_errors(bad_indent);
  REQUIRE(ds2.size() == 1);
  CHECK(contains(ds2[0].message, "YAML syntax error"));
  CHECK(ds2[0].line == stray.line);
}

TEST_CASE("documents that are not a scenario mapping") {
  SUBCASE("a list") {
    const auto ds = load_errors("- name: a\n- name: b\n");
    REQUIRE(ds.size() == 1);
    CHECK(ds[0].file == "test.yaml");
    CHECK(contains(ds[0].message, "expected a scenario"));
    CHECK(contains(ds[0].message, "found a list"));
  }
  SUBCASE("empty") {
    const auto ds = load_errors("");
    REQUIRE(ds.size() == 1);
    CHECK(contains(ds[0].message, "empty document"));
  }
  SUBCASE("only comments") {
    const auto ds = load_errors("# nothing here\n");
    REQUIRE(ds.size() == 1);
    CHECK(contains(ds[0].message, "empty document"));
  }
  SUBCASE("a plain value") {
    const auto ds = load_errors("hello\n");
    REQUIRE(ds.size() == 1);
    CHECK(contains(ds[0].message, "a plain value"));
  }
}

TEST_CASE("an unknown component kind") {
  const std::string text = replace_once(default_text(), "kind: lpddr ", "kind: hbm3  ");
  const position value = position_of(text, "hbm3");
  const auto d = only_at(load_errors(text), "platform.components.lpddr.kind");
  CHECK(d.line == 124);
  CHECK(d.line == value.line);
  CHECK(d.column == value.column);
  CHECK(contains(d.message, "unknown component kind 'hbm3'"));
  CHECK(contains(d.message, "cpu_cluster"));
  CHECK(contains(d.message, "lpddr"));

  const std::string typo = replace_once(default_text(), "kind: lpddr ", "kind: lpdr  ");
  CHECK(contains(only_at(load_errors(typo), "platform.components.lpddr.kind").message, "did you mean 'lpddr'"));
}

TEST_CASE("a key that belongs to another kind of component") {
  // 'capacity' is a memory key; a NoC has none.
  const std::string text = replace_once(default_text(), "      latency: \"20 ns\"\n", "      capacity: \"1 GiB\"\n");
  const auto d = only_at(load_errors(text), "platform.components.noc.capacity");
  CHECK(d.line == 120);
  CHECK(contains(d.message, "unknown key 'capacity'"));
}

TEST_CASE("references to names that do not exist") {
  SUBCASE("unknown DVFS domain") {
    const std::string text = replace_once(default_text(), "      domain: big\n", "      domain: huge\n");
    const position value = position_of(text, "huge");
    const auto d = only_at(load_errors(text), "platform.components.cpu_big.domain");
    CHECK(d.line == value.line);
    CHECK(d.column == value.column);
    CHECK(contains(d.message, "unknown DVFS domain 'huge'"));
    CHECK(contains(d.message, "big"));  // lists the domains there are
  }
  SUBCASE("unknown interconnect") {
    const std::string text =
        replace_once(default_text(), "      domain: mid\n      connect: noc\n", "      domain: mid\n      connect: bus\n");
    const position value = position_of(text, "connect: bus");
    const auto d = only_at(load_errors(text), "platform.components.cpu_mid.connect");
    CHECK(d.line == value.line);
    CHECK(contains(d.message, "'bus' is not an interconnect"));
    CHECK(contains(d.message, "noc"));
  }
  SUBCASE("a memory is not an interconnect") {
    const std::string text =
        replace_once(default_text(), "      domain: mid\n      connect: noc\n", "      domain: mid\n      connect: lpddr\n");
    CHECK(contains(only_at(load_errors(text), "platform.components.cpu_mid.connect").message,
                   "'lpddr' is not an interconnect"));
  }
  SUBCASE("a stage on a unit that does not exist") {
    const std::string text = replace_once(default_text(), "- { unit: npu, model:", "- { unit: tpu, model:");
    const auto d = only_at(load_errors(text), "workload.streams.camera.stages[1].unit");
    CHECK(d.line == 143);
    CHECK(contains(d.message, "'tpu' is not a compute unit"));
  }
  SUBCASE("a power_map to a block that does not exist") {
    const std::string text = replace_once(default_text(), "power_map: { lpddr: mem_ctrl }", "power_map: { lpddr: dram }");
    const auto d = only_at(load_errors(text), "thermal.power_map.lpddr");
    CHECK(d.line == 156);
    CHECK(contains(d.message, "'dram' is not a floorplan block"));
  }
  SUBCASE("a governor for a domain that does not exist") {
    const std::string text = replace_once(default_text(), "  governor: schedutil\n", "  governor: schedutil\n  governors: { gpu: ondemand }\n");
    const auto d = only_at(load_errors(text), "policy.governors.gpu");
    CHECK(d.line == 173);
    CHECK(contains(d.message, "unknown DVFS domain 'gpu'"));
  }
}

TEST_CASE("thermal governor tunables: resolved by name, unknown ones refused at their line") {
  SUBCASE("power_allocator's gains reach the policy") {
    const std::string text = replace_once(default_text(), "    governor: step_wise\n",
                                          "    governor: power_allocator\n    tunables: { k_po: 0.5, k_d: 100 }\n");
    const auto sc = ps::load_scenario_text(text, "test.yaml");
    CHECK(sc.policy.thermal.governor == "power_allocator");
    CHECK(sc.policy.thermal.values == ptsim::power::tunables{{"k_d", 100.0}, {"k_po", 0.5}});
  }
  SUBCASE("a tunable the governor does not have") {
    const std::string text = replace_once(default_text(), "    governor: step_wise\n",
                                          "    governor: power_allocator\n    tunables: { k_p: 0.5 }\n");
    const position at = position_of(text, "tunables:");
    const auto d = only_at(load_errors(text), "policy.thermal.tunables");
    CHECK(d.line == at.line);
    CHECK(contains(d.message, "unknown tunable 'k_p' for thermal governor 'power_allocator'"));
    CHECK(contains(d.message, "did you mean 'k_po'"));
  }
  SUBCASE("tunables without a governor") {
    const std::string text = replace_once(default_text(), "    governor: step_wise\n", "    tunables: { k_po: 1 }\n");
    const auto d = only_at(load_errors(text), "policy.thermal.tunables");
    CHECK(contains(d.message, "without a thermal governor"));
  }
}

TEST_CASE("overlapping floorplan blocks") {
  // Widening npu (x 0..5 mm, y 3..8 mm) to 6 mm pushes it 1 mm into noc and mem_ctrl.
  const std::string text = replace_once(default_text(), "x: \"0 mm\", y: \"3 mm\", width: \"5 mm\"",
                                        "x: \"0 mm\", y: \"3 mm\", width: \"6 mm\"");
  const auto ds = load_errors(text);
  int overlaps = 0;
  bool npu_noc = false, npu_mem = false;
  for (const auto& d : ds) {
    if (d.path != "thermal.floorplan") continue;
    CHECK(d.file == "test.yaml");
    CHECK(d.line >= 149);
    CHECK(d.line <= 150);
    if (contains(d.message, "overlap")) ++overlaps;
    npu_noc |= contains(d.message, "'npu' and 'noc' overlap");
    npu_mem |= contains(d.message, "'npu' and 'mem_ctrl' overlap");
  }
  CHECK(overlaps == 2);
  CHECK(npu_noc);
  CHECK(npu_mem);
}

TEST_CASE("record_period must be a whole multiple of control_period") {
  SUBCASE("2.5 ms on a 1 ms tick") {
    const std::string text = replace_once(default_text(), "record_period: \"10 ms\"", "record_period: \"2.5 ms\"");
    const auto d = only_at(load_errors(text), "record_period");
    CHECK(d.line == 11);
    CHECK(d.column == 16);
    CHECK(contains(d.message, "whole multiple of control_period"));
  }
  SUBCASE("shorter than the tick") {
    const std::string text = replace_once(default_text(), "record_period: \"10 ms\"", "record_period: \"500 us\"");
    CHECK(contains(only_at(load_errors(text), "record_period").message, "whole multiple"));
  }
  SUBCASE("multiples that are inexact in binary are accepted") {
    // 0.3 ms / 0.1 ms is 2.9999999999999996 in doubles; still three ticks.
    std::string text = replace_once(default_text(), "record_period: \"10 ms\"", "record_period: \"0.3 ms\"");
    text = replace_once(text, "control_period: \"1 ms\"", "control_period: \"0.1 ms\"");
    // (and a duration of whole record periods: 0.3 s is 1000 of them, 999.99999999999989 in doubles)
    text = replace_once(text, "duration: \"20 s\"", "duration: \"0.3 s\"");
    const ps::scenario sc = ps::load_scenario_text(text, "test.yaml");
    CHECK(sc.record_period.value() == ptsim_test::Approx(0.3e-3));
  }
  SUBCASE("control_period longer than the duration") {
    std::string text = replace_once(default_text(), "duration: \"20 s\"", "duration: \"0.5 ms\"");
    CHECK(contains(only_at(load_errors(text), "control_period").message, "longer than the duration"));
  }
}

TEST_CASE("several errors are reported at once") {
  std::string text = replace_once(default_text(), "duration: \"20 s\"", "duraton: \"20 s\"");
  text = replace_once(text, "bandwidth: \"51.2 GB/s\"", "bandwidth: \"51.2 GHz\"");
  text = replace_once(text, "  governor: schedutil", "  governor: fastest");
  text = replace_once(text, "      cores: 4\n", "      cores: 0\n");
  const auto ds = diagnostics_of([&] { ps::load_scenario_text(text, "test.yaml"); });
  CHECK(only_at(ds, "duraton").line == 9);
  CHECK(only_at(ds, "duration").message == "missing required key 'duration'");
  CHECK(only_at(ds, "platform.components.lpddr.bandwidth").line == 125);
  CHECK(only_at(ds, "policy.governor").line == 172);
  CHECK(only_at(ds, "platform.components.cpu_little.cores").line == 86);
  CHECK(ds.size() == 5);
  // what() lists them all, one per line.
  try {
    ps::load_scenario_text(text, "test.yaml");
  } catch (const ps::scenario_error& e) {
    const std::string w = e.what();
    CHECK(count_of(w, "\n") == 4);
    CHECK(contains(w, "test.yaml:9:1: duraton: unknown key 'duraton'"));
  }
}
