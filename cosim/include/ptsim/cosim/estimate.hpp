#pragma once
// What a run will cost, estimated from the scenario before it starts: samples x variables
// -> result file size, requests -> memory, control ticks -> work. `ptsim validate` prints
// it; `ptsim run` refuses a run whose estimate exceeds the scenario's `limits` (by default
// the free disk space, the physical memory and 1e8 arrivals), naming the --set that lifts it.
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "ptsim/scenarios/scenario.hpp"

namespace ptsim::cosim {

struct run_estimate {
  double ticks = 0;           ///< control periods simulated
  double samples = 0;         ///< timeseries rows
  double variables = 0;       ///< values per timeseries row
  double arrivals = 0;        ///< requests generated (an estimate: closed loops counted by think time)
  bool arrivals_open = false; ///< a closed loop without think time: bounded by service time only
  double ops_kept = 0;        ///< operator rows kept (the ops limit)
  double file_bytes = 0;      ///< result file, compressed (as measured: ~2 bytes a value)
  double file_bytes_raw = 0;  ///< result file before compression (8 bytes a value)
  double memory_bytes = 0;    ///< peak memory beyond the fixed ~100 MB of the program
};

run_estimate estimate_run(const scenarios::scenario& sc, std::uint64_t ops_limit);
/// One line: "estimate: 2000 samples x 36 values, 30 arrivals -> file ~150 kB, memory ~15 kB".
std::string describe(const run_estimate& e);
/// The bounds the estimate exceeds, one message each (empty: the run may start). `output`
/// is where the result will go (its file system's free space is the default file bound).
std::vector<std::string> exceeded_limits(const run_estimate& e, const scenarios::scenario& sc,
                                         const std::filesystem::path& output);
/// "1.5 GB", "320 kB".
std::string format_bytes(double bytes);

}  // namespace ptsim::cosim
