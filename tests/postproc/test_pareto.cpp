// --pareto: energy against time per configuration, its optima and front, on hand-made entries
// whose front can be checked by eye.
#include <doctest/doctest.h>

#include "relative_approx.hpp"

#include <cmath>
#include <functional>
#include <stdexcept>

#include "ptsim/postproc/pareto.hpp"

#include "error_of.hpp"

using namespace ptsim::postproc;

using ptsim_test::error_of;

namespace {

// A configuration by its throughput (samples/s) and average power (W): time per sample is
// 1 / throughput, energy per sample power / throughput.
labelled_summary entry(const std::string& label, double tput, double watts) {
  labelled_summary e;
  e.label = label;
  e.summary.throughput_units = "samples/s";
  e.summary.metrics["throughput"] = {tput, ""};
  e.summary.metrics["avg_power_W"] = {watts, "W"};
  e.summary.metrics["energy_J"] = {watts * 10, "J"};
  e.summary.metrics["latency_p99_s"] = {1.0 / (tput + 1), "s"};
  e.params = {{"policy.limits.gpu0.power", label}};
  return e;
}

std::vector<labelled_summary> sweep() {
  return {entry("A", 100, 200),   // 10 ms, 2.0 J: fastest
          entry("C", 60, 120),    // 16.7 ms, 2.0 J: B is faster and cheaper
          entry("B", 80, 120),    // 12.5 ms, 1.5 J
          entry("D", 50, 70),     // 20 ms, 1.4 J: cheapest
          entry("E", 100, 250),   // 10 ms, 2.5 J: as fast as A, dearer
          entry("F", 0, 30)};     // no work done: no time or energy per sample
}


}  // namespace

TEST_CASE("the front, the optima and the derived per-work axes, by hand") {
  const auto es = sweep();
  const auto r = pareto(es, {});
  REQUIRE(r.points.size() == 5);
  CHECK(r.excluded == std::vector<std::size_t>{5});
  // By time, ties by energy: A (10 ms, 2.0), E (10 ms, 2.5), B, C, D.
  std::vector<std::string> order;
  for (const auto& p : r.points) order.push_back(es[p.entry].label);
  CHECK(order == std::vector<std::string>{"A", "E", "B", "C", "D"});
  std::vector<std::string> front;
  for (std::size_t p : r.front) front.push_back(es[r.points[p].entry].label);
  CHECK(front == std::vector<std::string>{"A", "B", "D"});
  CHECK(es[r.points[r.time_optimal].entry].label == "A");
  CHECK(es[r.points[r.energy_optimal].entry].label == "D");
  CHECK(r.points[r.energy_optimal].energy == ptsim_test::Approx(70.0 / 50));
  CHECK(r.points[r.energy_optimal].time == ptsim_test::Approx(1.0 / 50));
  CHECK(pareto_value(es[2], "time_per_work_s") == ptsim_test::Approx(0.0125));
  CHECK(pareto_value(es[2], "energy_per_work_J") == ptsim_test::Approx(1.5));
  CHECK(std::isnan(pareto_value(es[5], "energy_per_work_J")));
}

TEST_CASE("energy per work of some components: a GPU board as a GPU-only meter reads it") {
  auto b = entry("B", 80, 120);  // 1.5 J per sample in all, over a 10 s window (1200 J)
  b.summary.metrics["energy_J[gpu0]"] = {600, "J"};           // half of it
  b.summary.metrics["energy_group_J[memory]"] = {300, "J"};   // a quarter
  CHECK(pareto_value(b, "energy_per_work_J[gpu0]") == ptsim_test::Approx(0.75));
  CHECK(pareto_value(b, "energy_per_work_J[gpu0 + memory]") == ptsim_test::Approx(1.125));
  CHECK(std::isnan(pareto_value(b, "energy_per_work_J[gpu9]")));  // no such component or group
  CHECK(std::isnan(pareto_value(b, "energy_per_work_J[gpu0+]")));
  auto idle = b;
  idle.summary.metrics["throughput"] = {0, ""};
  CHECK(std::isnan(pareto_value(idle, "energy_per_work_J[gpu0]")));
  const std::vector<labelled_summary> es = {b};
  const auto r = pareto(es, parse_pareto_axes("time_per_work_s,energy_per_work_J[gpu0]"));
  CHECK(r.points[r.energy_optimal].energy == ptsim_test::Approx(0.75));
  CHECK(format_pareto(es, r, report_format::table).find("energy_per_work_J[gpu0] [J per sample]") != std::string::npos);
}

TEST_CASE("other axes: any report metric, both taken lower-is-better") {
  const auto es = sweep();
  const auto r = pareto(es, parse_pareto_axes(" latency_p99_s , energy_J "));
  CHECK(r.axes.time == "latency_p99_s");
  CHECK(r.axes.energy == "energy_J");
  REQUIRE(r.points.size() == 6);  // F has both
  // latency 1/(tput+1) falls with throughput; energy 10 x power: F (30 W) is cheapest, slowest.
  CHECK(es[r.points[r.time_optimal].entry].label == "A");
  CHECK(es[r.points[r.energy_optimal].entry].label == "F");
  std::vector<std::string> front;
  for (std::size_t p : r.front) front.push_back(es[r.points[p].entry].label);
  CHECK(front == std::vector<std::string>{"A", "B", "D", "F"});
}

TEST_CASE("the formats name the optima and the front") {
  const auto es = sweep();
  const auto r = pareto(es, {});
  const std::string t = format_pareto(es, r, report_format::table);
  CHECK(t.find("energy-optimal: D: energy_per_work_J = 1.4 J") != std::string::npos);
  CHECK(t.find("time-optimal: A: energy_per_work_J = 2 J, time_per_work_s = 0.01 s") != std::string::npos);
  CHECK(t.find("Pareto front (3 of 5, by time): A, B, D") != std::string::npos);
  CHECK(t.find("[J per sample]") != std::string::npos);
  CHECK(t.find("left out: F") != std::string::npos);
  const std::string j = format_pareto(es, r, report_format::json);
  CHECK(j.find("\"front\": [\"A\", \"B\", \"D\"]") != std::string::npos);
  CHECK(j.find("\"energy_optimal\": {\"label\": \"D\"") != std::string::npos);
  CHECK(j.find("\"excluded\": [\"F\"]") != std::string::npos);
  const std::string c = format_pareto(es, r, report_format::csv);
  CHECK(c.find("D,policy.limits.gpu0.power=D,0.02,1.4,1,yes,energy-optimal") != std::string::npos);
  CHECK(c.find("C,policy.limits.gpu0.power=C,") != std::string::npos);
}

TEST_CASE("bad axes and no values are refused with what was expected") {
  CHECK(error_of<std::invalid_argument>([] { parse_pareto_axes("energy_J"); }).find("expected TIME,ENERGY") != std::string::npos);
  CHECK(error_of<std::invalid_argument>([] { parse_pareto_axes("a,b,c"); }).find("expected TIME,ENERGY") != std::string::npos);
  CHECK(error_of<std::invalid_argument>([] { parse_pareto_axes(",energy_J"); }).find("empty name") != std::string::npos);
  const std::vector<labelled_summary> idle{entry("F", 0, 30)};
  CHECK(error_of<std::invalid_argument>([&] { pareto(idle, {}); }).find("no run has a value of time_per_work_s") != std::string::npos);
  CHECK(error_of<std::invalid_argument>([&] { pareto(sweep(), {"time_per_work_s", "nonsense_J"}); }).find("nonsense_J") != std::string::npos);
}
