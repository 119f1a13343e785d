#pragma once
// The sweep runner: every run of a sweep file as its own child process (the SystemC kernel
// cannot restart inside a process), -j at a time, on one machine, across the ranks of an
// MPI job, or one shard of a Slurm job array; then the summary table of the folder.
// Messages and progress go to stderr.
#include <filesystem>
#include <optional>
#include <string>

namespace ptsim::cosim {

struct sweep_options {
  std::filesystem::path dir;   ///< output folder; empty: results/<sweep name>
  unsigned jobs = 0;           ///< runs at a time (per MPI rank); 0: the usable cores (shared by the ranks of a node)
  bool resume = false;         ///< keep complete runs, redo the rest
  unsigned shard_k = 0, shard_n = 1;  ///< run the runs whose index % shard_n == shard_k
  double timeout_s = 0;        ///< per run (s); 0: none
  std::string executable;      ///< the ptsim that runs each run; empty: this very executable
  bool quiet = false;          ///< no announcement, progress, summary line or path (a caller's batch)
};

/// Exit codes of run_sweep and merge_sweep (as `ptsim` returns them).
inline constexpr int sweep_ok = 0;          ///< every run ok
inline constexpr int sweep_failed = 1;      ///< some run failed, or has no result yet
inline constexpr int sweep_bad_input = 2;   ///< bad sweep file, or a folder it must not write into
inline constexpr int sweep_interrupted = 130;

/// Runs the sweep file's runs into opts.dir (DIR/runs/<id>.h5), then writes DIR/summary.h5
/// and DIR/summary.csv (a shard of several leaves that to merge_sweep). Under mpirun, with
/// MPI built in, the ranks share the runs.
int run_sweep(const std::string& sweep_file, const sweep_options& opts);

/// Builds DIR/summary.h5 and DIR/summary.csv from the runs in DIR (the shards' folder).
int merge_sweep(const std::filesystem::path& dir);

/// Reads SLURM_ARRAY_TASK_ID (less SLURM_ARRAY_TASK_MIN) and SLURM_ARRAY_TASK_COUNT as a
/// shard; nullopt outside a job array. Throws std::invalid_argument on inconsistent values.
std::optional<std::pair<unsigned, unsigned>> slurm_array_shard();

}  // namespace ptsim::cosim
