// ptsim validate SCENARIO.yaml|SWEEP.yaml...: every check, no simulation.
#include <iostream>

#include "commands.hpp"
#include "ptsim/cosim/estimate.hpp"
#include "ptsim/postproc/result_file.hpp"
#include "ptsim/scenarios/scenario.hpp"
#include "ptsim/scenarios/sweep.hpp"

namespace ptsim::cosim::cli {

namespace {

// A sweep file (a top-level `base:`): its own structure, then every run it expands to.
int validate_sweep(const std::string& f) {
  const auto s = scenarios::load_sweep_file(f);
  std::size_t invalid = 0;
  for (const auto& d : scenarios::check_sweep_runs(s, &invalid)) std::cerr << d.to_string() << "\n";
  if (invalid) {
    std::cerr << f << ": " << invalid << " of " << s.runs.size() << " runs are invalid\n";
    return exit_bad_input;
  }
  std::string varied;
  for (const auto& p : s.parameters) varied += (varied.empty() ? "" : ", ") + p;
  if (s.replicated) varied += varied.empty() ? "seed" : ", seed";
  std::cout << f << ": ok (sweep '" << s.name << "', " << s.runs.size() << " valid runs of " << s.base
            << (varied.empty() ? "" : " varying " + varied) << ")\n";
  return exit_ok;
}

}  // namespace

void add_validate(CLI::App& app) {
  auto files = std::make_shared<std::vector<std::string>>();
  auto sets = std::make_shared<std::vector<std::string>>();
  CLI::App* cmd = app.add_subcommand("validate", "Check scenario files without simulating");
  cmd->add_option("files", *files, "Scenario files")->required();
  cmd->add_option("--set", *sets, "Override a scenario key as `ptsim run --set` does: dotted.path=value "
                                  "(repeatable; scenario files only)")
      ->type_name("KEY=VALUE")
      ->allow_extra_args(false);
  cmd->callback([files, sets] {
    int rc = exit_ok;
    for (const auto& f : *files) {
      try {
        if (scenarios::is_sweep_file(f)) {
          if (!sets->empty()) {
            std::cerr << f << ": --set applies to scenario files; a sweep file varies its base itself\n";
            rc = exit_bad_input;
            continue;
          }
          if (validate_sweep(f) != exit_ok) rc = exit_bad_input;
          continue;
        }
        scenarios::load_options opts;
        for (const auto& s : *sets) opts.overrides.push_back(scenarios::parse_override(s));
        opts.emit_resolved_yaml = false;  // not shown, and it would cost as much as the parse
        const auto sc = scenarios::load_scenario_file(f, opts);
        for (const auto& w : sc.warnings) std::cerr << w.to_string() << "\n";
        std::size_t comps = sc.platform.units.size() + sc.platform.interconnects.size() + sc.platform.memories.size();
        std::cout << f << ": ok (scenario '" << sc.name << "', " << comps << " components, " << sc.domains.size()
                  << " DVFS domains, " << sc.workload.streams.size() << " streams, "
                  << sc.thermal.fp.size() << " floorplan blocks)\n";
        // What a run of it would cost, and the bounds `ptsim run` would refuse it for
        // (the file bound measured against the free space of the current folder).
        const run_estimate est = estimate_run(sc, postproc::default_ops_limit);
        std::cout << f << ": " << describe(est) << "\n";
        for (const auto& m : exceeded_limits(est, sc, "x.h5")) std::cerr << f << ": warning: `ptsim run` would refuse it: " << m << "\n";
      } catch (const scenarios::scenario_error& e) {
        std::cerr << e.what() << "\n";
        rc = exit_bad_input;
      }
    }
    if (rc != exit_ok) throw CLI::RuntimeError(rc);
  });
}

}  // namespace ptsim::cosim::cli
