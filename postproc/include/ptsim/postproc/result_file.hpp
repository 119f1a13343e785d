#pragma once
// The HDF5 result file: its layout lives here and nowhere else (writer and reader).
// Contract: ../shared/DESIGN.md "HDF5 result file".
#include <cstdint>
#include <filesystem>
#include <limits>

#include "ptsim/postproc/output_file.hpp"
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace ptsim::postproc {

inline constexpr int schema_version_major = 1;
/// 1.1: ops, unit_summary, domain_summary; 1.2: domain_summary's busy_s and time_lost_*_s;
/// 1.3: checksummed (HDF5 1.10 format, Fletcher-32 on every chunked dataset, compact
/// summary scalars) and fixed-length UTF-8 strings everywhere (attributes included);
/// 1.4: the metric catalogue in the file: `better` ("higher"/"lower") and `long_name` on
/// every summary metric, `better` on the per-unit and per-domain columns that have one;
/// 1.5: every request in `jobs` (a `state` column: finished, unfinished, dropped; NaN times
/// where none), `window_s` on summary peaks, per-stream and per-component summary metrics
/// ("ttft_p99_s[chat]", "energy_J[gpu0]"), the stored scenario without YAML aliases;
/// 1.6: the CPU scheduler's tasks (tasks, task_residency, task_runs);
/// 1.7: job_energy, each finished request's energy by component.
inline constexpr int schema_version_minor = 7;

/// Operator executions kept in `ops` by default; later ones are counted, not stored.
inline constexpr std::uint64_t default_ops_limit = 100000;

/// Each finished request's energy split by component (group job_energy): row r is the job
/// with id ids[r], column c the component components[c] (the timeseries' component
/// coordinate); a row sums to that job's energy_J in `jobs`.
struct job_energy_table {
  std::vector<std::int64_t> ids;
  std::vector<std::string> components;
  std::vector<double> joules;  ///< row-major [job][component]
};

/// Root attributes (provenance).
struct run_metadata {
  std::string ptsim_version;
  std::string scenario_name;
  std::string scenario_yaml;  ///< the resolved scenario, enough to rerun it
  std::uint64_t seed = 0;
  std::string host;
  std::string start_time;  ///< ISO 8601 UTC
  double wall_s = 0;       ///< written when the file is committed
};

/// One timeseries variable over (time, dim). dim is "block", "component" or "domain", or
/// empty for a variable over time alone (e.g. wall_power(time)).
struct ts_variable {
  std::string name;       ///< e.g. "temperature"
  std::string dim;        ///< coordinate it spans
  std::string units;      ///< e.g. "degC", "W", "Hz", "V", "1"
  std::string long_name;  ///< human description
};

struct timeseries_layout {
  std::map<std::string, std::vector<std::string>> coords;  ///< dim name -> labels
  std::vector<ts_variable> variables;
  /// How many samples the run will record, if known (0: not known). Sizes the chunks: a
  /// short run gets short chunks rather than one long chunk of padding.
  std::size_t expected_samples = 0;
};

/// One request. A finished one has every time; an unfinished one (still queued or running
/// at the end) has NaN start, first token, finish and latency; a dropped one (refused on
/// arrival) has id -1 (it was never given one) and NaN times but its arrival.
struct job_row {
  std::int64_t id = 0;
  std::string stream;  ///< request stream or workload name
  std::string unit;    ///< unit that ran (most of) it
  double arrival_s = 0, start_s = 0, finish_s = 0, latency_s = 0;
  double energy_J = 0;  ///< energy attributed to the job (0 when not attributed)
  double first_token_s = 0;  ///< LLM: time of the first output token; otherwise finish_s
  std::int64_t tokens_in = 0, tokens_out = 0;  ///< LLM prompt and generated tokens (0 otherwise)
  std::string state = "finished";  ///< "finished", "unfinished" or "dropped"
};

struct event_row {
  double time_s = 0;
  std::string kind;    ///< e.g. "dvfs", "throttle", "warning"
  std::string source;  ///< domain, zone or component
  std::string message;
  double value = 0;    ///< e.g. new frequency in Hz
};

struct floorplan_row {
  std::string name;
  double x_m = 0, y_m = 0, width_m = 0, height_m = 0;
};

/// One operator execution on a compute unit.
struct op_row {
  std::string unit;
  std::string op;        ///< operator name, e.g. "conv2d_3x3"
  double start_s = 0, end_s = 0;
  std::string bound_by;  ///< "compute" or "memory": what set the operator's pace
};

/// The operator table as stored: the first `limit` executions; `dropped` more were not kept.
struct ops_table {
  std::vector<op_row> rows;
  std::uint64_t limit = 0;
  std::uint64_t dropped = 0;
};

/// Where one compute unit's time went over the run (s), by what bound it: an operator's
/// time (launch included) is compute-, memory- or interconnect-bound by which of its
/// arithmetic, memory traffic or link transfers took longest; stalls for clock changes and
/// wake-ups from idle states are counted apart. busy + idle = the run's duration.
struct unit_time_row {
  std::string unit;
  double compute_bound_s = 0;
  double memory_bound_s = 0;
  double interconnect_bound_s = 0;
  double dvfs_stall_s = 0;  ///< stalled while the clock changed
  double idle_exit_s = 0;   ///< waking from an idle state
  double idle_s = 0;        ///< no work
  std::uint64_t ops = 0;    ///< operators finished within the run
  double busy_s() const {
    return compute_bound_s + memory_bound_s + interconnect_bound_s + dvfs_stall_s + idle_exit_s;
  }
};

/// A CPU-scheduler task over the run (policy.scheduler: eas), schema 1.6.
struct task_row {
  std::string task;    ///< "<stream>/<stage>:<graph>"
  std::string stream;
  std::int64_t runs = 0, wakeups = 0, migrations = 0;
  std::int64_t fallbacks = 0;  ///< placements by spare capacity (overutilised, or it fitted nowhere)
  double run_s = 0;            ///< time running, over every CPU
};

/// How long a task ran on one CPU (runqueue: a cpu_cluster unit), schema 1.6.
struct task_residency_row {
  std::string task, cpu;
  double residency_s = 0;
  double share = 0;  ///< of the task's running time (0 when it never ran)
};

/// One stretch of a task running on a CPU, schema 1.6.
struct task_run_row {
  std::string task, cpu;
  double start_s = 0, end_s = 0;
};

/// One DVFS domain over the run: shares of the run spent below the governor's request (1).
struct domain_summary_row {
  std::string domain;
  double throttled_fraction = 0;          ///< for any reason
  double throttled_thermal_fraction = 0;  ///< by a thermal governor's ceiling
  double throttled_power_fraction = 0;    ///< by a power cap's ceiling
  /// What the limits cost. A compute-bound operator's time scales as 1/f, so work that ran
  /// for t at f below the governor's request f_req would have taken t f/f_req: the limit
  /// added t (1 - f/f_req). Summed over the domain's units and the run (s); memory-bound work
  /// is taken as unaffected. Against busy_s it bounds the throughput a saturated domain lost.
  double busy_s = 0;               ///< busy time of the domain's compute units, summed
  double time_lost_thermal_s = 0;  ///< added by thermal ceilings
  double time_lost_power_s = 0;    ///< added by power caps
};

struct metric {
  double value = 0;
  std::string units;
  /// The window a peak is over (s), the `window_s` attribute; NaN: not a windowed peak.
  double window_s = std::numeric_limits<double>::quiet_NaN();
};

/// Summary metrics by HDF5 name (energy_J, avg_power_W, ...); throughput_units e.g. "inferences/s".
struct run_summary {
  std::map<std::string, metric> metrics;
  std::string throughput_units;
};

/// Writes a result file under "<path>.part" and renames it to <path> on commit().
/// Destroying an uncommitted writer removes the .part file, so a failed run leaves nothing.
class result_writer {
 public:
  /// Writes through `out`, an output already claimed under the command's rules
  /// (output_file.hpp): its .part is this writer's alone, and its commit() publishes the file.
  /// Throws std::runtime_error (with the path and the HDF5 reason) if the file cannot be created.
  result_writer(output_file out, const run_metadata& meta, const timeseries_layout& layout,
                double record_period_s);
  /// The same with the output claimed here: an existing regular file at `final_path` is
  /// replaced; anything else there is refused (output_error).
  result_writer(std::filesystem::path final_path, const run_metadata& meta,
                const timeseries_layout& layout, double record_period_s);
  ~result_writer();
  result_writer(const result_writer&) = delete;
  result_writer& operator=(const result_writer&) = delete;

  /// One sample: values[v] points to layout.coords[variables[v].dim].size() doubles.
  void append_sample(double time_s, const std::vector<const double*>& values);
  /// One sample as one row: every variable's values, in the layout's order (sample_width()
  /// doubles). The fast path for recording every tick: one copy per sample.
  void append_sample(double time_s, const double* row);
  /// Values in one sample: the sum over variables of their dimension's length.
  std::size_t sample_width() const;
  void add_job(const job_row& row);
  void add_event(const event_row& row);
  void set_floorplan(const std::vector<floorplan_row>& rows);
  void set_summary(const run_summary& s);
  /// Keeps the first `limit` operator executions (default default_ops_limit); the rest
  /// are counted in the ops group's `dropped` attribute. Call before the first add_op.
  void set_ops_limit(std::uint64_t limit);
  void add_op(const op_row& row);
  /// The fast path for long runs: an id for a label of the ops table (unit, operator or
  /// bound_by text; the same text gives the same id), then operators by ids.
  std::uint32_t op_label(const std::string& text);
  void add_op(std::uint32_t unit, std::uint32_t op, double start_s, double end_s,
              std::uint32_t bound_by);
  /// Operator executions past the limit so far: counted, not stored.
  std::uint64_t ops_dropped() const;
  void set_unit_summary(const std::vector<unit_time_row>& rows);
  void set_domain_summary(const std::vector<domain_summary_row>& rows);
  /// The CPU scheduler's tasks: groups tasks, task_residency and task_runs (none without).
  void set_tasks(const std::vector<task_row>& tasks, const std::vector<task_residency_row>& residency,
                 const std::vector<task_run_row>& runs);
  /// The finished requests' energy by component (group job_energy; none when no request
  /// finished): its columns, then a row per request, written a chunk at a time.
  void set_job_energy_components(std::vector<std::string> components);
  /// One request's row: `joules` holds one value per component, in their order.
  void add_job_energy(std::int64_t id, const double* joules);
  /// Flushes everything, writes wall_s, closes and renames. Throws on I/O failure.
  void commit(double wall_s);

  const std::filesystem::path& final_path() const;

 private:
  struct impl;
  std::unique_ptr<impl> p_;
};

/// Reads back a result file. Throws std::runtime_error naming the file for anything
/// that is not a ptsim result, and for an unknown major schema version.
class result_reader {
 public:
  explicit result_reader(const std::filesystem::path& path);
  ~result_reader();
  result_reader(result_reader&&) noexcept;

  const run_metadata& metadata() const;
  const run_summary& summary() const;
  std::vector<std::string> coord(const std::string& dim) const;
  std::vector<double> time() const;
  /// Variable as a row-major [time][dim] array.
  std::vector<double> variable(const std::string& name, std::size_t* n_cols = nullptr) const;
  std::vector<job_row> jobs() const;
  std::vector<event_row> events() const;
  std::vector<floorplan_row> floorplan() const;
  /// The operator table; empty (limit 0) for files written before schema 1.1.
  ops_table ops() const;
  /// Per-unit and per-domain summaries; empty for files written before schema 1.1.
  std::vector<unit_time_row> unit_summary() const;
  std::vector<domain_summary_row> domain_summary() const;
  /// The CPU scheduler's tasks (schema 1.6); empty when the run had none.
  std::vector<task_row> tasks() const;
  std::vector<task_residency_row> task_residency() const;
  std::vector<task_run_row> task_runs() const;
  /// Each finished request's energy by component (schema 1.7); empty for older files.
  job_energy_table job_energy() const;
  /// The timeseries layout as stored: coordinates with labels; variables with dim, units,
  /// long_name, in the order they were written.
  timeseries_layout layout() const;
  /// The sampling period the writer was given (s).
  double record_period_s() const;

 private:
  struct impl;
  std::unique_ptr<impl> p_;
};

}  // namespace ptsim::postproc
