// Reports: the formats carry the summary's numbers and units, json at full precision.
#include <doctest/doctest.h>

#include <clocale>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <sstream>
#include <stdexcept>

#include "ptsim/postproc/report.hpp"
#include "sample_result.hpp"

using namespace ptsim::postproc;

namespace {

// The number after "key": in a json text, read with strtod; nullopt-like NaN if "null".
// Enough for the flat objects format_report prints (its key order is checked separately).
double json_number_after(const std::string& json, const std::string& key, std::size_t from = 0) {
  const std::string needle = "\"" + key + "\": ";
  const std::size_t at = json.find(needle, from);
  REQUIRE_MESSAGE(at != std::string::npos, key);
  const char* p = json.c_str() + at + needle.size();
  if (std::string(p, 4) == "null") return std::numeric_limits<double>::quiet_NaN();
  char* end = nullptr;
  const double v = std::strtod(p, &end);
  REQUIRE(end != p);
  CHECK((*end == ',' || *end == '\n'));
  return v;
}

std::vector<std::string> lines_of(const std::string& s) {
  std::vector<std::string> out;
  std::istringstream in(s);
  for (std::string line; std::getline(in, line);) out.push_back(line);
  return out;
}

}  // namespace

TEST_CASE("parse_report_format") {
  CHECK(parse_report_format("table") == report_format::table);
  CHECK(parse_report_format("csv") == report_format::csv);
  CHECK(parse_report_format("json") == report_format::json);
  CHECK(parse_report_format("markdown") == report_format::markdown);
  CHECK_THROWS_AS(parse_report_format("xml"), std::invalid_argument);
  CHECK_THROWS_AS(parse_report_format("JSON"), std::invalid_argument);
}

TEST_CASE("json of one run: every metric at full precision, units apart") {
  const run_summary s = test::sample_summary();
  const std::string json = format_report({{"a", s}}, report_format::json);
  CHECK(json.front() == '{');
  CHECK(json.find("\"run\"") == std::string::npos);
  for (const auto& [metric_name, m] : s.metrics) {
    const std::string& name = metric_name;  // CAPTURE cannot capture a structured binding
    CAPTURE(name);
    CHECK(json_number_after(json, name) == m.value);  // bit for bit, including 1/3 and 1e-300
    const std::size_t units = json.find("\"units\": {");
    REQUIRE(units != std::string::npos);
    CHECK(json.find("\"" + name + "\": \"" + m.units + "\"", units) != std::string::npos);
  }
  // Stable order: the contract's metrics as DESIGN.md lists them, "units" last.
  CHECK(json.find("\"energy_J\"") < json.find("\"avg_power_W\""));
  CHECK(json.find("\"latency_p99_s\"") < json.find("\"throttled_fraction\""));
  CHECK(json.find("\"throttled_fraction\"") < json.find("\"units\""));
  CHECK(format_report({{"a", s}}, report_format::json) == json);
}

TEST_CASE("json: non-finite numbers are null, and the locale does not leak in") {
  run_summary s;
  s.metrics["energy_J"] = {std::numeric_limits<double>::quiet_NaN(), "J"};
  s.metrics["avg_power_W"] = {std::numeric_limits<double>::infinity(), "W"};
  s.metrics["peak_power_W"] = {1234.5, "W"};
  // A decimal-comma locale, where one is installed, must not change the output.
  const char* old = std::setlocale(LC_ALL, nullptr);
  const std::string saved = old ? old : "C";
  std::setlocale(LC_ALL, "de_DE.UTF-8");
  const std::string json = format_report({{"a", s}}, report_format::json);
  std::setlocale(LC_ALL, saved.c_str());
  CHECK(json.find("\"energy_J\": null") != std::string::npos);
  CHECK(json.find("\"avg_power_W\": null") != std::string::npos);
  CHECK(json.find("\"peak_power_W\": 1234.5") != std::string::npos);
}

TEST_CASE("json of several runs: an array of objects with a run key") {
  run_summary a = test::sample_summary(), b = test::sample_summary();
  b.metrics["energy_J"].value = 2.0 / 3.0;
  const std::string json = format_report({{"run-a", a}, {"run \"b\"", b}}, report_format::json);
  CHECK(json.front() == '[');
  const std::size_t second = json.find("\"run\": \"run \\\"b\\\"\"");
  REQUIRE(second != std::string::npos);
  CHECK(json.find("\"run\": \"run-a\"") < second);
  CHECK(json_number_after(json, "energy_J") == 123.456);
  CHECK(json_number_after(json, "energy_J", second) == 2.0 / 3.0);
}

