// --best / --where: parsing, ranking under constraints, the runner-up's gap, output formats.
#include <doctest/doctest.h>

#include "relative_approx.hpp"

#include <cmath>
#include <functional>
#include <limits>
#include <stdexcept>

#include "ptsim/postproc/decision.hpp"

#include "error_of.hpp"

using namespace ptsim::postproc;

using ptsim_test::error_of;

namespace {

labelled_summary entry(const std::string& label, double ppw, double p99, double throttled_big) {
  labelled_summary e;
  e.label = label;
  e.summary.throughput_units = "inferences/s";
  e.summary.metrics["perf_per_watt"] = {ppw, "inferences/J"};
  e.summary.metrics["latency_p99_s"] = {p99, "s"};
  e.summary.metrics["energy_J"] = {100.0 / ppw, "J"};
  e.params = {{"policy.governor", label}};
  e.domains = {{"big", throttled_big}};
  return e;
}


}  // namespace

TEST_CASE("parse_objective: explicit max:/min:, or a metric whose direction is known") {
  CHECK(parse_objective("max:throughput").direction == goal::maximize);
  CHECK(parse_objective("min:perf_per_watt").direction == goal::minimize);  // explicit wins
  CHECK(parse_objective("min: energy_J").metric == "energy_J");
  CHECK(parse_objective("perf_per_watt").direction == goal::maximize);
  CHECK(parse_objective("throughput").direction == goal::maximize);
  for (const char* m : {"energy_J", "avg_power_W", "peak_power_W", "latency_p50_s", "latency_p99_s",
                        "peak_temperature_C", "throttled_fraction", "throttled_fraction_power",
                        "throttled_fraction[big]", "memory_bound_s[npu]"})
    CHECK_MESSAGE(parse_objective(m).direction == goal::minimize, m);
  const std::string msg = error_of<std::invalid_argument>([] { parse_objective("wall_s"); });
  CHECK(msg.find("max:wall_s or min:wall_s") != std::string::npos);
  CHECK(error_of<std::invalid_argument>([] { parse_objective("max:"); }).find("expected a metric") != std::string::npos);
}

TEST_CASE("parse_constraint: METRIC OP NUMBER") {
  const constraint c = parse_constraint("latency_p99_s < 0.03");
  CHECK(c.metric == "latency_p99_s");
  CHECK(c.op == "<");
  CHECK(c.value == 0.03);
  CHECK(parse_constraint("peak_temperature_C<=85").op == "<=");
  CHECK(parse_constraint("  throughput >= 29.5 ").value == 29.5);
  CHECK(parse_constraint("throttled_fraction[big] == 0").metric == "throttled_fraction[big]");
  CHECK(parse_constraint("energy_J > 1e3").value == 1000);
  CHECK(c.holds(0.029));
  CHECK_FALSE(c.holds(0.03));
  CHECK_FALSE(c.holds(std::nan("")));
  CHECK(parse_constraint("x == 2").holds(2));
  CHECK(parse_constraint("x >= 2").holds(2));
  CHECK_FALSE(parse_constraint("x > 2").holds(2));
  CHECK(error_of<std::invalid_argument>([] { parse_constraint("latency_p99_s 0.03"); }).find("no comparison") != std::string::npos);
  CHECK(error_of<std::invalid_argument>([] { parse_constraint("latency_p99_s = 0.03"); }).find("use '=='") != std::string::npos);
  CHECK(error_of<std::invalid_argument>([] { parse_constraint("latency_p99_s < fast"); }).find("found 'fast'") != std::string::npos);
  CHECK(error_of<std::invalid_argument>([] { parse_constraint("< 3"); }).find("no metric") != std::string::npos);
}

TEST_CASE("decide: the best among those meeting every constraint; the runner-up behind it") {
  // By hand: performance has the lowest latency but the worst perf/W; powersave the best
  // perf/W but misses the latency bound; schedutil and ondemand both meet it.
  const std::vector<labelled_summary> e{entry("performance", 10.0, 0.010, 0.0), entry("powersave", 30.0, 0.050, 0.0),
                                        entry("schedutil", 20.0, 0.020, 0.3), entry("ondemand", 16.0, 0.025, 0.1)};
  const decision d = decide(e, parse_objective("perf_per_watt"), {parse_constraint("latency_p99_s < 0.03")});
  CHECK(d.ranking == std::vector<std::size_t>{2, 3, 0});
  REQUIRE(d.excluded.size() == 1);
  CHECK(d.excluded[0].first == 1);
  CHECK(d.excluded[0].second == "latency_p99_s = 0.05, needs < 0.03");

  // Two constraints, ANDed: the per-domain throttling rules schedutil out.
  const decision d2 = decide(e, parse_objective("max:perf_per_watt"),
                             {parse_constraint("latency_p99_s < 0.03"), parse_constraint("throttled_fraction[big] <= 0.2")});
  CHECK(d2.ranking == std::vector<std::size_t>{3, 0});

  // Minimising energy with no constraint: powersave (100/30 J).
  CHECK(decide(e, parse_objective("energy_J"), {}).ranking.front() == 1);

  // Nothing feasible.
  const decision none = decide(e, parse_objective("perf_per_watt"), {parse_constraint("latency_p99_s < 0.001")});
  CHECK(none.ranking.empty());
  CHECK(none.excluded.size() == 4);

  CHECK(error_of<std::invalid_argument>([&] { decide(e, parse_objective("max:no_such_metric"), {}); }).find("no_such_metric") !=
        std::string::npos);
  CHECK(error_of<std::invalid_argument>([&] { decide(e, parse_objective("perf_per_watt"), {parse_constraint("typo_s < 1")}); })
            .find("typo_s") != std::string::npos);
}

