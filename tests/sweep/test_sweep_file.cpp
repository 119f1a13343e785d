// Sweep files: expansion (grid product, zip, replicates), stable ids, duplicate points, and
// errors with file:line:column; a run's bad value pointed back at the sweep file.
#include <doctest/doctest.h>

#include "relative_approx.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <string>
#include <unistd.h>
#include <vector>

#include "ptsim/scenarios/sweep.hpp"
#include "ptsim/scenarios/sweep_manifest.hpp"

namespace ps = ptsim::scenarios;
namespace fs = std::filesystem;

namespace {

std::vector<ps::diagnostic> errors_of(const std::string& text) {
  try {
    ps::load_sweep_text(text, "s.yaml");
  } catch (const ps::scenario_error& e) {
    return e.diagnostics();
  }
  FAIL("expected a scenario_error, but the sweep loaded");
  return {};
}

bool contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

// The one diagnostic at line:column (fails the test when there is none).
ps::diagnostic at(const std::vector<ps::diagnostic>& ds, int line, int column) {
  for (const auto& d : ds)
    if (d.line == line && d.column == column) return d;
  std::string all;
  for (const auto& d : ds) all += d.to_string() + "\n";
  FAIL("no diagnostic at " << line << ":" << column << "; got:\n" << all);
  return {};
}

std::vector<std::string> texts(const ps::sweep_run& r) {
  std::vector<std::string> out;
  for (const auto& v : r.values) out.push_back(v.text);
  return out;
}

const std::string default_scenario = PTSIM_SOURCE_DIR "/scenarios/default.yaml";

}  // namespace

TEST_CASE("a grid is the cartesian product, first key outermost") {
  const auto s = ps::load_sweep_text(
      "base: ../b.yaml\n"
      "grid:\n"
      "  policy.governor: [performance, powersave, schedutil]\n"
      "  thermal.ambient: [\"25 degC\", \"35 degC\"]\n",
      "dir/sub/s.yaml");
  CHECK(s.name == "s");
  CHECK(s.base == "dir/b.yaml");
  CHECK(s.parameters == std::vector<std::string>{"policy.governor", "thermal.ambient"});
  CHECK_FALSE(s.replicated);
  REQUIRE(s.runs.size() == 6);
  const std::vector<std::vector<std::string>> expected{
      {"performance", "25 degC"}, {"performance", "35 degC"}, {"powersave", "25 degC"},
      {"powersave", "35 degC"},   {"schedutil", "25 degC"},   {"schedutil", "35 degC"}};
  std::set<std::string> ids;
  for (std::size_t i = 0; i < 6; ++i) {
    CHECK(s.runs[i].index == i);
    CHECK(texts(s.runs[i]) == expected[i]);
    CHECK_FALSE(s.runs[i].seed);
    ids.insert(s.runs[i].id);
  }
  CHECK(ids.size() == 6);
  // A readable prefix of the values, then '-' and 10 hex digits.
  const std::string& id = s.runs[1].id;
  CHECK(id.rfind("performance_35degC-", 0) == 0);
  CHECK(id.size() == std::string("performance_35degC-").size() + 10);
  CHECK(id.find_first_not_of("0123456789abcdef", id.size() - 10) == std::string::npos);
}

TEST_CASE("run ids depend on the parameters, not on key order, expansion order or fixed overrides") {
  const auto a = ps::load_sweep_text(
      "base: b.yaml\n"
      "grid:\n"
      "  policy.governor: [performance, powersave]\n"
      "  thermal.ambient: [\"25 degC\", \"35 degC\"]\n",
      "s.yaml");
  const auto b = ps::load_sweep_text(
      "base: b.yaml\n"
      "set: { duration: \"2 s\" }\n"
      "grid:\n"
      "  thermal.ambient: [\"35 degC\", \"25 degC\"]\n"
      "  policy.governor: [powersave, performance]\n",
      "t.yaml");
  REQUIRE(a.runs.size() == 4);
  REQUIRE(b.runs.size() == 4);
  CHECK(a.runs[0].id != b.runs[0].id);  // different order of expansion...
  std::map<std::string, std::string> by_point;
  for (const auto& r : a.runs) by_point[ps::canonical_parameters(r)] = r.id;
  for (const auto& r : b.runs) CHECK(by_point.at(ps::canonical_parameters(r)) == r.id);  // ...same ids per point
  CHECK(ps::canonical_parameters(a.runs[0]) == "policy.governor=performance\nthermal.ambient=25 degC\n");
  // The same point written as a zip gives the same id too.
  const auto z = ps::load_sweep_text(
      "base: b.yaml\nzip:\n  thermal.ambient: [\"25 degC\"]\n  policy.governor: [performance]\n", "z.yaml");
  REQUIRE(z.runs.size() == 1);
  CHECK(z.runs[0].id == a.runs[0].id);
}

