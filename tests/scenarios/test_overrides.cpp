// --set KEY=VALUE: paths checked against the schema (not the file), values read as YAML
// scalars, sections created on demand, and problems named as coming from --set.
#include <doctest/doctest.h>

#include "relative_approx.hpp"

#include <string>

#include "helpers.hpp"

namespace ps = ptsim::scenarios;
using ptsim_test::Approx;
using namespace scen_test;

namespace {
ps::scenario load_with(std::initializer_list<const char*> sets, const std::string& text = default_text()) {
  return ps::load_scenario_text(text, "test.yaml", with_sets(sets));
}
std::vector<ps::diagnostic> errors_with(std::initializer_list<const char*> sets,
                                        const std::string& text = default_text()) {
  return load_errors(text, with_sets(sets));
}
}  // namespace

TEST_CASE("parse_override splits at the first '='") {
  auto kv = ps::parse_override("policy.governor=performance");
  CHECK(kv.path == "policy.governor");
  CHECK(kv.value == "performance");
  auto eq = ps::parse_override("workload.x=a=b");
  CHECK(eq.path == "workload.x");
  CHECK(eq.value == "a=b");
  auto empty = ps::parse_override("policy.governor=");
  CHECK(empty.value.empty());
  CHECK_THROWS_AS(ps::parse_override("policy.governor"), ps::scenario_error);
  CHECK_THROWS_AS(ps::parse_override("=performance"), ps::scenario_error);
  try {
    ps::parse_override("policy.governor");
  } catch (const ps::scenario_error& e) {
    CHECK(contains(e.what(), "--set"));
    CHECK(contains(e.what(), "expected KEY=VALUE"));
  }
}

TEST_CASE("policy.governor replaces the file's governor") {
  REQUIRE(ps::load_scenario_text(default_text(), "test.yaml").policy.default_governor.name == "schedutil");
  const auto sc = load_with({"policy.governor=performance"});
  CHECK(sc.policy.default_governor.name == "performance");
  CHECK(sc.policy.governor_for("little").name == "performance");
  CHECK(contains(sc.resolved_yaml, "governor: performance"));
}

TEST_CASE("resolved_yaml is left empty on request (validate), the rest alike") {
  ps::load_options opts;
  opts.emit_resolved_yaml = false;
  const auto without = ps::load_scenario_text(default_text(), "test.yaml", opts);
  const auto with = ps::load_scenario_text(default_text(), "test.yaml");
  CHECK(without.resolved_yaml.empty());
  CHECK_FALSE(with.resolved_yaml.empty());
  CHECK(without.name == with.name);
  CHECK(without.thermal.fp.size() == with.thermal.fp.size());
}

TEST_CASE("policy.governors.<domain> creates the section") {
  REQUIRE_FALSE(contains(default_text(), "governors:"));
  const auto sc = load_with({"policy.governors.big=ondemand"});
  REQUIRE(sc.policy.per_domain.count("big") == 1);
  CHECK(sc.policy.per_domain.at("big").name == "ondemand");
  CHECK(sc.policy.governor_for("big").name == "ondemand");
  CHECK(sc.policy.governor_for("little").name == "schedutil");
  CHECK(contains(sc.resolved_yaml, "governors:"));
}

TEST_CASE("a governor with tunables, also on top of a plain name") {
  const auto sc = load_with({"policy.governors.big=ondemand", "policy.governors.big.tunables.up_threshold=80"});
  REQUIRE(sc.policy.per_domain.count("big") == 1);
  CHECK(sc.policy.per_domain.at("big").name == "ondemand");
  CHECK(sc.policy.per_domain.at("big").values.at("up_threshold") == Approx(80));

  const auto sc2 = load_with({"policy.governors.mid.governor=conservative"});
  CHECK(sc2.policy.per_domain.at("mid").name == "conservative");

  const auto ds = errors_with({"policy.governors.big=ondemand", "policy.governors.big.tunables.up_treshold=80"});
  REQUIRE_FALSE(ds.empty());
  CHECK(contains(ds[0].file, "--set"));
  CHECK(contains(ds[0].message, "up_treshold"));
}

TEST_CASE("a value with a unit, quoted or not, means the same") {
  const auto plain = load_with({"thermal.ambient=35 degC"});
  const auto quoted = load_with({"thermal.ambient=\"35 degC\""});
  CHECK(plain.thermal.ambient.value() == Approx(308.15));
  CHECK(quoted.thermal.ambient.value() == Approx(308.15));
  CHECK(plain.thermal.ambient.value() == quoted.thermal.ambient.value());
  CHECK(plain.resolved_yaml == quoted.resolved_yaml);
}

