#pragma once
// The summary metrics, declared once: name, units, which way is better, what it means and
// how it is computed from the run's totals. The summary, the result file's attributes, the
// report's order, --best/--where, the sweep summary and (through the file's attributes) the
// Python side all read this table; adding a metric is adding an entry.
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "ptsim/postproc/result_file.hpp"

namespace ptsim::postproc {

/// What a run accumulates for its summary (plain numbers; the control loop fills them).
struct run_totals {
  double duration_s = 0;
  double energy_J = 0;
  double wall_energy_J = 0;  ///< at the wall, through the VR and PSU
  double peak_power_W = 0;
  double peak_temperature_K = 0;
  double throttled_s = 0;            ///< time with any domain below its request
  double throttled_thermal_s = 0;    ///< ... because of a thermal ceiling
  double throttled_power_s = 0;      ///< ... because of a power cap
  double power_cap_violation_s = 0;  ///< time the power averaged over the cap's window was above its limit
  std::vector<double> latencies_s;   ///< of every finished request
  std::size_t completed = 0;         ///< finished requests
  double work_done = 0;              ///< what throughput counts: tokens, or inferences of batched requests
  std::string throughput_units = "inferences/s";
};

enum class better { higher, lower };

/// "higher" or "lower": the value of the `better` attribute in result files.
std::string_view better_name(better b);

struct metric_def {
  std::string_view name;
  /// Fixed units, or "{throughput}" (the workload's throughput units, e.g. "tokens/s") or
  /// "{per_joule}" (the same per joule, e.g. "tokens/J").
  std::string_view units;
  better direction;
  std::string_view description;
  double (*compute)(const run_totals&);
};

/// Every summary metric, in the order reports show them.
const std::vector<metric_def>& summary_metrics();

/// A summary metric's entry; nullptr when not in the catalogue.
const metric_def* find_summary_metric(std::string_view name);

/// Which way is better for a column of the per-unit and per-domain tables (unit_summary,
/// domain_summary; busy_s derived); nullopt where neither is (idle_s, ops).
std::optional<better> column_direction(std::string_view column);

/// Which way is better for a summary metric or a per-unit/per-domain form of a column
/// ("throttled_fraction[big]" follows its base name); nullopt when not known.
std::optional<better> direction_of(std::string_view metric);

/// The order to show metrics in: the catalogue's as far as present, then others by name.
std::vector<std::string> order_metrics(const std::set<std::string>& names);

/// A metric's units for a run whose throughput is counted in `throughput_units`.
std::string units_for(const metric_def& m, const std::string& throughput_units);

/// Percentile with linear interpolation (numpy's default), q in [0, 100]; NaN when empty.
double percentile(std::vector<double> values, double q);

/// Every catalogue metric computed from the totals, with its units.
run_summary summarize(const run_totals& t);

}  // namespace ptsim::postproc
