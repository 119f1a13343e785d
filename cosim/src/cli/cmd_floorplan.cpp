// ptsim floorplan SCENARIO [-o OUT.flp] [--set K=V]... [--force]: the scenario's resolved die
// floorplan (explicit, or generated from thermal.layout) as a HotSpot .flp.
#include <filesystem>
#include <fstream>
#include <iostream>

#include "commands.hpp"
#include "output_file.hpp"
#include "ptsim/scenarios/scenario.hpp"
#include "ptsim/thermal/flp_format.hpp"

namespace ptsim::cosim::cli {
namespace fs = std::filesystem;

namespace {

struct floorplan_args {
  std::string scenario;
  std::string output;
  std::vector<std::string> sets;
  bool force = false;
};

int export_floorplan(const floorplan_args& a) {
  scenarios::load_options lo;
  scenarios::scenario sc;
  try {
    for (const auto& s : a.sets) lo.overrides.push_back(scenarios::parse_override(s));
    sc = scenarios::load_scenario_file(a.scenario, lo);
  } catch (const scenarios::scenario_error& e) {
    std::cerr << e.what() << "\n";
    return exit_bad_input;
  }
  if (a.output.empty()) {
    try {
      thermal::write_flp(std::cout, sc.thermal.fp);
    } catch (const std::exception& e) {
      std::cerr << "ptsim floorplan: " << e.what() << "\n";
      return exit_failed;
    }
    return std::cout ? exit_ok : exit_failed;
  }
  postproc::install_cleanup_handlers();  // from the claim on, a signal removes the .part and ends
  auto out = claim_output("floorplan", a.output, postproc::output_rules{a.force, true, false});
  if (!out) return exit_bad_input;
  try {
    thermal::write_flp(out->stream(), sc.thermal.fp);
    out->commit();  // written beside the target and renamed: a failure leaves no partial file
  } catch (const std::exception& e) {
    out->abandon();
    std::cerr << "ptsim floorplan: " << e.what() << "\n";
    return exit_failed;
  }
  return exit_ok;
}

}  // namespace

void add_floorplan(CLI::App& app) {
  auto a = std::make_shared<floorplan_args>();
  CLI::App* cmd = app.add_subcommand("floorplan", "Write a scenario's die floorplan as a HotSpot .flp");
  cmd->add_option("scenario", a->scenario, "Scenario file")->required();
  cmd->add_option("-o,--output", a->output, "Output .flp (default: standard output)");
  cmd->add_option("--set", a->sets, "Override a scenario key: dotted.path=value (repeatable)")
      ->type_name("KEY=VALUE")
      ->allow_extra_args(false);
  cmd->add_flag("--force", a->force, "Overwrite an existing output file (a regular file only)");
  cmd->callback([a] {
    const int rc = export_floorplan(*a);
    if (rc != exit_ok) throw CLI::RuntimeError(rc);
  });
}

}  // namespace ptsim::cosim::cli
