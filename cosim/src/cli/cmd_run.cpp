// ptsim run [SCENARIO] [-o OUT] [--set K=V]... [--seed N] [--force] [--quiet] [--trace T.json]
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <iostream>

#include "commands.hpp"
#include "output_file.hpp"
#include "ptsim/cosim/estimate.hpp"
#include "ptsim/cosim/interrupt.hpp"
#include "ptsim/cosim/run.hpp"
#include "ptsim/postproc/report.hpp"

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

// results/<name>-<UTC timestamp>.h5, never an existing file.
fs::path default_output(const std::string& name) {
  std::time_t t = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char stamp[32];
  std::strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", &tm);
  fs::path dir = "results";
  fs::path p = dir / (name + "-" + stamp + ".h5");
  for (int i = 1; fs::exists(p) || fs::exists(p.string() + ".part"); ++i)
    p = dir / (name + "-" + stamp + "-" + std::to_string(i) + ".h5");
  return p;
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
  run_options opts;
  if (a.output.empty()) {
    opts.output = default_output(sc.name);
  } else {
    if (!may_write_output("run", a.output, a.force)) return exit_bad_input;
    opts.output = a.output;
  }
  std::error_code ec;
  if (opts.output.has_parent_path()) fs::create_directories(opts.output.parent_path(), ec);
  if (ec) {
    std::cerr << "ptsim run: cannot create " << opts.output.parent_path() << ": " << ec.message() << "\n";
    return exit_bad_input;
  }
  {
    // Refused before anything is simulated or written: a run that would outgrow the disk,
    // the memory or the arrival bound, with the estimate and the --set that lifts it.
    const run_estimate est = estimate_run(sc, a.ops_limit);
    const auto over = exceeded_limits(est, sc, opts.output);
    if (!over.empty()) {
      for (const auto& m : over) std::cerr << "ptsim run: refused: " << m << "\n";
      std::cerr << "ptsim run: " << describe(est) << "\n";
      return exit_bad_input;
    }
  }
  opts.progress = !a.quiet && isatty(STDERR_FILENO);
  opts.ops_limit = a.ops_limit;
  opts.record = !a.no_record;
  install_interrupt_handlers();
  try {
    const run_outcome out = run_scenario(sc, opts);
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
  if (!a.trace.empty() && write_trace_file(opts.output, a.trace, {}) != exit_ok) return exit_failed;
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
  cmd->add_flag("--force", a->force, "Overwrite an existing output file");
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
