// ptsim report RESULT.h5|DIR... [--format table|csv|json|markdown] [--best METRIC [--where EXPR]...]
//              [--pareto [--pareto-axes TIME,ENERGY]]
#include <filesystem>
#include <iostream>

#include "commands.hpp"
#include "output_file.hpp"
#include "ptsim/postproc/output_file.hpp"
#include "ptsim/postproc/decision.hpp"
#include "ptsim/postproc/pareto.hpp"
#include "ptsim/postproc/report.hpp"
#include "ptsim/postproc/run_set.hpp"

namespace ptsim::cosim::cli {

namespace fs = std::filesystem;

namespace {
struct report_args {
  std::vector<std::string> inputs;
  std::string format = "table";
  std::string best;
  std::vector<std::string> where;
  bool pareto = false;
  std::string pareto_axes;
  bool each_run = false;
  std::string output;
  bool force = false;
};

int report(const report_args& a) {
  const auto fail = [](const std::string& what) {
    std::cerr << "ptsim report: " << what << "\n";
    return exit_bad_input;
  };
  postproc::report_format fmt;
  std::optional<postproc::objective> obj;
  std::vector<postproc::constraint> where;
  postproc::pareto_axes axes;
  try {
    if (!a.pareto_axes.empty()) axes = postproc::parse_pareto_axes(a.pareto_axes);
    fmt = postproc::parse_report_format(a.format);
    if (!a.best.empty()) obj = postproc::parse_objective(a.best);
    for (const auto& w : a.where) where.push_back(postproc::parse_constraint(w));
  } catch (const std::invalid_argument& e) {
    return fail(e.what());
  }
  if (!where.empty() && !obj) return fail("--where needs --best METRIC");
  if (a.pareto && obj) return fail("--pareto and --best are two different answers: give one");
  if (!a.pareto_axes.empty() && !a.pareto) return fail("--pareto-axes needs --pareto");

  std::vector<postproc::loaded_run> runs;
  try {
    std::vector<fs::path> inputs(a.inputs.begin(), a.inputs.end());
    // A sweep's failed runs have no result file: say so, once, on stderr.
    for (const auto& in : inputs)
      if (fs::is_directory(in))
        for (const auto& [id, error] : postproc::failed_runs(in))
          std::cerr << "ptsim report: " << (in / "runs" / id).string() << ": run failed"
                    << (error.empty() ? "" : ": " + error) << " (left out)\n";
    runs = postproc::load_runs(postproc::expand_result_inputs(inputs));
  } catch (const std::exception& e) {
    return fail(e.what());
  }
  const std::vector<postproc::labelled_summary> entries =
      a.each_run ? postproc::entries_per_run(runs) : postproc::entries_by_configuration(runs);
  std::string text;
  try {
    text = a.pareto ? postproc::format_pareto(entries, postproc::pareto(entries, axes), fmt)
           : obj    ? postproc::format_decision(entries, postproc::decide(entries, *obj, where), fmt)
                    : postproc::format_report(entries, fmt);
  } catch (const std::invalid_argument& e) {
    return fail(e.what());
  }
  if (a.output.empty()) {
    std::cout << text;
    return exit_ok;
  }
  // -o: written whole under .part and renamed, as every output (an existing file only with --force).
  postproc::install_cleanup_handlers();
  auto out = claim_output("report", a.output, postproc::output_rules{a.force, true, false});
  if (!out) return exit_bad_input;
  try {
    out->stream() << text;
    out->commit();
  } catch (const std::exception& e) {
    out->abandon();
    return fail(e.what());
  }
  return exit_ok;
}
}  // namespace

void add_report(CLI::App& app) {
  auto a = std::make_shared<report_args>();
  CLI::App* cmd = app.add_subcommand(
      "report", "Summarise runs: one result, several side by side, or a sweep folder");
  cmd->add_option("results", a->inputs,
                  "Result files (.h5) or folders (a sweep folder's runs/*.h5, or *.h5)")
      ->required();
  cmd->add_option("--format", a->format, "table, csv, json, markdown or html (one self-contained page)")
      ->check(CLI::IsMember({"table", "csv", "json", "markdown", "html"}));
  cmd->add_option("-o,--output", a->output, "Write the report to this file instead of stdout")->type_name("FILE");
  cmd->add_flag("--force", a->force, "Replace an existing output file (a regular file only)");
  cmd->add_option("--best", a->best,
                  "Name the best configuration: max:METRIC, min:METRIC, or a METRIC whose "
                  "direction is known: every summary metric and per-label form, e.g. perf_per_watt, "
                  "ttft_p99_s[chat], energy_J[gpu0] (`ptsim list metrics` lists each with its units "
                  "and direction)")
      ->type_name("METRIC")
      ->allow_extra_args(false);
  cmd->add_option("--where", a->where,
                  "Constraint for --best: \"METRIC OP NUMBER [UNIT]\", OP one of < <= > >= ==, "
                  "e.g. \"latency_p99_s[camera] < 33 ms\" (repeatable: all must hold; metrics: "
                  "`ptsim list metrics`)")
      ->type_name("EXPR")
      ->allow_extra_args(false);  // one expression per --where: what follows is a result
  cmd->add_flag("--pareto", a->pareto,
                "Energy against time per configuration: the energy-optimal and time-optimal ones and the "
                "Pareto front (by default energy_per_work_J = avg_power_W / throughput against "
                "time_per_work_s = 1 / throughput)");
  cmd->add_option("--pareto-axes", a->pareto_axes,
                  "The two axes of --pareto, both lower-is-better: \"TIME,ENERGY\", each a metric as --best "
                  "takes it or time_per_work_s / energy_per_work_J, e.g. \"latency_p99_s,energy_J\"")
      ->type_name("TIME,ENERGY")
      ->allow_extra_args(false);
  cmd->add_flag("--each-run", a->each_run,
                "One column per run, even where runs differ only by seed (no mean ± CI)");
  cmd->callback([a] {
    const int rc = report(*a);
    if (rc != exit_ok) throw CLI::RuntimeError(rc);
  });
}

}  // namespace ptsim::cosim::cli
