#pragma once
// Runs a sweep's runs as child processes, up to `jobs` at a time, with a per-run timeout;
// one poll() loop watches the children's stderr, their ends (SIGCHLD) and stop signals.
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include "signals.hpp"
#include "sweep_progress.hpp"
#include "work_source.hpp"

namespace ptsim::cosim::sweep {

/// What starting one run takes.
struct launch_plan {
  std::string id;
  std::vector<std::string> argv;  ///< empty: the run is not started, and fails with `error`
  std::string error;
  std::filesystem::path result;   ///< the file a successful run leaves
  std::filesystem::path part;     ///< its name while being written (removed after a failure)
};

struct pool_options {
  unsigned jobs = 1;
  double timeout_s = 0;  ///< per run; 0: none
  std::vector<std::string> env;  ///< the runs' environment
};

class run_pool {
 public:
  run_pool(pool_options opts, std::function<launch_plan(std::size_t)> plan,
           std::function<void(const launch_plan&, const run_result&)> done, const signal_watch& signals,
           sweep_progress* progress);
  /// Runs until `src` is exhausted and every run has ended: true. On a stop signal, starts
  /// nothing more, kills the running runs (whose partial files it removes; they count as not
  /// run) and returns false.
  bool run(work_source& src);

 private:
  pool_options opts_;
  std::function<launch_plan(std::size_t)> plan_;
  std::function<void(const launch_plan&, const run_result&)> done_;
  const signal_watch& signals_;
  sweep_progress* progress_;
};

/// "30 s", "0.5 s", "2 min": a duration for messages.
std::string seconds_text(double s);

}  // namespace ptsim::cosim::sweep