TEST_CASE("zip varies lists together; several zip groups multiply") {
  const auto s = ps::load_sweep_text(
      "base: b.yaml\n"
      "grid:\n"
      "  policy.governor: [ondemand, schedutil]\n"
      "zip:\n"
      "  thermal.ambient: [\"25 degC\", \"35 degC\", \"45 degC\"]\n"
      "  policy.thermal.control_temp: [\"75 degC\", \"85 degC\", \"95 degC\"]\n",
      "s.yaml");
  CHECK(s.parameters ==
        std::vector<std::string>{"policy.governor", "thermal.ambient", "policy.thermal.control_temp"});
  REQUIRE(s.runs.size() == 6);
  CHECK(texts(s.runs[0]) == std::vector<std::string>{"ondemand", "25 degC", "75 degC"});
  CHECK(texts(s.runs[1]) == std::vector<std::string>{"ondemand", "35 degC", "85 degC"});
  CHECK(texts(s.runs[5]) == std::vector<std::string>{"schedutil", "45 degC", "95 degC"});

  const auto g = ps::load_sweep_text(
      "base: b.yaml\n"
      "zip:\n"
      "  - { thermal.ambient: [\"25 degC\", \"35 degC\"], duration: [\"1 s\", \"2 s\"] }\n"
      "  - { policy.governor: [performance, powersave, ondemand] }\n",
      "s.yaml");
  CHECK(g.parameters == std::vector<std::string>{"thermal.ambient", "duration", "policy.governor"});
  REQUIRE(g.runs.size() == 6);
  CHECK(texts(g.runs[4]) == std::vector<std::string>{"35 degC", "2 s", "powersave"});
}

TEST_CASE("replicates run seeds base_seed.. innermost; seeds lists them") {
  const auto r = ps::load_sweep_text(
      "base: b.yaml\ngrid:\n  policy.governor: [performance, powersave]\nreplicates: 3\n", "s.yaml");
  CHECK(r.replicated);
  REQUIRE(r.runs.size() == 6);
  const std::vector<std::uint64_t> seeds{1, 2, 3, 1, 2, 3};
  for (std::size_t i = 0; i < 6; ++i) {
    REQUIRE(r.runs[i].seed);
    CHECK(*r.runs[i].seed == seeds[i]);
    CHECK(r.runs[i].values[0].text == (i < 3 ? "performance" : "powersave"));
  }
  CHECK(r.runs[2].id.rfind("performance_s3-", 0) == 0);
  CHECK(ps::canonical_parameters(r.runs[2]) == "policy.governor=performance\nseed=3\n");

  const auto b = ps::load_sweep_text("base: b.yaml\nreplicates: 2\nbase_seed: 10\n", "s.yaml");
  REQUIRE(b.runs.size() == 2);
  CHECK(*b.runs[0].seed == 10);
  CHECK(*b.runs[1].seed == 11);
  CHECK(b.runs[0].id.rfind("s10-", 0) == 0);

  const auto l = ps::load_sweep_text("base: b.yaml\nseeds: [7, 42]\n", "s.yaml");
  REQUIRE(l.runs.size() == 2);
  CHECK(*l.runs[1].seed == 42);

  // Nothing varied: one run.
  const auto one = ps::load_sweep_text("base: b.yaml\nset: { duration: \"2 s\" }\n", "s.yaml");
  REQUIRE(one.runs.size() == 1);
  CHECK(one.runs[0].id.rfind("run-", 0) == 0);
}

