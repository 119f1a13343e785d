#pragma once
// A sweep's folder:
//   DIR/sweep.yaml           which sweep the folder holds (scenarios::sweep_manifest)
//   DIR/runs/<id>.h5         complete run results (<id>.h5.part while written)
//   DIR/records/<id>.record  the runner's record of a run's last outcome: status, error, wall_*
//   DIR/summary.h5, DIR/summary.csv
//   DIR/sweep.lock           locked, one byte per run index, by the sweep running those runs
// Every file is written under a temporary name and renamed (ptsim/postproc/output_file.hpp),
// so a killed sweep leaves only complete files (plus stale .part files, which the next sweep
// of that share removes). Its locks go with its process: a killed sweep leaves none.
#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "ptsim/scenarios/sweep.hpp"
#include "ptsim/scenarios/sweep_manifest.hpp"

namespace ptsim::cosim::sweep {

namespace fs = std::filesystem;

/// A folder the sweep must not write into, with why and what to do instead.
struct folder_error : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// What the runner knows about one finished attempt at a run.
struct run_record {
  bool ok = false;
  std::string error;           ///< one line; "" when ok
  double wall_s = 0;           ///< wall-clock time of the run's process (s)
  std::string wall_host;
  std::int64_t wall_rank = 0;  ///< MPI rank, or shard, that ran it
};

/// Which runs this process runs: those whose index % count == index_k.
struct share {
  unsigned k = 0, n = 1;
  bool contains(std::size_t run_index) const { return run_index % n == k; }
};

class sweep_folder {
 public:
  explicit sweep_folder(fs::path dir) : dir_(std::move(dir)) {}
  fs::path lock_path() const { return dir_ / "sweep.lock"; }

  const fs::path& dir() const { return dir_; }
  fs::path manifest_path() const { return dir_ / "sweep.yaml"; }
  fs::path result_path(const std::string& id) const { return dir_ / "runs" / (id + ".h5"); }
  fs::path part_path(const std::string& id) const { return dir_ / "runs" / (id + ".h5.part"); }
  fs::path record_path(const std::string& id) const { return dir_ / "records" / (id + ".record"); }

  /// Makes the folder ready for `sweep` and returns the indices of the runs of `mine` to
  /// run, in order. A new folder gets the manifest; an existing one must hold the same sweep
  /// (identity). Then the share's runs are locked for as long as this sweep_folder (or a
  /// copy) lives: another sweep running any of them fails here, naming the process. Stale
  /// .part files of the share are removed. Without `resume`, refuses when
  /// any run of the share already has a result or record (nothing is ever clobbered); with
  /// it, skips runs whose result is complete and redoes the rest.
  std::vector<std::size_t> prepare(const scenarios::sweep_spec& sweep, const std::string& identity,
                                   const share& mine, bool resume) const;

  /// The manifest of an existing folder. Throws folder_error when there is none.
  scenarios::sweep_manifest read_manifest() const;

  /// True when runs/<id>.h5 is a complete, readable result.
  bool complete(const std::string& id) const;
  void write_record(const std::string& id, const run_record& r) const;
  std::optional<run_record> read_record(const std::string& id) const;
  /// Removes runs/<id>.h5.part if present.
  void remove_part(const std::string& id) const;
  /// How many runs/<id>.h5.part files there are (runs being written, or stale ones).
  std::size_t count_parts() const;

 private:
  fs::path dir_;
  mutable std::shared_ptr<int> lock_;  ///< descriptor of sweep.lock holding this sweep's run locks
  void lock_runs(const scenarios::sweep_spec& sweep, const share& mine) const;
};

/// Writes `text` to `path` through the output rules (an existing regular file is replaced).
void write_file_atomic(const fs::path& path, const std::string& text);

}  // namespace ptsim::cosim::sweep
