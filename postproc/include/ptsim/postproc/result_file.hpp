#pragma once
// The HDF5 result file: its layout lives here and nowhere else (writer and reader).
// Contract: ../shared/DESIGN.md "HDF5 result file".
#include <cstdint>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace ptsim::postproc {

inline constexpr int schema_version_major = 1;
inline constexpr int schema_version_minor = 0;

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

/// One timeseries variable over (time, dim). dim is "block", "component" or "domain".
struct ts_variable {
  std::string name;       ///< e.g. "temperature"
  std::string dim;        ///< coordinate it spans
  std::string units;      ///< e.g. "degC", "W", "Hz", "V", "1"
  std::string long_name;  ///< human description
};

struct timeseries_layout {
  std::map<std::string, std::vector<std::string>> coords;  ///< dim name -> labels
  std::vector<ts_variable> variables;
};

struct job_row {
  std::int64_t id = 0;
  std::string stream;  ///< request stream or workload name
  std::string unit;    ///< unit that ran (most of) it
  double arrival_s = 0, start_s = 0, finish_s = 0, latency_s = 0;
  double energy_J = 0;  ///< energy attributed to the job (0 when not attributed)
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

struct metric {
  double value = 0;
  std::string units;
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
  /// Throws std::runtime_error (with the path and the HDF5 reason) if the file cannot be created.
  result_writer(std::filesystem::path final_path, const run_metadata& meta,
                const timeseries_layout& layout, double record_period_s);
  ~result_writer();
  result_writer(const result_writer&) = delete;
  result_writer& operator=(const result_writer&) = delete;

  /// One sample: values[v] points to layout.coords[variables[v].dim].size() doubles.
  void append_sample(double time_s, const std::vector<const double*>& values);
  void add_job(const job_row& row);
  void add_event(const event_row& row);
  void set_floorplan(const std::vector<floorplan_row>& rows);
  void set_summary(const run_summary& s);
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