TEST_CASE("the same point twice is an error at the repeated value") {
  const auto grid = errors_of(
      "base: b.yaml\n"
      "grid:\n"
      "  policy.governor:\n"
      "    - performance\n"
      "    - powersave\n"
      "    - performance\n");
  REQUIRE(grid.size() == 1);
  const auto d = at(grid, 6, 7);
  CHECK(d.file == "s.yaml");
  CHECK(d.path == "grid.policy.governor[2]");
  CHECK(contains(d.message, "duplicate value 'performance' (also at line 4)"));

  const auto zip = errors_of(
      "base: b.yaml\n"
      "zip:\n"
      "  policy.governor: [performance, powersave, performance]\n"
      "  thermal.ambient: [\"25 degC\", \"35 degC\", \"25 degC\"]\n");
  REQUIRE(zip.size() == 1);
  CHECK(zip[0].line == 3);
  CHECK(contains(zip[0].message, "duplicate point: row 2"));

  const auto seeds = errors_of("base: b.yaml\nseeds: [1, 2, 1]\n");
  REQUIRE(seeds.size() == 1);
  CHECK(at(seeds, 2, 15).path == "seeds[2]");
  CHECK(contains(seeds[0].message, "duplicate seed 1"));
}

TEST_CASE("structural errors name the line, column, key, expected and found") {
  SUBCASE("unknown key, with the nearest") {
    const auto d = at(errors_of("base: b.yaml\ngird:\n  policy.governor: [a]\n"), 2, 1);
    CHECK(d.path == "gird");
    CHECK(contains(d.message, "unknown key 'gird' (did you mean 'grid'?)"));
  }
  SUBCASE("missing base") {
    const auto ds = errors_of("grid:\n  policy.governor: [a]\n");
    REQUIRE(ds.size() == 1);
    CHECK(ds[0].path == "base");
    CHECK(contains(ds[0].message, "missing required key 'base'"));
  }
  SUBCASE("a grid value that is not a list") {
    const auto d = at(errors_of("base: b.yaml\ngrid:\n  policy.governor: performance\n"), 3, 20);
    CHECK(d.path == "grid.policy.governor");
    CHECK(contains(d.message, "expected a non-empty list of values, found 'performance'"));
  }
  SUBCASE("an empty list") {
    const auto d = at(errors_of("base: b.yaml\ngrid:\n  policy.governor: []\n"), 3, 20);
    CHECK(contains(d.message, "found an empty list"));
  }
  SUBCASE("zip lists of different lengths") {
    const auto d = at(errors_of("base: b.yaml\n"
                                "zip:\n"
                                "  policy.governor: [a, b]\n"
                                "  thermal.ambient: [x, y, z]\n"),
                      4, 20);
    CHECK(d.path == "zip.thermal.ambient");
    CHECK(contains(d.message, "expected 2 values (as many as zip.policy.governor"));
    CHECK(contains(d.message, "found 3"));
  }
  SUBCASE("one path in set and in grid") {
    const auto d = at(errors_of("base: b.yaml\n"
                                "set: { policy.governor: performance }\n"
                                "grid:\n"
                                "  policy.governor: [a, b]\n"),
                      4, 3);
    CHECK(contains(d.message, "'policy.governor' is already given in set (line 2)"));
  }
  SUBCASE("bad counts and seeds") {
    CHECK(contains(at(errors_of("base: b.yaml\nreplicates: 0\n"), 2, 13).message,
                   "expected a whole number of replicates from 1"));
    CHECK(contains(at(errors_of("base: b.yaml\nreplicates: -2\n"), 2, 13).message, "found '-2'"));
    CHECK(contains(at(errors_of("base: b.yaml\nreplicates: 2\nseeds: [1]\n"), 3, 1).message,
                   "either replicates or seeds"));
    CHECK(contains(at(errors_of("base: b.yaml\nbase_seed: 3\n"), 2, 1).message, "replicates, which is not given"));
    CHECK(contains(at(errors_of("base: b.yaml\nreplicates: 2\ngrid: { seed: [1, 2] }\n"), 3, 9).message,
                   "'seed' is varied by replicates"));
  }
  SUBCASE("not a dotted path") {
    CHECK(contains(at(errors_of("base: b.yaml\ngrid:\n  policy..governor: [a]\n"), 3, 3).message,
                   "expected a dotted scenario path"));
  }
  SUBCASE("YAML syntax and shape") {
    const auto syntax = errors_of("base: b.yaml\ngrid:\n  policy.governor: [a, b\n");
    REQUIRE(syntax.size() == 1);
    CHECK(syntax[0].line >= 3);
    CHECK(contains(syntax[0].message, "YAML syntax error"));
    CHECK(contains(errors_of("- a\n- b\n")[0].message, "expected a sweep"));
  }
  SUBCASE("every problem at once") {
    CHECK(errors_of("gird: 1\ngrid:\n  a: x\nreplicates: 0\n").size() == 4);  // gird, a, replicates, base
  }
}

