#include <csignal>
#include <cstdlib>
#include <iostream>

#include "commands.hpp"
#include "ptsim/cosim/cli.hpp"
#include "ptsim/cosim/run.hpp"
#include "ptsim/postproc/hdf5_library.hpp"

namespace ptsim::cosim {

int main_cli(int argc, char** argv) {
  // SystemC prints a banner on stdout when its kernel starts; stdout is ptsim's own.
  setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 1);
  // A full disk or a file-size limit must surface as a write error (and a clean exit
  // that removes the partial file), not as a kill by SIGXFSZ.
  std::signal(SIGXFSZ, SIG_IGN);
  postproc::prepare_hdf5_library();
  // HotSpot's single-dash options (-steady_file) are not CLI11's: thermal parses its own.
  if (argc >= 2 && std::string(argv[1]) == "thermal") return cli::run_thermal(argc - 2, argv + 2);
  CLI::App app{cli::app_description};
  app.set_version_flag("--version", std::string("ptsim ") + version());
  app.require_subcommand(1);
  cli::add_run(app);
  cli::add_report(app);
  cli::add_trace(app);
  cli::add_validate(app);
  cli::add_list(app);
  cli::add_schema(app);
  cli::add_sweep(app);
  cli::add_thermal(app);
  cli::add_floorplan(app);
  cli::add_compare(app);
  cli::add_calibrate(app);
  return cli::parse_and_run(app, argc, argv);
}

}  // namespace ptsim::cosim
