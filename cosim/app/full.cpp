// ptsim-full.so: the full `ptsim` command line (main_cli), with SystemC, HDF5 and MPI.
// The `ptsim` executable (app/main.cpp) loads it with dlopen for every command it does not
// run itself; see there. Linked with --exclude-libs=ALL: only these two symbols are
// exported, so the module's copies of the ptsim libraries bind to themselves.
#include <systemc>

#include "ptsim/cosim/cli.hpp"

extern "C" __attribute__((visibility("default"))) int ptsim_full_main(int argc, char** argv) {
  return ptsim::cosim::main_cli(argc, argv);
}

// libsystemc's own entry point refers to sc_main. ptsim starts the kernel itself with
// sc_start (and only for `run`), so this is never called; it reports that if it were.
int sc_main(int, char**) { return 2; }
