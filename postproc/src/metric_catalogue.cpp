#include "ptsim/postproc/metric_catalogue.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "ptsim/units/quantities.hpp"

namespace ptsim::postproc {

namespace {

double per_second(double x, const run_totals& t) { return t.duration_s > 0 ? x / t.duration_s : 0; }
double avg_power(const run_totals& t) { return per_second(t.energy_J, t); }
double throughput(const run_totals& t) { return per_second(t.work_done, t); }

}  // namespace

std::string_view better_name(better b) { return b == better::higher ? "higher" : "lower"; }

// The contract's nine metrics first, in DESIGN.md's order; then the rest by name.
const std::vector<metric_def>& summary_metrics() {
  using b = better;
  static const std::vector<metric_def> table{
      {"energy_J", "J", b::lower, "energy of every component over the run",
       [](const run_totals& t) { return t.energy_J; }},
      {"avg_power_W", "W", b::lower, "energy_J over the run's duration", avg_power},
      {"peak_power_W", "W", b::lower, "highest platform power of a control period",
       [](const run_totals& t) { return t.peak_power_W; }},
      {"throughput", "{throughput}", b::higher, "work done (requests, inferences or tokens) per second",
       throughput},
      {"perf_per_watt", "{per_joule}", b::higher, "throughput per watt of average power",
       [](const run_totals& t) {
         const double p = avg_power(t);
         return p > 0 ? throughput(t) / p : 0;
       }},
      {"latency_p50_s", "s", b::lower, "median latency from arrival to finish of the finished requests",
       [](const run_totals& t) { return percentile(t.latencies_s, 50); }},
      {"latency_p99_s", "s", b::lower, "99th-percentile latency from arrival to finish of the finished requests",
       [](const run_totals& t) { return percentile(t.latencies_s, 99); }},
      {"peak_temperature_C", "degC", b::lower, "highest silicon temperature of a control period",
       [](const run_totals& t) { return t.peak_temperature_K - units::zero_celsius_in_kelvin; }},
      {"throttled_fraction", "1", b::lower, "share of the run with any domain below its governor's request",
       [](const run_totals& t) { return per_second(t.throttled_s, t); }},
      {"avg_wall_power_W", "W", b::lower, "wall_energy_J over the run's duration",
       [](const run_totals& t) { return per_second(t.wall_energy_J, t); }},
      {"completed", "1", b::higher, "requests finished within the run",
       [](const run_totals& t) { return static_cast<double>(t.completed); }},
      // 0 without a cap; above 0 when the cap could not be met (e.g. below the platform's floor).
      {"power_cap_violation_s", "s", b::lower,
       "time the power averaged over the cap's window was above the cap",
       [](const run_totals& t) { return t.power_cap_violation_s; }},
      {"throttled_fraction_power", "1", b::lower, "share of the run with a domain held down by a power cap",
       [](const run_totals& t) { return per_second(t.throttled_power_s, t); }},
      {"throttled_fraction_thermal", "1", b::lower,
       "share of the run with a domain held down by a thermal ceiling",
       [](const run_totals& t) { return per_second(t.throttled_thermal_s, t); }},
      {"wall_energy_J", "J", b::lower, "energy drawn at the wall, through the VR and PSU efficiencies",
       [](const run_totals& t) { return t.wall_energy_J; }},
  };
  return table;
}

const metric_def* find_summary_metric(std::string_view name) {
  for (const auto& m : summary_metrics())
    if (m.name == name) return &m;
  return nullptr;
}

std::vector<std::string> order_metrics(const std::set<std::string>& names) {
  std::vector<std::string> out;
  for (const auto& m : summary_metrics())
    if (names.count(std::string(m.name))) out.emplace_back(m.name);
  for (const auto& n : names)
    if (!find_summary_metric(n)) out.push_back(n);
  return out;
}

std::optional<better> column_direction(std::string_view column) {
  // Time a unit spent busy, stalled or bound, and what throttling cost: less is better.
  static constexpr std::string_view lower[] = {
      "busy_s",       "compute_bound_s",    "memory_bound_s",          "interconnect_bound_s",
      "dvfs_stall_s", "idle_exit_s",        "throttled_fraction",      "throttled_thermal_fraction",
      "throttled_power_fraction", "time_lost_thermal_s", "time_lost_power_s"};
  for (auto c : lower)
    if (c == column) return better::lower;
  return std::nullopt;
}

std::optional<better> direction_of(std::string_view metric) {
  if (const auto b = metric.find('['); b != std::string_view::npos) return column_direction(metric.substr(0, b));
  if (const metric_def* m = find_summary_metric(metric)) return m->direction;
  return std::nullopt;
}

std::string units_for(const metric_def& m, const std::string& throughput_units) {
  if (m.units == "{throughput}") return throughput_units;
  if (m.units != "{per_joule}") return std::string(m.units);
  // Work per second per watt is work per joule ("inferences/s" -> "inferences/J").
  const auto p = throughput_units.rfind("/s");
  if (p != std::string::npos && p + 2 == throughput_units.size()) return throughput_units.substr(0, p) + "/J";
  return throughput_units + "/W";
}

double percentile(std::vector<double> v, double q) {
  if (v.empty()) return std::numeric_limits<double>::quiet_NaN();
  std::sort(v.begin(), v.end());
  const double pos = q / 100.0 * static_cast<double>(v.size() - 1);
  const auto lo = static_cast<std::size_t>(std::floor(pos));
  const std::size_t hi = std::min(lo + 1, v.size() - 1);
  return v[lo] + (pos - static_cast<double>(lo)) * (v[hi] - v[lo]);
}

run_summary summarize(const run_totals& t) {
  run_summary s;
  s.throughput_units = t.throughput_units;
  for (const auto& m : summary_metrics())
    s.metrics[std::string(m.name)] = {m.compute(t), units_for(m, t.throughput_units)};
  return s;
}

}  // namespace ptsim::postproc
