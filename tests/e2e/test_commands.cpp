// End to end: validate, report, list and schema on real files.
#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>

#include "ptsim/postproc/result_file.hpp"
#include "run_ptsim.hpp"

using namespace e2e;

TEST_CASE("validate accepts the library and rejects a broken file") {
  scratch s("validate");
  const result ok = run_ptsim(s.dir, "validate " + default_scenario());
  CHECK(ok.exit_code == 0);
  CHECK(ok.out.find("ok (scenario 'phone-camera'") != std::string::npos);
  std::ofstream(s.dir / "bad.yaml") << "name: x\nduration: \"2 W\"\n";
  const result bad = run_ptsim(s.dir, "validate bad.yaml");
  CHECK(bad.exit_code == 2);
  CHECK(bad.err.find("bad.yaml:2:11: duration: expected time (s), found '2 W' which is power (W)") != std::string::npos);
  CHECK(bad.err.find("missing required key 'platform'") != std::string::npos);
}

TEST_CASE("validate still names file:line:column for every kind of mistake") {
  // The front end runs validate itself, statically linked, with the scenario loader's
  // fast paths (one pass for files without templates, units parsed once): each mistake
  // must still be found and placed.
  scratch s("validate-marks");
  std::ofstream(s.dir / "keys.yaml") << "name: x\nname: y\nduration: \"2 s\"\nbogsu: 1\n";
  const result keys = run_ptsim(s.dir, "validate keys.yaml");
  CHECK(keys.exit_code == 2);
  CHECK(keys.err.find("keys.yaml:2:1: name: duplicate key 'name' (first given at line 1)") != std::string::npos);
  CHECK(keys.err.find("keys.yaml:4:1: bogsu: unknown key 'bogsu'") != std::string::npos);
  CHECK(keys.out.find("ok") == std::string::npos);

  std::ofstream(s.dir / "syntax.yaml") << "name: x\nduration: [\"2 s\"\n";
  const result syntax = run_ptsim(s.dir, "validate syntax.yaml");
  CHECK(syntax.exit_code == 2);
  CHECK(syntax.err.find("syntax.yaml:3:1: YAML syntax error") != std::string::npos);

  // The library's default with one OPP's unit misspelt, the second row of a table whose
  // other rows use the same unit: the line and column are those of the misspelt value.
  std::ifstream in(default_scenario());
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const std::string good = "\"574 MHz\"", bad = "\"574 MHzz\"";
  const auto at = text.find(good);
  REQUIRE(at != std::string::npos);
  text.replace(at, good.size(), bad);
  const auto line = 1 + std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(at), '\n');
  const auto column = at - text.rfind('\n', at);  // 1-based: the newline before is column 0
  std::ofstream(s.dir / "opp.yaml") << text;
  const result opp = run_ptsim(s.dir, "validate opp.yaml");
  CHECK(opp.exit_code == 2);
  CHECK_MESSAGE(opp.err.find("opp.yaml:" + std::to_string(line) + ":" + std::to_string(column) +
                             ": platform.domains.little.opps[1].freq: bad unit 'MHzz'") != std::string::npos,
                opp.err);

  // Many files in one process: the front end's allocation arena (one huge page) fills up
  // and the rest comes from malloc; every file is still checked.
  std::string all;
  int files = 0;
  for (const auto& e : std::filesystem::directory_iterator(PTSIM_SOURCE_DIR "/scenarios"))
    if (e.path().extension() == ".yaml") {
      all += " " + e.path().string();
      ++files;
    }
  const std::string thrice = all + all + all;
  const result many = run_ptsim(s.dir, "validate" + thrice + " keys.yaml");
  CHECK(many.exit_code == 2);
  std::size_t oks = 0;
  for (auto p = many.out.find(": ok ("); p != std::string::npos; p = many.out.find(": ok (", p + 1)) ++oks;
  CHECK(oks == static_cast<std::size_t>(3 * files));
  CHECK(many.err.find("keys.yaml:4:1: bogsu: unknown key 'bogsu'") != std::string::npos);
}

TEST_CASE("report prints the file's summary; json at full precision") {
  scratch s("report");
  REQUIRE(run_ptsim(s.dir, "run -q -o r.h5").exit_code == 0);
  const result table = run_ptsim(s.dir, "report r.h5");
  CHECK(table.exit_code == 0);
  CHECK(table.out.find("avg_power_W") != std::string::npos);
  const result json = run_ptsim(s.dir, "report r.h5 --format json");
  REQUIRE(json.exit_code == 0);
  ptsim::postproc::result_reader f(s.dir / "r.h5");
  // Each metric appears as "key": number, printed to round-trip exactly.
  for (const auto& entry : f.summary().metrics) {  // not a structured binding: *_MESSAGE captures it
    const std::string& k = entry.first;
    const auto& m = entry.second;
    const auto at = json.out.find("\"" + k + "\":");
    REQUIRE_MESSAGE(at != std::string::npos, k);
    const double v = std::strtod(json.out.c_str() + at + k.size() + 3, nullptr);
    CHECK_MESSAGE(v == m.value, k);
  }
  const result garbage = run_ptsim(s.dir, "report " + default_scenario());
  CHECK(garbage.exit_code == 2);
  CHECK(garbage.err.find("not a ptsim result file") != std::string::npos);
}

TEST_CASE("list and schema come from the code's declarations") {
  scratch s("list");
  const result gov = run_ptsim(s.dir, "list governors");
  for (const char* g : {"performance", "powersave", "userspace", "ondemand", "conservative", "schedutil",
                        "step_wise", "power_allocator", "up_threshold"})
    CHECK_MESSAGE(gov.out.find(g) != std::string::npos, g);
  const result comp = run_ptsim(s.dir, "list components");
  for (const char* c : {"cpu_cluster", "npu", "noc", "lpddr", "ops_per_cycle", "bandwidth"})
    CHECK_MESSAGE(comp.out.find(c) != std::string::npos, c);
  const result wl = run_ptsim(s.dir, "list workloads");
  for (const char* w : {"mobilenet_v2", "resnet50", "image_preprocess"}) CHECK(wl.out.find(w) != std::string::npos);
  // Metrics from the catalogue, with units and direction, per-label families included.
  const result met = run_ptsim(s.dir, "list metrics");
  CHECK(met.exit_code == 0);
  for (const char* m : {"perf_per_watt", "energy_J[<component>]", "ttft_p99_s[<llm stream>]", "energy_group_J[<group>]",
                        "latency_p99_s[<stream>]", "peak_power_cap_window_W"})
    CHECK_MESSAGE(met.out.find(m) != std::string::npos, m);
  CHECK(met.out.find("perf_per_watt               throughput per J  higher  ") != std::string::npos);
  CHECK(met.out.find("latency_p99_s               s                 lower   ") != std::string::npos);
  const result sc = run_ptsim(s.dir, "list scenarios");
  CHECK(sc.out.find("default.yaml") != std::string::npos);
  CHECK(sc.out.find("INVALID") == std::string::npos);
  const result schema = run_ptsim(s.dir, "schema");
  CHECK(schema.exit_code == 0);
  CHECK(schema.out.find("\"$schema\"") != std::string::npos);
  CHECK(run_ptsim(s.dir, "list nonsense").exit_code == 2);
  CHECK(run_ptsim(s.dir, "run --help").out.find("--set") != std::string::npos);
}
