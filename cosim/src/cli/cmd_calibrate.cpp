// ptsim calibrate CALIB.yaml [-o DIR] [-j N] [--resume] [--force]
// Fits scenario parameters to a table of measurements (cosim/src/calibration/) and writes
// DIR/calibrated.yaml, fit.csv, fit.h5 and fit.png. Every run goes into DIR/evaluations/
// (one sweep folder per evaluation, runs named by a hash of their parameters), so that
// --resume finds what a stopped fit already ran.
#include <chrono>
#include <cmath>
#include <cstdio>
#include <iostream>

#include "../calibration/fit.hpp"
#include "../calibration/fit_outputs.hpp"
#include "../calibration/study.hpp"
#include "../sweep/machine.hpp"
#include "commands.hpp"

namespace ptsim::cosim::cli {

namespace {

namespace cal = calibration;
namespace fs = std::filesystem;

struct calibrate_args {
  std::string file, out;
  unsigned jobs = 0;
  bool resume = false, force = false;
};

int calibrate(const calibrate_args& a) {
  if (sweep::launched_ranks() > 1) {
    // Each evaluation is a sweep of its own, and MPI starts once per process.
    std::cerr << "ptsim calibrate: runs on one machine (-j N); under mpirun, run it without mpirun\n";
    return exit_bad_input;
  }
  cal::study s;
  try {
    s = cal::load_study(a.file, cal::study_kind::calibration);
    cal::check_study_conditions(s, false);
  } catch (const scenarios::scenario_error& e) {
    std::cerr << e.what() << "\n";
    return exit_bad_input;
  }
  const fs::path dir = a.out.empty() ? fs::path("results") / ("calibrate-" + s.name) : fs::path(a.out);
  const fs::path cache = dir / "evaluations";
  std::error_code ec;
  if (!a.resume && fs::is_directory(cache, ec) && !fs::is_empty(cache, ec)) {
    std::cerr << "ptsim calibrate: " << cache.string()
              << " holds the runs of an earlier fit: continue it with --resume, or give another -o DIR\n";
    return exit_bad_input;
  }
  cal::fit_outputs outputs;
  try {
    outputs = cal::claim_fit_outputs(dir, a.force || a.resume);
  } catch (const postproc::output_error& e) {
    std::cerr << "ptsim calibrate: " << e.what() << (e.why == postproc::output_error::kind::exists ? " (--force replaces it)" : "")
              << "\n";
    return exit_bad_input;
  }
  postproc::install_cleanup_handlers();
  cal::batch_options bo;
  bo.cache = cache;
  bo.jobs = a.jobs;
  std::size_t held = s.holdout_rows.size();
  std::cerr << "ptsim calibrate: " << s.parameters.size() << " parameter(s) to " << (s.rows.size() - held)
            << " fitted row(s), " << held << " held out; runs in " << cache.string() << "\n";
  const auto t0 = std::chrono::steady_clock::now();
  const cal::fit_result r = cal::fit_study(s, bo);
  if (r.status != 0) {
    std::cerr << "ptsim calibrate: stopped; finished runs are kept: rerun with --resume to continue\n";
    return r.status;
  }
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  try {
    cal::write_fit_outputs(outputs, s, r, dir);
  } catch (const std::exception& e) {
    std::cerr << "ptsim calibrate: " << e.what() << "\n";
    return exit_failed;
  }
  // Without held-out rows there is no held-out error to print (NaN in the summary file).
  char held_out[64] = "no held-out rows";
  if (std::isfinite(r.held_out_error)) std::snprintf(held_out, sizeof held_out, "%.4g on the held-out rows", r.held_out_error);
  std::fprintf(stderr,
               "ptsim calibrate: %zu evaluations, %zu runs (%zu simulated now) in %.1f s; error %.4g on the fitted "
               "rows, %s\n",
               r.evaluations.size(), r.runs_total, r.runs_simulated, wall, r.fitted_error, held_out);
  for (std::size_t i = 0; i < s.parameters.size(); ++i)
    std::fprintf(stderr, "ptsim calibrate: %s = %s\n", s.parameters[i].path.c_str(),
                 s.parameters[i].value_text(r.best[i]).c_str());
  // A derivative-free optimiser on a flat or stepped objective stops near where it started.
  const std::size_t distinct = r.distinct_errors();
  if (r.evaluations.size() >= 8 && distinct * 4 <= r.evaluations.size())
    std::fprintf(stderr,
                 "ptsim calibrate: warning: the error took %zu distinct value(s) over %zu evaluations: the targets "
                 "barely move with the parameters (a parameter no target depends on, or a target that counts whole "
                 "jobs in a short run, such as throughput), so the fit may have stopped near its start; a continuous "
                 "metric (latency_p50_s, job_time_mean_s) or a longer `set: duration` gives the optimiser a slope\n",
                 distinct, r.evaluations.size());
  std::cout << (dir / "calibrated.yaml").string() << "\n";
  bool failed = false;
  for (const auto* rows : {&r.fitted, &r.held_out})
    for (const auto& o : *rows)
      if (!o.failure.empty()) {
        std::cerr << "ptsim calibrate: row " << o.row << " failed at the fitted values: " << o.failure << "\n";
        failed = true;
      }
  return failed ? exit_failed : exit_ok;
}

}  // namespace

void add_calibrate(CLI::App& app) {
  auto a = std::make_shared<calibrate_args>();
  CLI::App* cmd = app.add_subcommand("calibrate", "Fit scenario parameters to a table of measurements");
  cmd->footer(
      "Writes DIR/calibrated.yaml (an overlay extending the base scenario), fit.csv, fit.h5 and fit.png;\n"
      "the runs go to DIR/evaluations/. Exit status: 0 fitted; 1 a run failed at the fitted values or an\n"
      "output could not be written; 2 bad input (nothing was run); 130 interrupted (--resume continues).");
  cmd->add_option("calibration", a->file, "Calibration file (scenario, measurements, targets, parameters)")->required();
  cmd->add_option("-o,--output", a->out, "Output folder (default: results/calibrate-<name>)")->type_name("DIR");
  cmd->add_option("-j,--jobs", a->jobs, "Runs at a time (default: the usable cores)")->type_name("N")->check(CLI::Range(1u, 4096u));
  cmd->add_flag("--resume", a->resume, "Continue a fit in DIR: runs already there are not simulated again");
  cmd->add_flag("--force", a->force, "Replace the output files of an earlier fit");
  cmd->callback([a] {
    const int rc = calibrate(*a);
    if (rc != exit_ok) throw CLI::RuntimeError(rc);
  });
}

}  // namespace ptsim::cosim::cli