TEST_CASE("csv: header metric,units,<runs>, one row per metric, numbers that read back") {
  run_summary a = test::sample_summary(), b;
  b.metrics["energy_J"] = {7.0, "J"};
  const std::vector<std::string> lines =
      lines_of(format_report({{"a", a}, {"b,2", b}}, report_format::csv));
  REQUIRE(lines.size() == 1 + a.metrics.size());
  CHECK(lines[0] == "metric,units,a,\"b,2\"");
  CHECK(lines[1] == "energy_J,J,123.456,7");
  bool found = false;
  for (const auto& l : lines)
    if (l.rfind("perf_per_watt,", 0) == 0) {
      found = true;
      const std::string value = l.substr(l.find(',', l.find(',') + 1) + 1);
      CHECK(std::strtod(value.c_str(), nullptr) == 1.0 / 3.0);
      CHECK(l.back() == ',');  // run b has no such metric: empty cell
    }
  CHECK(found);
  // throughput's units come from the metric (or from throughput_units if it has none).
  CHECK(lines[4].rfind("throughput,inferences/s,0.1,", 0) == 0);
}

TEST_CASE("table and markdown: one row per metric with units, aligned columns") {
  const run_summary s = test::sample_summary();
  const std::vector<std::string> table =
      lines_of(format_report({{"baseline", s}, {"hot", s}}, report_format::table));
  REQUIRE(table.size() == 2 + s.metrics.size());
  CHECK(table[0].rfind("metric", 0) == 0);
  CHECK(table[2].rfind("energy_J", 0) == 0);
  CHECK(table[2].find(" J ") != std::string::npos);
  CHECK(table[2].find("123.456") != std::string::npos);
  // Right-aligned numbers: every row ends at the same column.
  for (std::size_t i = 1; i < table.size(); ++i) CHECK(table[i].size() == table[0].size());

  const std::vector<std::string> md =
      lines_of(format_report({{"baseline", s}}, report_format::markdown));
  REQUIRE(md.size() == 2 + s.metrics.size());
  CHECK(md[0] == "| metric | units | baseline |");
  CHECK(md[1] == "|---|---|---:|");
  CHECK(md[2] == "| energy_J | J | 123.456 |");
}

namespace {

labelled_summary group_entry() {
  labelled_summary g;
  g.label = "governor=performance";
  g.summary = test::sample_summary();
  g.params = {{"policy.governor", "performance"}};
  g.runs = {"p-1", "p-2", "p-3"};
  g.ci95["energy_J"] = 0.5;
  g.ci95["avg_power_W"] = std::numeric_limits<double>::quiet_NaN();
  g.units = test::sample_unit_summary();
  g.domains = test::sample_domain_summary();
  return g;
}

}  // namespace

TEST_CASE("report_value: summary metrics and per-domain / per-unit values by name") {
  const labelled_summary g = group_entry();
  CHECK(report_value(g, "energy_J") == 123.456);
  CHECK(report_value(g, "throttled_fraction[big]") == 0.375);
  CHECK(report_value(g, "throttled_thermal_fraction[big]") == 0.25);
  CHECK(report_value(g, "throttled_power_fraction[big]") == 0.125);
  CHECK(report_value(g, "compute_bound_s[npu]") == 1.25);
  CHECK(report_value(g, "dvfs_stall_s[npu]") == 0.03125);
  CHECK(report_value(g, "busy_s[npu]") == 1.875);
  CHECK(report_value(g, "idle_s[big.cpu0]") == 0.25);
  CHECK(report_value(g, "ops[npu]") == 4000);
  CHECK(std::isnan(report_value(g, "throttled_fraction[little]")));
  CHECK(std::isnan(report_value(g, "no_such_metric")));
  CHECK(std::isnan(report_value(g, "nonsense[npu]")));
}

