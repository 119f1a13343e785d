#pragma once
// The `ptsim` command line (CLI11): run, report, validate, list, schema.
namespace ptsim::cosim {
/// Parses arguments and runs the subcommand; returns the process exit code
/// (0 ok, 1 simulation failure, 2 bad input or usage).
int main_cli(int argc, char** argv);
}  // namespace ptsim::cosim
