#pragma once
// Internal: one function per subcommand, registered on the CLI11 app.
#include <CLI/CLI.hpp>
#include <exception>
#include <filesystem>
#include <iostream>

#include "ptsim/postproc/output_file.hpp"
#include "ptsim/postproc/trace.hpp"

namespace ptsim::cosim::cli {
void add_run(CLI::App& app);
void add_report(CLI::App& app);
void add_trace(CLI::App& app);
void add_validate(CLI::App& app);
void add_list(CLI::App& app);
void add_schema(CLI::App& app);
void add_sweep(CLI::App& app);
void add_thermal(CLI::App& app);
void add_floorplan(CLI::App& app);
void add_compare(CLI::App& app);
void add_calibrate(CLI::App& app);
/// `ptsim thermal ARGS...` (argv after the subcommand): HotSpot-style options, parsed by thermal.
int run_thermal(int argc, char** argv);

/// Exit codes.
inline constexpr int exit_ok = 0, exit_failed = 1, exit_bad_input = 2;

/// The top-level app's description (the first line of `ptsim --help`).
inline constexpr const char* app_description =
    "ptsim: power, thermal and performance co-simulation of ML systems";

/// Parses argv with `app` (the top level, its subcommands added) and runs the chosen
/// subcommand; reports CLI11's errors. Returns the exit code. Shared by main_cli and the
/// start-up front end (app/main.cpp), which parses `validate` itself with the same app.
inline int parse_and_run(CLI::App& app, int argc, char** argv) {
  try {
    app.parse(argc, argv);
  } catch (const CLI::RuntimeError& e) {  // a subcommand's own failure, already reported
    return e.get_exit_code();
  } catch (const CLI::ParseError& e) {
    const int rc = app.exit(e);
    return rc == 0 ? 0 : exit_bad_input;
  } catch (const std::exception& e) {
    std::cerr << "ptsim: error: " << e.what() << "\n";
    return exit_failed;
  }
  return exit_ok;
}

/// Writes the trace of a result file to the claimed output `out` and commits it; reports
/// errors on stderr (and abandons `out`). Returns an exit code. Used by `trace` and by
/// `run --trace`.
int write_trace_file(const std::filesystem::path& result, postproc::output_file& out,
                     const postproc::trace_options& opt);

/// Folders searched for the scenario library, in order.
std::vector<std::string> scenario_dirs();
}  // namespace ptsim::cosim::cli
