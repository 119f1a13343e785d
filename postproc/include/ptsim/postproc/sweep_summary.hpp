#pragma once
// A sweep's summary table, DIR/summary.h5 and DIR/summary.csv: one row per run, sorted by
// run index, columns run_id, status (ok|failed), error, the swept parameters (named by
// dotted path; "seed" when replicated), the summary metrics under their HDF5 names, then
// the machine-dependent wall_s, wall_host, wall_rank. Contract: DESIGN.md "HDF5 result file".
//
// summary.h5 holds the same table as 1-D datasets over one dimension scale `run` (the run
// index), numbers with `units` attributes, so that
//   xarray.open_dataset("summary.h5", engine="h5netcdf")   and
//   pandas.read_csv("summary.csv")
// read it as is. Numbers in the CSV are printed so that they read back exactly.
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <limits>
#include <set>
#include <string>
#include <vector>

namespace ptsim::postproc {

struct sweep_row {
  std::size_t index = 0;            ///< run index in the sweep's expansion order
  std::string run_id;
  bool ok = false;                  ///< status: "ok" or "failed"
  std::string error;                ///< why it failed; "" when ok
  std::vector<std::string> params;  ///< one per sweep_summary::param_names, as written in the sweep
  std::vector<double> metrics;      ///< one per sweep_summary::metric_names; NaN when absent (failed runs)
  double wall_s = std::numeric_limits<double>::quiet_NaN();  ///< wall-clock time of the run (s)
  std::string wall_host;            ///< machine that ran it
  std::int64_t wall_rank = 0;       ///< MPI rank, or shard, that ran it
};

struct sweep_summary {
  std::string sweep_name;
  std::string ptsim_version;
  std::vector<std::string> param_names;   ///< dotted scenario paths, then "seed" when replicated
  std::vector<std::string> metric_names;  ///< run summary names (energy_J, ...)
  std::vector<std::string> metric_units;  ///< parallel to metric_names
  std::string throughput_units;           ///< e.g. "inferences/s"
  std::vector<sweep_row> rows;            ///< sorted by index
};


/// summary.csv's text.
std::string sweep_summary_csv(const sweep_summary& s);

/// Writes DIR/summary.h5 and DIR/summary.csv, each under a ".part" name renamed when
/// complete. Throws std::runtime_error naming the file on failure (and leaves no .part).
void write_sweep_summary(const std::filesystem::path& dir, const sweep_summary& s);

/// Reads summary.h5 back. Throws std::runtime_error naming the file for anything else.
sweep_summary read_sweep_summary(const std::filesystem::path& h5_path);

}  // namespace ptsim::postproc