TEST_CASE("format_decision: the verdict with the gap, in every format") {
  const std::vector<labelled_summary> e{entry("performance", 10.0, 0.010, 0.0), entry("powersave", 30.0, 0.050, 0.0),
                                        entry("schedutil", 20.0, 0.020, 0.3)};
  const decision d = decide(e, parse_objective("perf_per_watt"), {parse_constraint("latency_p99_s < 0.03")});
  const std::string table = format_decision(e, d, report_format::table);
  CHECK(table.find("best: schedutil: perf_per_watt = 20 inferences/J") != std::string::npos);
  // Runner-up performance: 10 lower, 50% behind.
  CHECK(table.find("runner-up: performance: perf_per_watt = 10 inferences/J, 10 inferences/J lower (50% behind)") !=
        std::string::npos);
  CHECK(table.find("latency_p99_s = 0.05, needs < 0.03") == std::string::npos);  // reasons are csv/json
  CHECK(table.find("powersave") != std::string::npos);                           // but it is listed
  const std::string json = format_decision(e, d, report_format::json);
  CHECK(json.front() == '{');
  CHECK(json.find("\"best\": {\"label\": \"schedutil\", \"value\": 20") != std::string::npos);
  CHECK(json.find("\"runner_up\": {\"label\": \"performance\", \"value\": 10") != std::string::npos);
  CHECK(json.find("\"gap\": 10,") != std::string::npos);
  CHECK(json.find("\"gap_relative\": 0.5,") != std::string::npos);
  CHECK(json.find("\"reason\": \"latency_p99_s = 0.05, needs < 0.03\"") != std::string::npos);
  const std::string csv = format_decision(e, d, report_format::csv);
  CHECK(csv.rfind("rank,configuration,parameters,perf_per_watt,ci95,feasible,reason\n", 0) == 0);
  CHECK(csv.find("1,schedutil,policy.governor=schedutil,20,,yes,\n") != std::string::npos);
  CHECK(csv.find("-,powersave,policy.governor=powersave,30,,no,\"latency_p99_s = 0.05, needs < 0.03\"\n") !=
        std::string::npos);
  const std::string md = format_decision(e, d, report_format::markdown);
  CHECK(md.find("| rank | configuration | parameters | perf_per_watt [inferences/J] |") != std::string::npos);
}

TEST_CASE("--where with units: the metric's own with an SI prefix, % of a ratio; others refused") {
  const std::vector<labelled_summary> e{entry("performance", 10.0, 0.010, 0.0), entry("powersave", 30.0, 0.050, 0.0),
                                        entry("schedutil", 20.0, 0.020, 0.3)};
  const constraint ms = parse_constraint("latency_p99_s < 30 ms");
  CHECK(ms.value == 30);
  CHECK(ms.unit == "ms");
  CHECK(ms.text == "latency_p99_s < 30 ms");
  const decision d = decide(e, parse_objective("perf_per_watt"), {ms});
  // 30 ms = 0.03 s: the same answer as the plain number.
  const decision plain = decide(e, parse_objective("perf_per_watt"), {parse_constraint("latency_p99_s < 0.03")});
  CHECK(d.ranking == plain.ranking);
  CHECK(d.where[0].value == ptsim_test::Approx(0.03).epsilon(1e-15));
  CHECK(decide(e, parse_objective("perf_per_watt"), {parse_constraint("latency_p99_s <= 20000 us")}).ranking ==
        std::vector<std::size_t>{2, 0});
  // A ratio in percent: throttled_fraction[big] is in "1".
  CHECK(decide(e, parse_objective("perf_per_watt"), {parse_constraint("throttled_fraction[big] < 10 %")}).ranking ==
        std::vector<std::size_t>{1, 0});
  const std::string wrong =
      error_of<std::invalid_argument>([&] { decide(e, parse_objective("perf_per_watt"), {parse_constraint("latency_p99_s < 30 mW")}); });
  CHECK(wrong.find("expected a number in latency_p99_s's units, s") != std::string::npos);
  CHECK(wrong.find("found 'mW'") != std::string::npos);
}

TEST_CASE("an unknown metric gets the nearest one the runs have") {
  const std::vector<labelled_summary> e{entry("performance", 10.0, 0.010, 0.0)};
  CHECK(error_of<std::invalid_argument>([&] { decide(e, parse_objective("max:perf_per_wat"), {}); })
            .find("did you mean 'perf_per_watt'?") != std::string::npos);
  CHECK(error_of<std::invalid_argument>([&] { decide(e, parse_objective("perf_per_watt"), {parse_constraint("latncy_p99_s < 1")}); })
            .find("no run has the metric 'latncy_p99_s'; did you mean 'latency_p99_s'?") != std::string::npos);
  CHECK(error_of<std::invalid_argument>([&] { decide(e, parse_objective("perf_per_watt"), {parse_constraint("throtled_fraction[big] < 1")}); })
            .find("did you mean 'throttled_fraction[big]'?") != std::string::npos);
  // A catalogue metric no run has a number for is said as such, not as a misspelling of itself.
  const std::string absent =
      error_of<std::invalid_argument>([&] { decide(e, parse_objective("perf_per_watt"), {parse_constraint("peak_power_cap_window_W < 1")}); });
  CHECK(absent.find("no run has a value of 'peak_power_cap_window_W'") != std::string::npos);
  CHECK(absent.find("did you mean") == std::string::npos);
}
