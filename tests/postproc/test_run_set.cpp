// Runs for reports: folders, sweep folders, swept parameters read from each run's own
// scenario, replicates grouped by seed with hand-computed means and intervals.
#include <doctest/doctest.h>

#include "relative_approx.hpp"

#include <cmath>
#include <fstream>
#include <functional>
#include <stdexcept>

#include "ptsim/postproc/run_set.hpp"
#include "ptsim/postproc/stats.hpp"
#include "sample_result.hpp"
#include "scratch.hpp"

namespace fs = std::filesystem;
using namespace ptsim::postproc;

namespace {

using test::scratch;

std::string scenario_text(const std::string& governor, const std::string& ambient, int seed) {
  return "name: phone\nduration: 2 s\nseed: " + std::to_string(seed) +
         "\nplatform:\n  domains:\n    big:\n      opps:\n        - {freq: 500 MHz, volt: 500 mV}\n"
         "thermal:\n  ambient: " + ambient + "\npolicy:\n  governor: " + governor + "\n";
}

// A small committed result whose scenario and summary are given.
void write_run(const fs::path& file, const std::string& scenario, int seed, double perf_per_watt,
               double latency_p99) {
  run_metadata m = test::sample_metadata();
  m.scenario_yaml = scenario;
  m.seed = static_cast<std::uint64_t>(seed);
  result_writer w(file, m, test::sample_layout(), 0.01);
  run_summary s;
  s.throughput_units = "inferences/s";
  s.metrics["perf_per_watt"] = {perf_per_watt, "inferences/J"};
  s.metrics["latency_p99_s"] = {latency_p99, "s"};
  w.set_summary(s);
  w.set_unit_summary({{"npu", 1.0 * seed, 0.5, 0.0, 0.0, 0.1, 0.4, 10}});
  w.set_domain_summary({{"big", 0.1 * seed, 0.1 * seed, 0.0}});
  w.commit(0.1);
}

}  // namespace

TEST_CASE("flatten_yaml: dotted paths as --set spells them") {
  const auto flat = flatten_yaml(
      "name: x\nseed: 3\nplatform:\n  domains:\n    big: {opps: [{freq: 1 GHz}, {freq: 2 GHz}]}\n"
      "workload:\n  stages:\n    - unit: npu\n      model: \"mobilenet: v2\"\n    - unit: cpu\nempty:\n");
  const std::vector<std::pair<std::string, std::string>> want{
      {"name", "x"},
      {"seed", "3"},
      {"platform.domains.big.opps.0.freq", "1 GHz"},
      {"platform.domains.big.opps.1.freq", "2 GHz"},
      {"workload.stages.0.unit", "npu"},
      {"workload.stages.0.model", "mobilenet: v2"},
      {"workload.stages.1.unit", "cpu"},
      {"empty", "null"}};
  CHECK(flat == want);
  CHECK_THROWS_AS(flatten_yaml("a: [1, 2"), std::invalid_argument);
}

namespace {
// "Billion laughs": each level names the one before it nine times, so 10 levels stand for
// 9^10 (3.5e9) scalars in a few hundred bytes of text.
std::string alias_bomb(int levels) {
  std::string text = "name: bomb\na0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]\n";
  for (int i = 1; i < levels; ++i) {
    const std::string prev = "*a" + std::to_string(i - 1);
    text += "a" + std::to_string(i) + ": &a" + std::to_string(i) + " [" + prev;
    for (int k = 1; k < 9; ++k) text += ", " + prev;
    text += "]\n";
  }
  return text;
}

std::string message_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const std::exception& e) {
    return e.what();
  }
  return "";
}
}  // namespace

TEST_CASE("flatten_yaml bounds what a stored scenario may cost: alias bombs, depth, size") {
  const std::string bomb = alias_bomb(10);
  CHECK(bomb.size() < 1000);
  const std::string msg = message_of([&] { flatten_yaml(bomb); });
  CHECK(msg.find("more than 1000000 nodes") != std::string::npos);
  // A few aliases, as a hand-written scenario might use, are fine (each one followed).
  const auto small = flatten_yaml(alias_bomb(3));
  CHECK(small.size() == 1 + 9 + 81 + 729);
  // Nesting deeper than 64 levels.
  std::string deep = "a: ";
  for (int i = 0; i < 100; ++i) deep += "[";
  deep += "x";
  for (int i = 0; i < 100; ++i) deep += "]";
  CHECK(message_of([&] { flatten_yaml(deep); }).find("deeper than 64") != std::string::npos);
  // More text than any scenario: refused before it is parsed.
  const std::string huge(limits::scenario_text_bytes + 1, '#');
  CHECK(message_of([&] { flatten_yaml(huge); }).find("more than") != std::string::npos);
}

TEST_CASE("a result whose stored scenario is an alias bomb is an error for load_runs, not gigabytes") {
  const fs::path dir = scratch("alias_bomb");
  write_run(dir / "bomb.h5", alias_bomb(10), 1, 1.0, 0.01);
  const std::string msg = message_of([&] { load_runs({dir / "bomb.h5"}); });
  CHECK(msg.find("bomb.h5") != std::string::npos);
  CHECK(msg.find("nodes") != std::string::npos);
}