TEST_CASE("a run is the base with the overrides; its bad value is reported in the sweep file") {
  const std::string text =
      "base: " + default_scenario +
      "\n"
      "set: { duration: \"2 s\" }\n"
      "grid:\n"
      "  policy.governor: [performance, powersave]\n"
      "  thermal.ambient: [\"25 degC\", \"35 W\"]\n"
      "replicates: 2\n"
      "base_seed: 5\n";
  const auto s = ps::load_sweep_text(text, "s.yaml");
  REQUIRE(s.runs.size() == 8);
  const auto sc = ps::load_sweep_run(s, s.runs[1]);  // performance, 25 degC, seed 6
  CHECK(sc.duration.value() == 2.0);
  CHECK(sc.seed == 6);
  CHECK(sc.thermal.ambient.value() == ptsim_test::Approx(298.15));
  try {
    ps::load_sweep_run(s, s.runs[2]);  // performance, 35 W, seed 5
    FAIL("expected the run to be invalid");
  } catch (const ps::scenario_error& e) {
    REQUIRE(e.diagnostics().size() == 1);
    const auto& d = e.diagnostics()[0];
    CHECK(d.file == "s.yaml");
    CHECK(d.line == 5);
    CHECK(d.column == 32);
    CHECK(d.path == "thermal.ambient");
    CHECK(contains(d.message, "expected temperature"));
    CHECK(contains(d.message, "found '35 W'"));
  }
  std::size_t invalid = 0;
  const auto problems = ps::check_sweep_runs(s, &invalid);
  CHECK(invalid == 4);            // both governors x both seeds at 35 W
  CHECK(problems.size() == 1);    // reported once

  // A path the schema does not know is reported at its key.
  const auto u = ps::load_sweep_text("base: " + default_scenario + "\ngrid:\n  policy.govrnor: [performance]\n", "u.yaml");
  try {
    ps::load_sweep_run(u, u.runs[0]);
    FAIL("expected the run to be invalid");
  } catch (const ps::scenario_error& e) {
    REQUIRE(e.diagnostics().size() == 1);
    CHECK(e.diagnostics()[0].file == "u.yaml");
    CHECK(e.diagnostics()[0].line == 3);
    CHECK(e.diagnostics()[0].column == 3);
    CHECK(contains(e.diagnostics()[0].message, "did you mean 'governor'?"));
  }
}

TEST_CASE("a null value removes what its path names in that run, as --set KEY=null does") {
  const std::string text = "base: " + default_scenario +
                           "\n"
                           "grid:\n"
                           "  policy.thermal: [null, { governor: step_wise, control_temp: \"70 degC\" }]\n";
  const auto s = ps::load_sweep_text(text, "s.yaml");
  REQUIRE(s.runs.size() == 2);
  CHECK(s.runs[0].values[0].text == "null");
  CHECK(contains(s.runs[0].id, "null"));
  CHECK(ps::load_sweep_run(s, s.runs[0]).policy.thermal.governor == "none");  // the default, once removed
  const auto kept = ps::load_sweep_run(s, s.runs[1]);
  CHECK(kept.policy.thermal.governor == "step_wise");
  CHECK(kept.policy.thermal.zone.control_temp_K == ptsim_test::Approx(343.15));
  // A component that is not there: the run's error points at the value in the sweep file.
  const auto u = ps::load_sweep_text("base: " + default_scenario + "\nset:\n  platform.components.gpu: null\n", "u.yaml");
  try {
    ps::load_sweep_run(u, u.runs[0]);
    FAIL("expected the run to be invalid");
  } catch (const ps::scenario_error& e) {
    REQUIRE(e.diagnostics().size() == 1);
    CHECK(e.diagnostics()[0].file == "u.yaml");
    CHECK(contains(e.diagnostics()[0].message, "nothing to remove: 'platform.components.gpu' is not in the scenario"));
  }
}