TEST_CASE("a path the schema does not know") {
  const auto ds = errors_with({"policy.govrnor=x"});
  REQUIRE(ds.size() == 1);
  CHECK(contains(ds[0].file, "--set"));
  CHECK(contains(ds[0].file, "policy.govrnor"));
  CHECK(ds[0].path == "policy.govrnor");
  CHECK(ds[0].line == 0);
  CHECK(contains(ds[0].message, "unknown key 'govrnor'"));
  CHECK(contains(ds[0].message, "did you mean 'governor'"));

  // Top level, and inside a component of a given kind.
  CHECK(contains(errors_with({"duraton=1 s"})[0].message, "did you mean 'duration'"));
  const auto c = errors_with({"platform.components.noc.bandwith=1 GB/s"});
  REQUIRE(c.size() == 1);
  CHECK(contains(c[0].message, "kind 'noc'"));
  CHECK(contains(c[0].message, "did you mean 'bandwidth'"));
  // A key of another kind: cores is a compute unit's, not a NoC's.
  CHECK(contains(errors_with({"platform.components.noc.cores=2"})[0].message, "unknown key 'cores'"));
  // Past a value.
  CHECK(contains(errors_with({"policy.governor.x=1"})[0].message, "is a value"));
  // An empty segment.
  CHECK(contains(errors_with({"policy..governor=performance"})[0].message, "empty segment"));
}

TEST_CASE("a key under a section an earlier --set made a value is an error, not a crash") {
  // Found by fuzz_overrides: "thermal=x" then "thermal.ambient=..." indexed a scalar and
  // yaml-cpp threw BadSubscript out of the loader.
  const auto ds = errors_with({"thermal=cpu_.e", "thermal.ambient=34 degC"});
  REQUIRE_FALSE(ds.empty());
  bool named = false;
  for (const auto& d : ds)
    named |= d.path == "thermal.ambient" && contains(d.message, "'thermal' is not a mapping") && contains(d.file, "--set");
  CHECK(named);
}

TEST_CASE("a bad value through --set names --set, not the file") {
  const auto ds = errors_with({"policy.governor=foo"});
  const auto d = only_at(ds, "policy.governor");
  CHECK(contains(d.file, "--set"));
  CHECK(contains(d.file, "policy.governor"));
  CHECK(d.line == 0);
  CHECK(contains(d.message, "found 'foo'"));
  CHECK(contains(d.message, "expected one of ["));
  CHECK(contains(d.to_string(), "--set policy.governor"));

  const auto u = only_at(errors_with({"thermal.ambient=35"}), "thermal.ambient");
  CHECK(contains(u.file, "--set"));
  CHECK(contains(u.message, "without a unit"));

  const auto w = only_at(errors_with({"duration=20 Hz"}), "duration");
  CHECK(contains(w.file, "--set"));
  CHECK(contains(w.message, "expected time"));
  // A difference that is given as a point on the scale.
  const auto h = only_at(errors_with({"policy.thermal.hysteresis=3 degC"}), "policy.thermal.hysteresis");
  CHECK(contains(h.file, "--set"));
  CHECK(contains(h.message, "difference"));
}

TEST_CASE("an override into a list element") {
  const auto sc = load_with({"workload.streams.camera.stages.1.unit=cpu_big"});
  REQUIRE(sc.workload.streams.size() == 1);
  REQUIRE(sc.workload.streams[0].stages.size() == 3);
  CHECK(sc.workload.streams[0].stages[1].unit == "cpu_big");
  CHECK(sc.workload.streams[0].stages[0].unit == "cpu_little");  // untouched (the first of its units)
  const auto fp = load_with({"thermal.floorplan.5.name=dram", "thermal.power_map.lpddr=dram"});
  CHECK(fp.thermal.fp.blocks()[5].name == "dram");
  CHECK(fp.thermal.power_map.at("lpddr") == "dram");

  SUBCASE("out of range") {
    const auto ds = errors_with({"workload.streams.camera.stages.7.unit=cpu_big"});
    REQUIRE(ds.size() == 1);
    CHECK(contains(ds[0].file, "--set"));
    CHECK(contains(ds[0].message, "out of range"));
  }
  SUBCASE("not an index") {
    const auto ds = errors_with({"workload.streams.camera.stages.first.unit=cpu_big"});
    REQUIRE(ds.size() == 1);
    CHECK(contains(ds[0].message, "expected an index"));
  }
  SUBCASE("a bad value in a list element is blamed on --set") {
    const auto ds = errors_with({"workload.streams.camera.stages.1.unit=cpu_bgi"});
    const auto d = only_at(ds, "workload.streams.camera.stages[1].unit");
    CHECK(contains(d.file, "--set"));
    CHECK(d.line == 0);
    CHECK(contains(d.message, "'cpu_bgi' is not a compute unit"));
    const auto v = only_at(errors_with({"platform.domains.big.opps.0.freq=500 MV"}), "platform.domains.big.opps[0].freq");
    CHECK(contains(v.file, "--set"));
    CHECK(contains(v.message, "expected frequency"));
  }
}

