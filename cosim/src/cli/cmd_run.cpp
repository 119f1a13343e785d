// ptsim run [SCENARIO] [-o OUT] [--set K=V]... [--seed N] [--force] [--quiet] [--trace T.json]
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <iostream>
#include <optional>

#include "commands.hpp"
#include "output_file.hpp"
#include "ptsim/cosim/estimate.hpp"
#include "ptsim/cosim/interrupt.hpp"
#include "ptsim/cosim/run.hpp"
#include "ptsim/postproc/report.hpp"
#include "ptsim/scenarios/scenario.hpp"

namespace ptsim::cosim::cli {
namespace fs = std::filesystem;

namespace {

struct run_args {
  std::string scenario;
  std::string output;
  std::vector<std::string> sets;
  std::int64_t seed = -1;
  bool force = false, quiet = false;
  std::string trace;
  std::uint64_t ops_limit = postproc::default_ops_limit;
  bool no_record = false;
};

// results/<name>-<UTC timestamp>.h5, claimed (never an existing file, never one another run is
// writing). The scenario loader has refused names that are not file names; checked again here
// so that nothing but a plain name under results/ can come out.
std::optional<postproc::output_file> default_output(const std::string& name) {
  if (auto why = scenarios::file_name_problem(name)) {
    std::cerr << "ptsim run: the scenario's name cannot name its result file: " << *why << "; give -o\n";
    return std::nullopt;
  }
  std::time_t t = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char stamp[32];
  std::strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", &tm);
  const fs::path dir = "results";
  const postproc::output_rules rules{false, false, true};
  for (int i = 0;; ++i) {
    const fs::path p = dir / (name + "-" + stamp + (i ? "-" + std::to_string(i) : std::string()) + ".h5");
    try {
      return postproc::output_file(p, rules);
    } catch (const postproc::output_error& e) {
      // Taken (a result, or one being written): the next number. Anything else is an error.
      if ((e.why != postproc::output_error::kind::exists && e.why != postproc::output_error::kind::busy) || i > 1000) {
        std::cerr << "ptsim run: " << e.what() << "\n";
        return std::nullopt;
      }
    }
  }
}

void print_summary(const run_outcome& out) {
  postproc::run_summary s;
  for (const auto& [k, v] : out.summary) s.metrics[k] = {v, out.units.at(k)};
  s.throughput_units = out.throughput_units;
  std::cout << postproc::format_report({{out.result_file.stem().string(), s}}, postproc::report_format::table);
  std::cout << "result: " << out.result_file.string() << "\n";
}

int run(const run_args& a) {
  scenarios::load_options lo;
  try {
    for (const auto& s : a.sets) lo.overrides.push_back(scenarios::parse_override(s));
  } catch (const scenarios::scenario_error& e) {
    std::cerr << "ptsim run: " << e.what() << "\n";
    return exit_bad_input;
  }
  // The scenario's seed range (integers exact in a double); CLI11 clamps a longer number
  // to 2^63 - 1, which would then be blamed on the scenario file.
  if (a.seed > 9000000000000000LL) {
    std::cerr << "ptsim run: --seed: expected an integer from 0 to 9000000000000000, found " << a.seed
              << (a.seed == INT64_MAX ? " (or more)" : "") << "\n";
    return exit_bad_input;
  }
  if (a.seed >= 0) lo.seed = static_cast<std::uint64_t>(a.seed);
  scenarios::scenario sc;
  try {
    sc = a.scenario.empty() ? scenarios::load_scenario_text(scenarios::builtin_default_scenario(),
                                                            "scenarios/default.yaml (built in)", lo)
                            : scenarios::load_scenario_file(a.scenario, lo);
  } catch (const scenarios::scenario_error& e) {
    std::cerr << e.what() << "\n";
    return exit_bad_input;
  }
  for (const auto& w : sc.warnings) std::cerr << w.to_string() << "\n";
  {
    // Refused before any output is claimed, simulated or written: a run that would outgrow the disk,
    // the memory or the arrival bound, with the estimate and the --set that lifts it.
    const run_estimate est = estimate_run(sc, a.ops_limit);
    const auto over = exceeded_limits(est, sc, a.output.empty() ? fs::path("results") / "run.h5" : fs::path(a.output));
    if (!over.empty()) {
      for (const auto& m : over) std::cerr << "ptsim run: refused: " << m << "\n";
      std::cerr << "ptsim run: " << describe(est) << "\n";
      return exit_bad_input;
    }
  }
  run_options opts;
  install_interrupt_handlers();  // before the claims: a signal from here on leaves no .part
  // Every output is claimed before the run, so that a refused path fails now, not after it.
  std::optional<postproc::output_file> out =
      a.output.empty() ? default_output(sc.name) : claim_output("run", a.output, postproc::output_rules{a.force, false, true});
  if (!out) return exit_bad_input;
  std::optional<postproc::output_file> trace_out;
  if (!a.trace.empty()) {
    trace_out = claim_output("run", a.trace, postproc::output_rules{a.force, true, true});
    if (!trace_out) return exit_bad_input;
  }
  opts.output = out->requested();
  opts.claimed = std::make_shared<postproc::output_file>(std::move(*out));
  opts.progress = !a.quiet && isatty(STDERR_FILENO);
  opts.ops_limit = a.ops_limit;
  opts.record = !a.no_record;
  try {
    const run_outcome out = run_scenario(sc, opts);
    if (!a.quiet)
      for (const auto& n : out.notes) std::cerr << "ptsim run: " << n << "\n";
    if (a.quiet) std::cout << out.result_file.string() << "\n";
    else print_summary(out);
  } catch (const simulation_error& e) {
    std::cerr << "ptsim run: simulation stopped: " << e.what() << "; no result written\n";
    if (const int sig = interrupt_signal()) return 128 + sig;
    return exit_failed;
  } catch (const std::exception& e) {
    std::cerr << "ptsim run: " << e.what() << "\n";
    return exit_failed;
  }
  // A signal that came after the last control tick: the result is complete and kept; the
  // rest (the trace) is not written.
  if (const int sig = interrupt_signal()) {
    std::cerr << "ptsim run: interrupted after the result was written; no trace written\n";
    return 128 + sig;
  }
  if (trace_out) {
    postproc::install_cleanup_handlers();  // from here a signal removes the trace's .part and ends
    if (write_trace_file(opts.output, *trace_out, {}) != exit_ok) return exit_failed;
  }
  return exit_ok;
}

}  // namespace

void add_run(CLI::App& app) {
  auto a = std::make_shared<run_args>();
  CLI::App* cmd = app.add_subcommand("run", "Run one scenario and write its HDF5 result");
  cmd->add_option("scenario", a->scenario, "Scenario file (default: scenarios/default.yaml, built in)");
  cmd->add_option("-o,--output", a->output, "Result file (default: results/<name>-<timestamp>.h5)");
  cmd->add_option("--set", a->sets, "Override a scenario key: dotted.path=value (repeatable)")
      ->type_name("KEY=VALUE")
      ->allow_extra_args(false);
  cmd->add_option("--seed", a->seed, "Random seed (overrides the scenario's)")->check(CLI::NonNegativeNumber);
  cmd->add_flag("--force", a->force, "Overwrite an existing result or trace file (a regular file only)");
  cmd->add_flag("-q,--quiet", a->quiet, "Print only the result file's path");
  cmd->add_option("--trace", a->trace, "Also write a Chrome trace-event JSON of the run (see `ptsim trace`)")
      ->type_name("T.json");
  cmd->add_option("--ops-limit", a->ops_limit,
                  "Operator executions kept in the result's ops table (later ones are counted, not stored)")
      ->type_name("N")
      // Read as an unsigned integer, "-5" would wrap around to 2^64 - 5.
      ->check(CLI::NonNegativeNumber);
  // Internal: summaries only, no timeseries or ops rows; for measuring the cost of recording.
  cmd->add_flag("--no-record", a->no_record)->group("");
  cmd->callback([a] {
    const int rc = run(*a);
    if (rc != exit_ok) throw CLI::RuntimeError(rc);
  });
}

}  // namespace ptsim::cosim::cli