TEST_CASE("sweep files are told from scenarios by a top-level base") {
  CHECK(ps::is_sweep_text("base: x.yaml\n"));
  CHECK_FALSE(ps::is_sweep_text("name: x\nduration: \"1 s\"\n"));
  CHECK_FALSE(ps::is_sweep_text("[unclosed\n"));
  CHECK(ps::is_sweep_file(PTSIM_SOURCE_DIR "/scenarios/sweeps/governors.yaml"));
  CHECK_FALSE(ps::is_sweep_file(default_scenario));
  // Without "base" in the text it is not parsed; a key spelt otherwise still counts.
  CHECK(ps::is_sweep_text("? \"\\x62ase\"\n: x.yaml\n"));
  CHECK(ps::is_sweep_text("\"b\\u0061se\": x.yaml\n"));
  CHECK(ps::is_sweep_text(std::string("\xff\xfe" "b\0a\0s\0e\0:\0 \0x\0\n\0", 18)));  // UTF-16LE
  CHECK_FALSE(ps::is_sweep_text("database: x.yaml\n"));
  CHECK_FALSE(ps::is_sweep_text("name: base\n"));
}

TEST_CASE("the library's governors sweep: six governors at two ambients") {
  const auto s = ps::load_sweep_file(PTSIM_SOURCE_DIR "/scenarios/sweeps/governors.yaml");
  CHECK(s.base == fs::path(default_scenario).lexically_normal().string());
  REQUIRE(s.runs.size() == 12);
  std::set<std::string> governors;
  for (const auto& r : s.runs) governors.insert(r.values[0].text);
  CHECK(governors == std::set<std::string>{"performance", "powersave", "userspace", "ondemand", "conservative",
                                           "schedutil"});
  std::size_t invalid = 99;
  CHECK(ps::check_sweep_runs(s, &invalid).empty());
  CHECK(invalid == 0);
}

TEST_CASE("a sweep file's base must exist") {
  const fs::path dir = fs::path(PTSIM_BINARY_DIR) / "sweep-scratch" / ("base-" + std::to_string(getpid()));
  fs::create_directories(dir);
  std::ofstream(dir / "s.yaml") << "base: missing.yaml\n";
  try {
    ps::load_sweep_file((dir / "s.yaml").string());
    FAIL("expected an error");
  } catch (const ps::scenario_error& e) {
    CHECK(e.diagnostics()[0].line == 1);
    CHECK(e.diagnostics()[0].column == 7);
    CHECK(contains(e.what(), "base scenario not found"));
  }
  fs::remove_all(dir);
}

TEST_CASE("identity: the sweep's text and its base's text") {
  const fs::path dir = fs::path(PTSIM_BINARY_DIR) / "sweep-scratch" / ("identity-" + std::to_string(getpid()));
  fs::create_directories(dir);
  std::ofstream(dir / "b.yaml") << "one\n";
  const std::string text = "base: b.yaml\ngrid: { policy.governor: [a] }\n";
  const auto s = ps::load_sweep_text(text, (dir / "s.yaml").string());
  // FNV-1a 64 reference values: "" -> cbf29ce484222325, "a" -> af63dc4c8601ec8c.
  CHECK(ps::content_hash("") == "cbf29ce484222325");
  CHECK(ps::content_hash("a") == "af63dc4c8601ec8c");
  const std::string first = ps::sweep_identity(s);
  CHECK(first == ps::content_hash(text + std::string(1, '\0') + "one\n"));
  std::ofstream(dir / "b.yaml") << "two\n";
  CHECK(ps::sweep_identity(s) != first);
  fs::remove_all(dir);
}

TEST_CASE("the folder manifest keeps the sweep's text, so the folder alone can be merged") {
  for (const std::string& text : {std::string("# comment\nbase: b.yaml\ngrid:\n  policy.governor: [a, b]\n"),
                                 std::string("  base: b.yaml\n  grid: {policy.governor: [a, b]}\n")}) {
    ps::sweep_manifest m{"/abs/sweeps/s.yaml", "0123456789abcdef", 2, text};
    const auto back = ps::parse_manifest(ps::manifest_yaml(m), "sweep.yaml");
    CHECK(back.source == m.source);
    CHECK(back.identity == m.identity);
    CHECK(back.runs == 2);
    const auto s = ps::manifest_sweep(back);
    CHECK(s.base == "/abs/sweeps/b.yaml");
    REQUIRE(s.runs.size() == 2);
    CHECK(s.runs[1].id == ps::load_sweep_text(text, "x.yaml").runs[1].id);
  }
  CHECK_THROWS_AS(ps::parse_manifest("name: x\n", "sweep.yaml"), ps::scenario_error);
}
