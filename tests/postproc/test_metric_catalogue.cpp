// The metric catalogue: summary values computed by hand from known totals, units and
// directions as the contract says, and the catalogue's own consistency.
#include <doctest/doctest.h>

#include <cmath>
#include <set>

#include "ptsim/postproc/metric_catalogue.hpp"

namespace pp = ptsim::postproc;

namespace {

pp::run_totals known_totals() {
  pp::run_totals t;
  t.duration_s = 10;
  t.energy_J = 100;  // 10 W on average
  t.wall_energy_J = 125;
  t.peak_power_W = 17;
  t.peak_temperature_K = 300;
  t.throttled_s = 2.5;
  t.throttled_thermal_s = 1.5;
  t.throttled_power_s = 1;
  t.power_cap_violation_s = 0.25;
  t.latencies_s = {4, 1, 3, 2};
  t.completed = 4;
  t.work_done = 50;  // e.g. output tokens
  t.throughput_units = "tokens/s";
  return t;
}

}  // namespace

TEST_CASE("summarize computes every metric from the totals, as worked by hand") {
  const pp::run_summary s = pp::summarize(known_totals());
  auto v = [&](const char* n) { return s.metrics.at(n).value; };
  auto u = [&](const char* n) { return s.metrics.at(n).units; };
  CHECK(v("energy_J") == 100);
  CHECK(v("avg_power_W") == 10);
  CHECK(v("peak_power_W") == 17);
  CHECK(v("wall_energy_J") == 125);
  CHECK(v("avg_wall_power_W") == 12.5);
  CHECK(v("throughput") == 5);  // 50 tokens over 10 s
  CHECK(u("throughput") == "tokens/s");
  CHECK(v("perf_per_watt") == 0.5);  // 5 tokens/s at 10 W
  CHECK(u("perf_per_watt") == "tokens/J");
  // Latencies 1, 2, 3, 4: the median between 2 and 3; p99 at rank 0.99 x 3 = 2.97.
  CHECK(v("latency_p50_s") == 2.5);
  CHECK(v("latency_p99_s") == doctest::Approx(3.97).epsilon(1e-12));
  CHECK(v("peak_temperature_C") == doctest::Approx(26.85).epsilon(1e-12));
  CHECK(u("peak_temperature_C") == "degC");
  CHECK(v("throttled_fraction") == 0.25);
  CHECK(v("throttled_fraction_thermal") == 0.15);
  CHECK(v("throttled_fraction_power") == 0.1);
  CHECK(v("power_cap_violation_s") == 0.25);
  CHECK(v("completed") == 4);
  CHECK(s.throughput_units == "tokens/s");
}

TEST_CASE("a run of no duration gives zero rates, not infinities; no latency gives NaN") {
  pp::run_totals t;
  t.energy_J = 5;
  const pp::run_summary s = pp::summarize(t);
  CHECK(s.metrics.at("avg_power_W").value == 0);
  CHECK(s.metrics.at("throughput").value == 0);
  CHECK(s.metrics.at("perf_per_watt").value == 0);
  CHECK(std::isnan(s.metrics.at("latency_p50_s").value));
}

TEST_CASE("summarize gives exactly the catalogue's metrics") {
  const pp::run_summary s = pp::summarize(known_totals());
  std::set<std::string> names;
  for (const auto& m : pp::summary_metrics()) {
    INFO(std::string(m.name));
    CHECK(names.insert(std::string(m.name)).second);  // no name twice
    CHECK(!m.description.empty());
    CHECK(std::string(m.name).find_first_of("/[] ") == std::string::npos);  // HDF5 names, --best forms
    CHECK(s.metrics.count(std::string(m.name)) == 1);
  }
  CHECK(s.metrics.size() == names.size());
}

TEST_CASE("work per second per watt is work per joule; other units per watt") {
  const pp::metric_def* ppw = pp::find_summary_metric("perf_per_watt");
  REQUIRE(ppw);
  CHECK(pp::units_for(*ppw, "inferences/s") == "inferences/J");
  CHECK(pp::units_for(*ppw, "frames") == "frames/W");
  CHECK(pp::units_for(*pp::find_summary_metric("throughput"), "tokens/s") == "tokens/s");
  CHECK(pp::units_for(*pp::find_summary_metric("energy_J"), "tokens/s") == "J");
}

TEST_CASE("directions: the catalogue's, per-unit forms follow their column, others unknown") {
  using b = pp::better;
  CHECK(pp::direction_of("throughput") == b::higher);
  CHECK(pp::direction_of("perf_per_watt") == b::higher);
  CHECK(pp::direction_of("completed") == b::higher);
  CHECK(pp::direction_of("energy_J") == b::lower);
  CHECK(pp::direction_of("latency_p99_s") == b::lower);
  CHECK(pp::direction_of("throttled_fraction[big]") == b::lower);
  CHECK(pp::direction_of("busy_s[npu]") == b::lower);
  CHECK(pp::direction_of("memory_bound_s[gpu0]") == b::lower);
  CHECK_FALSE(pp::direction_of("idle_s[npu]").has_value());  // idle time is neither
  CHECK_FALSE(pp::direction_of("ops[npu]").has_value());
  CHECK_FALSE(pp::direction_of("no_such_metric").has_value());
  CHECK_FALSE(pp::direction_of("energy_J[npu]").has_value());  // not a per-unit column
  CHECK(pp::better_name(b::higher) == "higher");
  CHECK(pp::better_name(b::lower) == "lower");
}

TEST_CASE("order_metrics: the catalogue's order first, then unknown names sorted") {
  CHECK(pp::order_metrics({"zz", "wall_energy_J", "throughput", "energy_J", "aa"}) ==
        std::vector<std::string>{"energy_J", "throughput", "wall_energy_J", "aa", "zz"});
}
