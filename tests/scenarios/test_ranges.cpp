// Accepted and plausible ranges (issue 13): values that used to validate and then fail at
// run time (or run absurdly) are errors at their position; unusual ones are warnings.
#include <doctest/doctest.h>

#include "relative_approx.hpp"

#include <string>

#include "helpers.hpp"
#include "ptsim/scenarios/schema.hpp"

namespace ps = ptsim::scenarios;
using namespace scen_test;

namespace {
std::vector<ps::diagnostic> errors_with(std::initializer_list<const char*> sets) {
  return load_errors(default_text(), with_sets(sets));
}
ps::scenario load_with(std::initializer_list<const char*> sets, const std::string& text = default_text()) {
  return ps::load_scenario_text(text, "test.yaml", with_sets(sets));
}
}  // namespace

TEST_CASE("a share of peak of 0 (or below) is an error: the work would never end") {
  for (const char* set : {"platform.components.lpddr.efficiency=0", "platform.components.npu.efficiency=0",
                          "platform.components.npu.vector_efficiency=-1", "platform.components.cpu_big.efficiency=0",
                          "platform.components.npu.op_efficiency.gemm=0"}) {
    const auto ds = errors_with({set});
    const std::string path = std::string(set).substr(0, std::string(set).find('='));
    const auto d = only_at(ds, path);
    CHECK_MESSAGE(contains(d.message, "expected a value > 0"), d.to_string());
    CHECK(d.file == "--set " + path);
  }
  // Tiny but positive: accepted, with a warning.
  const auto sc = load_with({"platform.components.npu.efficiency=1e-9"});
  REQUIRE(sc.warnings.size() == 1);
  CHECK(sc.warnings[0].warning);
  CHECK(contains(sc.warnings[0].to_string(), "warning: platform.components.npu.efficiency: unusual value '1e-9'"));
}

TEST_CASE("physically absurd values are errors at their line and column, with the accepted range") {
  const std::string text = replace_once(default_text(), "{ freq: \"300 MHz\",  volt: \"537.5 mV\" }",
                                        "{ freq: \"2803 GHz\",  volt: \"98 V\" }");
  const auto ds = load_errors(text);
  const auto f = only_at(ds, "platform.domains.little.opps[0].freq");
  CHECK(f.line == position_of(text, "\"2803 GHz\"").line);
  CHECK(f.column == position_of(text, "\"2803 GHz\"").column);
  CHECK(contains(f.message, "expected a value <= 1e+11 Hz, found '2803 GHz' (no clock of a CPU"));
  const auto v = only_at(ds, "platform.domains.little.opps[0].volt");
  CHECK(v.column == position_of(text, "\"98 V\"").column);
  CHECK(contains(v.message, "expected a value <= 5 V, found '98 V'"));

  const auto hot = only_at(errors_with({"thermal.ambient=1e6 degC"}), "thermal.ambient");
  CHECK(contains(hot.message, "expected a value <= 200 degC"));
  const auto cold = only_at(errors_with({"thermal.ambient=-150 degC"}), "thermal.ambient");
  CHECK(contains(cold.message, "expected a value >= -100 degC"));
  const auto zero = only_at(errors_with({"thermal.ambient=0 K"}), "thermal.ambient");
  CHECK(contains(zero.message, "above absolute zero"));
  const auto trip = only_at(errors_with({"policy.thermal.control_temp=5000 degC"}), "policy.thermal.control_temp");
  CHECK(contains(trip.message, "<= 500 degC"));
}

TEST_CASE("merely unusual values are accepted with a warning that gives the plausible range") {
  const auto sc = load_with({"thermal.ambient=80 degC", "platform.components.lpddr.bandwidth=1 kB/s"});
  REQUIRE(sc.warnings.size() == 2);
  std::string all;
  for (const auto& w : sc.warnings) all += w.to_string() + "\n";
  CHECK(contains(all, "thermal.ambient: unusual value '80 degC' (plausible: -40 degC .. 70 degC)"));
  CHECK(contains(all, "platform.components.lpddr.bandwidth: unusual value '1 kB/s' (plausible: >= 1000000 B/s)"));
  // The default scenario itself is plausible throughout.
  CHECK(load_with({}).warnings.empty());
}

