// ptsim validate SCENARIO.yaml...: every check, no simulation.
#include <iostream>

#include "commands.hpp"
#include "ptsim/scenarios/scenario.hpp"

namespace ptsim::cosim::cli {

void add_validate(CLI::App& app) {
  auto files = std::make_shared<std::vector<std::string>>();
  CLI::App* cmd = app.add_subcommand("validate", "Check scenario files without simulating");
  cmd->add_option("files", *files, "Scenario files")->required();
  cmd->callback([files] {
    int rc = exit_ok;
    for (const auto& f : *files) {
      try {
        const auto sc = scenarios::load_scenario_file(f);
        std::size_t comps = sc.platform.units.size() + sc.platform.interconnects.size() + sc.platform.memories.size();
        std::cout << f << ": ok (scenario '" << sc.name << "', " << comps << " components, " << sc.domains.size()
                  << " DVFS domains, " << sc.workload.streams.size() << " streams, "
                  << sc.thermal.fp.size() << " floorplan blocks)\n";
      } catch (const scenarios::scenario_error& e) {
        std::cerr << e.what() << "\n";
        rc = exit_bad_input;
      }
    }
    if (rc != exit_ok) throw CLI::RuntimeError(rc);
  });
}

}  // namespace ptsim::cosim::cli
