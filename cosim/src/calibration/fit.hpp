#pragma once
// Fitting a study's parameters to its measured rows with NLopt: the start point, then a
// global pass (DIRECT-L, deterministic, so that a resumed fit asks for the same points
// and finds them cached), then a local one (BOBYQA, or Nelder-Mead) from the best point
// found, each within the bounds and its budget of evaluations. The optimiser sees each
// parameter scaled to [0, 1] between its bounds. An evaluation runs every fitted row
// (evaluation.hpp); its error is the weighted root mean square of the targets' errors.
#include <cstddef>
#include <string>
#include <vector>

#include "evaluation.hpp"
#include "study.hpp"

namespace ptsim::cosim::calibration {

struct evaluation_record {
  std::vector<double> x;   ///< parameter values, in the bounds' units
  double error = 0;        ///< the objective
  std::size_t simulated = 0;
  std::string stage;       ///< start, global, local
};

struct fit_result {
  std::vector<double> best;                  ///< per parameter, in the bounds' units
  double fitted_error = 0, held_out_error = 0;  ///< weighted RMS (held out: NaN without such rows)
  std::vector<std::size_t> fitted_rows, held_out_rows;
  std::vector<row_outcome> fitted, held_out;  ///< the rows run at `best`
  std::vector<evaluation_record> evaluations;
  std::size_t runs_simulated = 0;             ///< by this call
  std::size_t runs_total = 0;                 ///< asked for, cached ones included
  std::string local_algorithm;                ///< what the local pass used
  /// How many different objective values the evaluations gave (relative 1e-9 apart): far fewer
  /// than evaluations means the targets barely move with the parameters.
  std::size_t distinct_errors() const;
  int status = 0;                             ///< 0, or the sweep's code that stopped it (130)
};

/// The weighted root mean square of the targets' errors over these rows; a row whose run
/// failed counts an error of 10 (1000 %) for each of its measured targets.
double study_error(const study& s, const std::vector<row_outcome>& rows);

/// The overrides that set the parameters to x (every expanded path).
std::vector<scenarios::sweep_value> parameter_values(const study& s, const std::vector<double>& x);

fit_result fit_study(const study& s, const batch_options& opts);

}  // namespace ptsim::cosim::calibration
