// ptsim: power, thermal and performance co-simulation of ML systems.
#include <systemc>

#include "ptsim/cosim/cli.hpp"

int main(int argc, char** argv) { return ptsim::cosim::main_cli(argc, argv); }

// libsystemc's own entry point refers to sc_main. ptsim starts the kernel itself with
// sc_start (and only for `run`), so this is never called; it reports that if it were.
int sc_main(int, char**) { return 2; }
