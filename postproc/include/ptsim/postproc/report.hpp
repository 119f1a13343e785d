#pragma once
// `ptsim report`: the summary of one run, or runs side by side, in several formats.
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "ptsim/postproc/op_breakdown.hpp"
#include "ptsim/postproc/result_file.hpp"

namespace ptsim::postproc {

enum class report_format { table, csv, json, markdown, html };

/// Parses "table", "csv", "json", "markdown" or "html"; throws std::invalid_argument otherwise.
report_format parse_report_format(const std::string& s);

/// One column of a report: a run, or a configuration run with several seeds.
struct labelled_summary {
  std::string label;  ///< run id (file stem), or the configuration's parameters
  run_summary summary;  ///< for a group of replicates: the mean of each metric
  /// Swept parameters (dotted scenario path, value) that tell this entry apart.
  std::vector<std::pair<std::string, std::string>> params = {};
  std::vector<unit_time_row> units = {};        ///< where the time went
  std::vector<domain_summary_row> domains = {};
  std::vector<std::string> runs = {};           ///< run ids of a replicate group
  std::map<std::string, double> ci95 = {};      ///< metric -> 95% CI half-width of the mean
  /// Mean power of each component over the run (W), from the timeseries `power`, in its
  /// `component` order; empty when not read.
  std::vector<std::pair<std::string, double>> component_power_W = {};
  /// Time per unit and operator (ops table), heaviest first; shown for a single entry.
  std::vector<op_time_row> op_times = {};
  std::uint64_t ops_dropped = 0;  ///< executions the ops table did not keep
  /// Platform power (W) and hottest block (degC) at each sample time (s), from the
  /// timeseries; empty when not read. For the html report's timeline.
  std::vector<double> time_s = {}, platform_power_W = {}, max_temperature_C = {};
};

/// json: for one entry, one object {metric: number, ..., "units": {metric: unit}}, numbers
/// at full precision (17 significant digits), with "params", "domains" and "time_breakdown"
/// objects where known and, for a replicate group, "runs" and "ci95"; for several entries an
/// array of such objects with a "run" key. table/markdown: one row per metric, one column
/// per entry ("mean ± ci" for groups), then where each unit's time went in percent of the
/// run, then each component's mean power (from the timeseries) where read. csv: one table, header metric,units,<entries> (plus "<entry> ci95" columns when
/// there are groups): parameters, metrics, per-domain and per-unit rows ("name[label]").
std::string format_report(const std::vector<labelled_summary>& runs, report_format fmt);

/// html: one self-contained page (no script, no network; charts as inline SVG): the summary
/// table (units everywhere), a table per request stream, energy by component (a stacked bar
/// per entry, one colour per component throughout), the platform power and hottest block
/// over time, where the time went, and `decision` (a --best answer as text) when not empty.
std::string format_html(const std::vector<labelled_summary>& runs, const std::string& decision = "");

/// Value of a report metric for an entry: a summary metric by name, or a per-domain or
/// per-unit value as "throttled_fraction[big]" (also throttled_thermal_fraction,
/// throttled_power_fraction), "compute_bound_s[npu]" (memory_bound_s, interconnect_bound_s,
/// dvfs_stall_s, idle_exit_s, idle_s, busy_s, ops). NaN when the entry does not have it.
/// The names --best and --where use.
double report_value(const labelled_summary& e, const std::string& name);

}  // namespace ptsim::postproc
