#pragma once
// Runs a study's rows (each: the shared conditions, the row's, and the parameters being
// tried) through the sweep machinery (ptsim/cosim/sweep_runner.hpp): each run its own
// process, -j at a time. A batch of rows is a sweep file written into the cache folder,
// CACHE/<hash of that file>/ (sweep.in.yaml, runs/<run id>.h5 ...), the run id a hash of
// its parameters: the same point asked again (a repeated evaluation, a resumed fit) finds
// its complete result there and is not simulated again.
#include <cstddef>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "ptsim/scenarios/sweep.hpp"
#include "study.hpp"

namespace ptsim::cosim::calibration {

namespace fs = std::filesystem;

struct batch_options {
  fs::path cache;          ///< folder of the batches' sweep folders
  unsigned jobs = 0;       ///< runs at a time; 0: the usable cores
  double timeout_s = 0;    ///< per run; 0: none
};

struct point_result {
  std::optional<fs::path> result;  ///< the run's result file; none when it failed
  std::string error;               ///< why it failed
};

struct batch_result {
  std::vector<point_result> points;  ///< parallel to the points asked
  std::size_t simulated = 0;         ///< runs this call simulated (not found complete)
  int status = 0;                    ///< run_sweep's exit code (130: interrupted)
};

/// Runs `points` (each a list of overrides, all with the same paths in the same order)
/// on `scenario` with `shared` applied first. Identical points run once.
batch_result run_points(const std::string& scenario, const std::vector<scenarios::sweep_value>& shared,
                        const std::vector<std::vector<scenarios::sweep_value>>& points, const batch_options& opts);

/// A target's error: simulated / measured - 1 (relative) or simulated - measured.
double target_error(const target& t, double measured, double simulated);

/// One row of a study, run.
struct row_outcome {
  std::size_t row = 0;             ///< its number
  std::vector<double> simulated;   ///< per target; NaN when the run failed or measured nothing
  std::vector<double> error;       ///< per target; NaN without a measured value
  std::string failure;             ///< why the run gave no values; "" when it ran
};

/// Runs the study's rows `rows` (numbers) with the study's `set`, then `shared`, then the
/// row's conditions, then `params`; reads each target. `batch` receives the run counts.
std::vector<row_outcome> evaluate_rows(const study& s, const std::vector<std::size_t>& rows,
                                       const std::vector<scenarios::sweep_value>& shared,
                                       const std::vector<scenarios::sweep_value>& params, const batch_options& opts,
                                       batch_result* batch = nullptr);

}  // namespace ptsim::cosim::calibration
