#pragma once
// One simulation run: scenario in, HDF5 result file out. The SystemC kernel cannot be
// restarted, so a process calls run_scenario at most once.
#include <filesystem>
#include <map>
#include <string>

#include "ptsim/scenarios/scenario.hpp"

namespace ptsim::cosim {

struct run_options {
  std::filesystem::path output;  ///< final result path (written as <output>.part first)
  bool progress = false;         ///< show a progress line on stderr
};

struct run_outcome {
  std::filesystem::path result_file;
  std::map<std::string, double> summary;  ///< metric -> value (SI)
  std::map<std::string, std::string> units;
  std::string throughput_units;
  double wall_s = 0;
  double simulated_s = 0;
  std::uint64_t transactions = 0;
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
