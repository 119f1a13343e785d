#include "summary.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "ptsim/units/quantities.hpp"

namespace ptsim::cosim {

double percentile(std::vector<double> v, double q) {
  if (v.empty()) return std::numeric_limits<double>::quiet_NaN();
  std::sort(v.begin(), v.end());
  const double pos = q / 100.0 * static_cast<double>(v.size() - 1);
  const auto lo = static_cast<std::size_t>(std::floor(pos));
  const std::size_t hi = std::min(lo + 1, v.size() - 1);
  return v[lo] + (pos - static_cast<double>(lo)) * (v[hi] - v[lo]);
}

postproc::run_summary summarize(const run_totals& t) {
  postproc::run_summary s;
  const double avg_power = t.duration_s > 0 ? t.energy_J / t.duration_s : 0;
  const double throughput = t.duration_s > 0 ? static_cast<double>(t.completed) / t.duration_s : 0;
  // perf/W: throughput per watt, i.e. work per joule ("inferences/s" -> "inferences/J").
  std::string per_joule = t.throughput_units;
  if (auto p = per_joule.rfind("/s"); p != std::string::npos && p + 2 == per_joule.size())
    per_joule = per_joule.substr(0, p) + "/J";
  else
    per_joule += "/W";
  s.throughput_units = t.throughput_units;
  s.metrics["energy_J"] = {t.energy_J, "J"};
  s.metrics["avg_power_W"] = {avg_power, "W"};
  s.metrics["peak_power_W"] = {t.peak_power_W, "W"};
  s.metrics["wall_energy_J"] = {t.wall_energy_J, "J"};
  s.metrics["avg_wall_power_W"] = {t.duration_s > 0 ? t.wall_energy_J / t.duration_s : 0, "W"};
  s.metrics["throughput"] = {throughput, t.throughput_units};
  s.metrics["perf_per_watt"] = {avg_power > 0 ? throughput / avg_power : 0, per_joule};
  s.metrics["latency_p50_s"] = {percentile(t.latencies_s, 50), "s"};
  s.metrics["latency_p99_s"] = {percentile(t.latencies_s, 99), "s"};
  s.metrics["peak_temperature_C"] = {t.peak_temperature_K - units::zero_celsius_in_kelvin, "degC"};
  s.metrics["throttled_fraction"] = {t.duration_s > 0 ? t.throttled_s / t.duration_s : 0, "1"};
  s.metrics["throttled_fraction_thermal"] = {t.duration_s > 0 ? t.throttled_thermal_s / t.duration_s : 0, "1"};
  s.metrics["throttled_fraction_power"] = {t.duration_s > 0 ? t.throttled_power_s / t.duration_s : 0, "1"};
  // 0 without a cap; above 0 when the cap could not be met (e.g. below the platform's floor).
  s.metrics["power_cap_violation_s"] = {t.power_cap_violation_s, "s"};
  s.metrics["completed"] = {static_cast<double>(t.completed), "1"};
  return s;
}

}  // namespace ptsim::cosim