TEST_CASE("a replicate group: mean ± CI in tables, ci95 columns in csv, runs and ci95 in json") {
  labelled_summary single;
  single.label = "s25";
  single.summary = test::sample_summary();
  single.params = {{"policy.governor", "powersave"}};
  const std::vector<labelled_summary> both{group_entry(), single};

  const std::string table = format_report(both, report_format::table);
  CHECK(table.find("policy.governor") != std::string::npos);
  CHECK(table.find("performance") != std::string::npos);
  CHECK(table.find("123.456 ± 0.5") != std::string::npos);
  CHECK(table.find("throttled_fraction[big]") != std::string::npos);
  CHECK(table.find("throttled_power_fraction[big]") != std::string::npos);  // some entry has it
  CHECK(table.find("where the time went") != std::string::npos);

  const std::vector<std::string> csv = lines_of(format_report(both, report_format::csv));
  CHECK(csv[0] == "metric,units,governor=performance,governor=performance ci95,s25,s25 ci95");
  CHECK(csv[1] == "policy.governor,param,performance,,powersave,");
  CHECK(csv[2] == "energy_J,J,123.456,0.5,123.456,");
  bool npu_compute = false;
  for (const auto& l : csv) npu_compute |= l == "compute_bound_s[npu],s,1.25,,,";
  CHECK(npu_compute);

  const std::string json = format_report({group_entry()}, report_format::json);
  CHECK(json.find("\"runs\": [\"p-1\", \"p-2\", \"p-3\"]") != std::string::npos);
  CHECK(json.find("\"params\": {\"policy.governor\": \"performance\"}") != std::string::npos);
  CHECK(json.find("\"ci95\": {") != std::string::npos);
  CHECK(json.find("\"energy_J\": 0.5") != std::string::npos);
  CHECK(json.find("\"avg_power_W\": null") != std::string::npos);
  CHECK(json.find("\"domains\": {") != std::string::npos);
  CHECK(json.find("\"big\": {\"throttled_fraction\": 0.375, \"throttled_thermal_fraction\": 0.25, "
                  "\"throttled_power_fraction\": 0.125, \"time_lost_thermal_s\": 0, \"time_lost_power_s\": 0, "
                  "\"busy_s\": 0}") != std::string::npos);
  CHECK(json.find("\"npu\": {\"busy_s\": 1.875, \"compute_bound_s\": 1.25, \"memory_bound_s\": 0.5, "
                  "\"interconnect_bound_s\": 0.0625, \"dvfs_stall_s\": 0.03125, \"idle_exit_s\": 0.03125, "
                  "\"idle_s\": 1.125, \"ops\": 4000}") != std::string::npos);
  // The summary metrics stay plain top-level numbers, before the nested objects; units last.
  CHECK(json_number_after(json, "energy_J") == 123.456);
  CHECK(json.find("\"energy_J\": 123.456") < json.find("\"ci95\""));
  CHECK(json.rfind("\"units\": {") > json.find("\"time_breakdown\""));
}

TEST_CASE("where the time went, one run: units as rows, shares of the run in percent") {
  labelled_summary r;
  r.label = "run";
  r.summary = test::sample_summary();
  r.units = test::sample_unit_summary();
  const std::string table = format_report({r}, report_format::table);
  const std::size_t at = table.find("where the time went");
  REQUIRE(at != std::string::npos);
  const std::vector<std::string> lines = lines_of(table.substr(at));
  REQUIRE(lines.size() == 5);
  CHECK(lines[1].find("unit") == 0);
  CHECK(lines[1].find("compute-bound") != std::string::npos);
  // npu: run 3 s = busy 1.875 + idle 1.125; compute 1.25 s = 41.7%, memory 0.5 s = 16.7%,
  // interconnect 0.0625 s = 2.08%, DVFS and idle exit 0.03125 s = 1.04% each.
  CHECK(lines[3].find("npu") == 0);
  for (const char* share : {"62.5%", "41.7%", "16.7%", "2.08%", "1.04%", "37.5%", "4000"})
    CHECK_MESSAGE(lines[3].find(share) != std::string::npos, share);
  const std::string md = format_report({r}, report_format::markdown);
  CHECK(md.find("| npu | 62.5% | 41.7% | 16.7% | 2.08% | 1.04% | 1.04% | 37.5% | 4000 |") != std::string::npos);
}
