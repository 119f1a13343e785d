#pragma once
// One simulation run: scenario in, HDF5 result file out. The SystemC kernel cannot be
// restarted, so a process calls run_scenario at most once.
#include <cstdint>
#include <filesystem>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "ptsim/postproc/result_file.hpp"
#include "ptsim/scenarios/scenario.hpp"

namespace ptsim::cosim {

struct run_options {
  std::filesystem::path output;  ///< final result path (written as <output>.part first)
  /// The output already claimed by the caller (its rules: --force, ...); run_scenario takes it
  /// over. Without one, `output` is claimed here with --force's rules.
  std::shared_ptr<postproc::output_file> claimed;
  bool progress = false;         ///< show a progress line on stderr
  /// Operator executions kept in the result's `ops` table (the rest are only counted).
  std::uint64_t ops_limit = postproc::default_ops_limit;
  /// false: no timeseries rows and no ops table (summaries only); for measuring the cost
  /// of recording.
  bool record = true;
  /// false: the control loop only drains the activity ledgers (no power, thermal,
  /// governors or recording); for measuring the closed loop's cost. Internal.
  bool closed_loop = true;
};

struct run_outcome {
  std::filesystem::path result_file;
  std::map<std::string, double> summary;  ///< metric -> value (SI)
  std::map<std::string, std::string> units;
  std::string throughput_units;
  double wall_s = 0;
  double simulated_s = 0;
  std::uint64_t transactions = 0;
  /// Said once about the run (e.g. how many operators a profile did not hold).
  std::vector<std::string> notes;
};

/// Thermal runaway, or another failure of the simulated system.
struct simulation_error : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// Runs the scenario and commits the result file. On any error the partial file is
/// removed and the exception propagates.
run_outcome run_scenario(const scenarios::scenario& sc, const run_options& opts);

/// The ptsim version string.
const char* version();

}  // namespace ptsim::cosim
