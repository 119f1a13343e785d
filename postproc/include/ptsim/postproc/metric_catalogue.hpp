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

/// One request stream's share of the run (within the measurement window, as run_totals).
struct stream_totals {
  std::string name;
  bool llm = false;                 ///< an LLM serving stream (TTFT, TPOT, tokens)
  std::string throughput_units;     ///< "tokens/s" for an LLM stream, else the run's units
  double work_done = 0;             ///< what its throughput counts
  std::vector<double> latencies_s;  ///< of its finished requests
  std::vector<double> ttft_s;       ///< LLM: time to first token of its finished requests
  std::vector<double> tpot_s;       ///< LLM: time per output token after the first (requests of 2+ tokens)
  std::size_t completed = 0, unfinished = 0, dropped = 0;
  double energy_J = 0;              ///< energy attributed to its finished requests (jobs' energy_J)
  double tokens_out = 0;            ///< output tokens of its finished requests
  /// LLM: sums over the control periods of the window (divided by `periods` for means) of the
  /// sequences running per instance (the achieved batch), the sequences waiting to be
  /// admitted, and the share of KV cache reserved.
  double batch_sum = 0, queue_sum = 0, kv_share_sum = 0;
  double periods = 0;
};

/// What a run accumulates for its summary (plain numbers; the control loop fills them).
/// With a measurement window (scenario `measure.from`) every figure covers the window only.
struct run_totals {
  double duration_s = 0;   ///< of the measurement window (the run's, without one)
  double energy_J = 0;
  double wall_energy_J = 0;  ///< at the wall, through the VR and PSU
  double peak_power_W = 0;   ///< highest platform power averaged over a record period
  double peak_window_s = 0;  ///< that period: the window peak_power_W is over
  double peak_temperature_K = 0;  ///< highest block temperature of the recorded samples
  /// Highest platform power averaged over the power cap's own window; cap_window_s 0: no cap.
  double peak_power_cap_window_W = 0;
  double cap_window_s = 0;
  double throttled_s = 0;            ///< time with any domain below its request
  double throttled_thermal_s = 0;    ///< ... because of a thermal ceiling
  double throttled_power_s = 0;      ///< ... because of a power cap
  double power_cap_violation_s = 0;  ///< time the power averaged over the cap's window was above its limit
  std::vector<double> latencies_s;   ///< of every finished request
  std::size_t completed = 0;         ///< finished requests
  std::size_t unfinished = 0;        ///< accepted and still queued or running at the end
  std::size_t dropped = 0;           ///< refused on arrival (queue full)
  double work_done = 0;              ///< what throughput counts: tokens, or inferences of batched requests
  std::string throughput_units = "inferences/s";
  std::vector<stream_totals> streams;
  /// Energy of each entry of the timeseries' `component` coordinate, in its order (J).
  std::vector<std::pair<std::string, double>> component_energy_J;
  /// The same summed by group (cpu, gpu, npu, memory, links, fans, ..., supply_losses).
  std::vector<std::pair<std::string, double>> group_energy_J;
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
  /// Whether the run has the metric (nullptr: every run has it).
  bool (*present)(const run_totals&) = nullptr;
  /// The window a peak is over (s), written as the metric's `window_s` attribute (nullptr: none).
  double (*window_s)(const run_totals&) = nullptr;
};

/// Every summary metric, in the order reports show them.
const std::vector<metric_def>& summary_metrics();

/// A summary metric's entry; nullptr when not in the catalogue.
const metric_def* find_summary_metric(std::string_view name);

/// What a labelled metric's labels are: request streams (all, or the LLM ones), the
/// timeseries' components, or component groups.
enum class label_kind { stream, llm_stream, component, group };

/// A family of metrics, one per label: "ttft_p99_s[chat]", "energy_J[gpu0]". Per-stream
/// families are also given without the suffix when the run has one stream (unless the
/// catalogue has that name already, as for throughput: the same number then).
struct labelled_metric_def {
  std::string_view name;
  label_kind over;
  /// Fixed units, or "{throughput}": the stream's own throughput units.
  std::string_view units;
  better direction;
  std::string_view description;
  double (*compute)(const run_totals&, std::size_t label);
};

/// Every labelled family, in the order reports show them.
const std::vector<labelled_metric_def>& labelled_metrics();

/// Which way is better and what it means, for a summary metric or a labelled one
/// ("ttft_p99_s[chat]", or its unsuffixed form); nullopt when not known.
struct metric_meaning {
  better direction;
  std::string_view description;
};
std::optional<metric_meaning> meaning_of(std::string_view name);

/// Which way is better for a column of the per-unit and per-domain tables (unit_summary,
/// domain_summary; busy_s derived); nullopt where neither is (idle_s, ops).
std::optional<better> column_direction(std::string_view column);

/// Which way is better for a summary metric, a labelled metric, or a per-unit/per-domain
/// form of a column ("throttled_fraction[big]" follows its base name); nullopt when not known.
std::optional<better> direction_of(std::string_view metric);

/// Names of every metric a report may rank by: the catalogue's and the labelled families'
/// base names (for "did you mean").
std::vector<std::string> known_metric_names();

/// The order to show metrics in: the catalogue's as far as present, then others by name.
std::vector<std::string> order_metrics(const std::set<std::string>& names);

/// A metric's units for a run whose throughput is counted in `throughput_units`.
std::string units_for(const metric_def& m, const std::string& throughput_units);

/// Percentile with linear interpolation (numpy's default), q in [0, 100]; NaN when empty.
double percentile(std::vector<double> values, double q);

/// Every catalogue metric computed from the totals, with its units.
run_summary summarize(const run_totals& t);

}  // namespace ptsim::postproc