TEST_CASE("expand_result_inputs: files, plain folders, sweep folders; .part skipped") {
  const fs::path dir = scratch("inputs");
  fs::create_directories(dir / "sweep" / "runs");
  fs::create_directories(dir / "plain");
  fs::create_directories(dir / "empty");
  for (const char* f : {"sweep/runs/b.h5", "sweep/runs/a.h5", "sweep/runs/c.h5.part", "sweep/summary.h5",
                        "plain/z.h5", "plain/y.h5", "plain/notes.txt", "one.h5"})
    std::ofstream(dir / f) << "x";
  const auto got = expand_result_inputs({dir / "one.h5", dir / "sweep", dir / "plain"});
  const std::vector<fs::path> want{dir / "one.h5", dir / "sweep/runs/a.h5", dir / "sweep/runs/b.h5",
                                   dir / "plain/y.h5", dir / "plain/z.h5"};
  CHECK(got == want);
  try {
    expand_result_inputs({dir / "empty"});
    FAIL("no exception");
  } catch (const std::invalid_argument& e) {
    CHECK(std::string(e.what()).find("empty: expected result files (*.h5), found none") != std::string::npos);
  }
  CHECK_THROWS_AS(expand_result_inputs({dir / "absent.h5"}), std::invalid_argument);
}

TEST_CASE("failed_runs reads a sweep's summary.csv (quoted fields included)") {
  const fs::path dir = scratch("failed");
  std::ofstream(dir / "summary.csv") << "run_id,status,error,policy.governor,energy_J,wall_s\n"
                                        "a-1,ok,,performance,1.5,0.2\n"
                                        "b-2,failed,\"thermal runaway, at 3 s: \"\"npu\"\"\",powersave,,0.1\n";
  const auto failed = failed_runs(dir);
  REQUIRE(failed.size() == 1);
  CHECK(failed[0].first == "b-2");
  CHECK(failed[0].second == "thermal runaway, at 3 s: \"npu\"");
  CHECK(failed_runs(scratch("no_csv")).empty());
}

TEST_CASE("swept parameters come from the runs' scenarios; replicates become mean ± CI") {
  const fs::path dir = scratch("sweep") / "runs";
  fs::create_directories(dir);
  // performance at 25 degC with three seeds, powersave at 25 and 35 degC once each.
  write_run(dir / "p25-1.h5", scenario_text("performance", "25 degC", 1), 1, 10.0, 0.010);
  write_run(dir / "p25-2.h5", scenario_text("performance", "25 degC", 2), 2, 12.0, 0.012);
  write_run(dir / "p25-3.h5", scenario_text("performance", "25 degC", 3), 3, 14.0, 0.014);
  write_run(dir / "s25-1.h5", scenario_text("powersave", "25 degC", 1), 1, 20.0, 0.040);
  write_run(dir / "s35-1.h5", scenario_text("powersave", "35 degC", 1), 1, 18.0, 0.045);
  const auto runs = load_runs(expand_result_inputs({dir.parent_path()}));
  REQUIRE(runs.size() == 5);
  CHECK(runs[0].id == "p25-1");
  CHECK(swept_parameters(runs) == std::vector<std::string>{"thermal.ambient", "policy.governor"});
  CHECK(has_replicates(runs));

  const auto each = entries_per_run(runs);
  REQUIRE(each.size() == 5);
  CHECK(each[3].label == "s25-1");
  CHECK(each[3].params == std::vector<std::pair<std::string, std::string>>{{"thermal.ambient", "25 degC"},
                                                                         {"policy.governor", "powersave"}});

  const auto groups = entries_by_configuration(runs);
  REQUIRE(groups.size() == 3);
  const labelled_summary& p = groups[0];
  CHECK(p.label == "ambient=25 degC, governor=performance");
  CHECK(p.runs == std::vector<std::string>{"p25-1", "p25-2", "p25-3"});
  // {10, 12, 14}: mean 12, s = 2, half-width t(2) * 2 / sqrt(3).
  CHECK(p.summary.metrics.at("perf_per_watt").value == 12.0);
  CHECK(p.summary.metrics.at("perf_per_watt").units == "inferences/J");
  CHECK(p.ci95.at("perf_per_watt") == ptsim_test::Approx(4.302653 * 2 / std::sqrt(3.0)).epsilon(1e-6));
  CHECK(p.summary.metrics.at("latency_p99_s").value == ptsim_test::Approx(0.012).epsilon(1e-12));
  // Per-unit and per-domain values are means too.
  REQUIRE(p.units.size() == 1);
  CHECK(p.units[0].compute_bound_s == ptsim_test::Approx(2.0));
  CHECK(p.domains[0].throttled_fraction == ptsim_test::Approx(0.2));
  // A configuration run once stays that run, labelled by its id.
  CHECK(groups[1].label == "s25-1");
  CHECK(groups[1].runs.empty());
  CHECK(groups[1].ci95.empty());
  CHECK(groups[2].summary.metrics.at("perf_per_watt").value == 18.0);
}

TEST_CASE("one run, or runs of unrelated scenarios, are labelled by run id") {
  const fs::path dir = scratch("single");
  write_run(dir / "only.h5", scenario_text("performance", "25 degC", 1), 1, 10.0, 0.01);
  const auto runs = load_runs({dir / "only.h5"});
  CHECK(swept_parameters(runs).empty());
  CHECK_FALSE(has_replicates(runs));
  const auto e = entries_by_configuration(runs);
  REQUIRE(e.size() == 1);
  CHECK(e[0].label == "only");
  CHECK(e[0].params.empty());
}
