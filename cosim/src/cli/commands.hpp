#pragma once
// Internal: one function per subcommand, registered on the CLI11 app.
#include <CLI/CLI.hpp>
#include <filesystem>

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
/// `ptsim thermal ARGS...` (argv after the subcommand): HotSpot-style options, parsed by thermal.
int run_thermal(int argc, char** argv);

/// Exit codes.
inline constexpr int exit_ok = 0, exit_failed = 1, exit_bad_input = 2;

/// Writes the trace of a result file to the claimed output `out` and commits it; reports
/// errors on stderr (and abandons `out`). Returns an exit code. Used by `trace` and by
/// `run --trace`.
int write_trace_file(const std::filesystem::path& result, postproc::output_file& out,
                     const postproc::trace_options& opt);

/// Folders searched for the scenario library, in order.
std::vector<std::string> scenario_dirs();
}  // namespace ptsim::cosim::cli