TEST_CASE("the ranges are part of the schema's documentation and JSON schema") {
  const auto root = ps::scenario_schema();
  const auto* thermal = root->find("thermal");
  REQUIRE(thermal);
  const auto* amb = thermal->schema->find("ambient");
  REQUIRE(amb);
  CHECK(contains(amb->schema->doc, "accepted: >= -100 degC and <= 200 degC; a warning outside -40 degC .. 70 degC"));
  const auto* dur = root->find("duration");
  REQUIRE(dur);
  CHECK(contains(dur->schema->doc, "<= 9200000 s"));
  const std::string json = ps::to_json_schema(root);
  CHECK(contains(json, "\"maximum\": 2147483647"));
}

TEST_CASE("durations and periods that cannot be simulated or recorded whole are errors") {
  const auto huge = only_at(errors_with({"duration=1e12 s"}), "duration");
  CHECK(contains(huge.message, "expected a value <= 9200000 s, found '1e12 s'"));
  CHECK(contains(huge.message, "2^63 ps = 9.22e6 s"));
  const auto rec = only_at(errors_with({"duration=5 ms"}), "record_period");
  CHECK(contains(rec.message, "longer than the duration"));
  const auto tail = only_at(errors_with({"duration=20.005 s"}), "duration");
  CHECK(contains(tail.message, "whole multiple of record_period (0.01 s)"));
  CHECK(contains(tail.message, "e.g. 20 s or 20.01 s"));
  const auto tick = only_at(errors_with({"control_period=100 ns"}), "control_period");
  CHECK(contains(tick.message, ">= 1e-06 s"));
  // A whole multiple is fine, however it is written.
  CHECK(load_with({"duration=0.3 s"}).duration.value() == ptsim_test::Approx(0.3));
}

TEST_CASE("integers: counts that would wrap a 32-bit int, and list indices past any integer") {
  const auto q = only_at(errors_with({"workload.streams.camera.queue_limit=3000000000"}),
                         "workload.streams.camera.queue_limit");
  CHECK(contains(q.message, "expected a value <= 2147483647"));
  const auto idx = errors_with({"workload.streams.camera.stages.18446744073709551616.unit=npu"});
  REQUIRE(idx.size() == 1);
  CHECK(contains(idx[0].message, "index 18446744073709551616 is out of range for 'workload.streams.camera.stages' (0 to 2)"));
  const auto idx2 = errors_with({"workload.streams.camera.stages.3.unit=npu"});
  REQUIRE(idx2.size() == 1);
  CHECK(contains(idx2[0].message, "index 3 is out of range"));
}

TEST_CASE("a power cap below the platform's floor is a warning at load") {
  const auto sc = load_with({"policy.power_cap.limit=1 mW"});
  REQUIRE(sc.warnings.size() == 1);
  CHECK(contains(sc.warnings[0].to_string(),
                 "--set policy.power_cap.limit: warning: policy.power_cap.limit: limit 0.001 W cannot be met: the "
                 "platform draws at least "));
  CHECK(load_with({"policy.power_cap.limit=50 W"}).warnings.empty());
}

TEST_CASE("a power cap window of more than 1e6 control periods is an error (its samples are kept)") {
  const auto d = only_at(errors_with({"policy.power_cap.limit=5 W", "policy.power_cap.window=1e5 s"}),
                         "policy.power_cap.window");
  CHECK(contains(d.message, "spans more than 1e6 control periods (0.001 s each): at most 1000 s"));
  CHECK(load_with({"policy.power_cap.limit=5 W", "policy.power_cap.window=1000 s"}).policy.power_cap.has_value());
}

TEST_CASE("periods honoured in whole control ticks: a warning says what takes effect") {
  const auto sc = load_with({"policy.thermal.polling_period=2.5 ms", "policy.power_cap.limit=50 W",
                             "policy.power_cap.window=10.4 ms"});
  REQUIRE(sc.warnings.size() == 2);
  std::string all;
  for (const auto& w : sc.warnings) all += w.to_string() + "\n";
  CHECK(contains(all, "policy.thermal.polling_period: polling_period (0.0025 s) is not a whole multiple of "
                      "control_period (0.001 s): it takes effect as 0.003 s"));
  CHECK(contains(all, "policy.power_cap.window: window (0.0104 s) is not a whole multiple of control_period (0.001 "
                      "s): it takes effect as 0.01 s"));
  CHECK(load_with({"policy.thermal.polling_period=20 ms"}).warnings.empty());
}
