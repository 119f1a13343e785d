#pragma once
// What `ptsim calibrate` leaves in its folder, each file claimed before the fit starts and
// published (renamed from .part) when complete (ptsim/postproc/output_file.hpp):
//   calibrated.yaml  an overlay that extends the base scenario: the fitted values, each
//                    with its bounds, the shared conditions, and the provenance
//   fit.csv          one line per row and target: conditions, measured, simulated, error,
//                    fitted or held_out
//   fit.h5           the same table, the parameters and every evaluation
//   fit.png          measured vs simulated per target, and the error per row
#include <filesystem>
#include <memory>
#include <string>

#include "fit.hpp"
#include "ptsim/postproc/output_file.hpp"

namespace ptsim::cosim::calibration {

struct fit_outputs {
  std::unique_ptr<postproc::output_file> overlay, csv, h5, plot;
};

/// Claims the four files in `dir` (created when missing). Throws postproc::output_error.
fit_outputs claim_fit_outputs(const std::filesystem::path& dir, bool force);

/// The overlay's text.
std::string calibrated_yaml(const study& s, const fit_result& r, const std::filesystem::path& dir);

/// fit.csv's text.
std::string fit_csv(const study& s, const fit_result& r);

/// Writes everything and commits. Throws std::runtime_error (the outputs are abandoned).
void write_fit_outputs(fit_outputs& o, const study& s, const fit_result& r, const std::filesystem::path& dir);

}  // namespace ptsim::cosim::calibration