TEST_CASE("an optional key that the file leaves out") {
  REQUIRE_FALSE(contains(default_text(), "hysteresis"));
  const auto sc = load_with({"policy.thermal.hysteresis=3 K"});
  CHECK(sc.policy.thermal.zone.hysteresis_K == Approx(3.0));
  CHECK(contains(sc.resolved_yaml, "hysteresis: 3 K"));

  // A component key with a schema default, and a whole section the file omits.
  const auto npu = load_with({"platform.components.npu.cores=2", "thermal.solver.substeps=16"});
  bool found = false;
  for (const auto& u : npu.platform.units)
    if (u.name == "npu") {
      found = true;
      CHECK(u.cores == 2);
    }
  CHECK(found);
  CHECK(npu.thermal.substeps == 16);
}

TEST_CASE("a whole section absent from the file is created") {
  const std::string no_policy = replace_once(
      default_text(), "policy:\n  governor: schedutil\n  thermal:\n    governor: step_wise\n    control_temp: \"85 degC\"\n", "");
  REQUIRE_FALSE(contains(no_policy, "policy:"));
  const auto base = ps::load_scenario_text(no_policy, "test.yaml");
  CHECK(base.policy.default_governor.name == "schedutil");  // schema default
  CHECK(base.policy.thermal.governor == "none");            // schema default
  const auto sc = load_with({"policy.governor=powersave", "policy.thermal.governor=power_allocator",
                             "policy.thermal.control_temp=75 degC"},
                            no_policy);
  CHECK(sc.policy.default_governor.name == "powersave");
  CHECK(sc.policy.thermal.governor == "power_allocator");
  CHECK(sc.policy.thermal.zone.control_temp_K == Approx(348.15));
  CHECK(sc.policy.thermal.zone.switch_on_temp_K == Approx(338.15));
}

TEST_CASE("later overrides win, and the seed option replaces the file's seed") {
  const auto sc = load_with({"policy.governor=performance", "policy.governor=powersave"});
  CHECK(sc.policy.default_governor.name == "powersave");

  ps::load_options o;
  o.seed = 42;
  const auto seeded = ps::load_scenario_text(default_text(), "test.yaml", o);
  CHECK(seeded.seed == 42u);
  CHECK(contains(seeded.resolved_yaml, "seed: 42"));
}

TEST_CASE("an override that makes a cross-reference wrong is still caught") {
  const auto ds = errors_with({"platform.components.cpu_big.domain=gpu"});
  const auto d = only_at(ds, "platform.components.cpu_big.domain");
  CHECK(contains(d.file, "--set"));
  CHECK(contains(d.message, "unknown DVFS domain 'gpu'"));
}

TEST_CASE("KEY=null removes: an optional key, a list item, a named entry") {
  // An optional key: its default applies (policy.thermal.governor defaults to none).
  REQUIRE(load_with({}).policy.thermal.governor == "step_wise");
  CHECK(load_with({"policy.thermal=null"}).policy.thermal.governor == "none");
  CHECK(load_with({"policy.thermal="}).policy.thermal.governor == "none");  // an empty value is null too
  CHECK(load_with({"policy.power_cap=null"}).policy.thermal.governor == "step_wise");  // absent: nothing to do
  // A list item: the later ones move up (the big cluster's lowest OPP goes).
  const auto base = load_with({});
  const auto fewer = load_with({"platform.domains.big.opps.0=null"});
  const auto big_of = [](const ps::scenario& sc) {
    for (const auto& d : sc.domains)
      if (d.name == "big") return d;
    FAIL("no big domain");
    return sc.domains.front();
  };
  const auto big0 = big_of(base), big1 = big_of(fewer);
  REQUIRE(big1.opps.size() + 1 == big0.opps.size());
  CHECK(big1.opps.frequency_hz(0) == big0.opps.frequency_hz(1));
  // A named entry: gone, so what used it is reported; a name that is not there is an error
  // naming those that are (most likely a misspelling).
  auto ds = errors_with({"platform.components.cpu_mid=null"});
  CHECK(contains(ds.at(0).message, "'cpu_mid' is not a compute unit of the platform"));
  ds = errors_with({"platform.components.cpu_midd=null"});
  REQUIRE(ds.size() == 1);
  CHECK(ds[0].file == "--set platform.components.cpu_midd=null");
  CHECK(contains(ds[0].message, "nothing to remove: 'platform.components.cpu_midd' is not in the scenario "
                                "(there are: cpu_little, cpu_mid, cpu_big, npu, noc, lpddr)"));
}
