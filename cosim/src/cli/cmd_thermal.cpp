// `ptsim thermal`: HotSpot 7-compatible trace simulation. It parses its own single-dash
// `-name value` options (CLI11 cannot declare `-steady_file`) and writes its own --help;
// main_cli hands it argv before CLI11 parses. No SystemC: the kernel never starts.
#include <iostream>
#include <string>
#include <vector>

#include "commands.hpp"
#include "ptsim/thermal/hotspot_run.hpp"

namespace ptsim::cosim::cli {

void add_thermal(CLI::App& app) {
  // Registered so that `ptsim --help` lists it; main_cli intercepts `ptsim thermal ...` first.
  CLI::App* sub = app.add_subcommand(
      "thermal", "HotSpot-compatible thermal simulation: -f FLP -p PTRACE [-o TTRACE] [-c CONFIG] "
                 "[-steady_file F] [-model_type block|grid] ... (ptsim thermal --help)");
  sub->allow_extras();
  sub->prefix_command();
  sub->callback([sub] {
    std::vector<std::string> args = sub->remaining();
    const int rc = thermal::run_hotspot_cli(args, std::cout, std::cerr);
    if (rc != 0) throw CLI::RuntimeError(rc);
  });
}

int run_thermal(int argc, char** argv) {
  const std::vector<std::string> args(argv, argv + argc);
  return thermal::run_hotspot_cli(args, std::cout, std::cerr);
}

}  // namespace ptsim::cosim::cli
