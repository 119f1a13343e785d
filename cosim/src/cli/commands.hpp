#pragma once
// Internal: one function per subcommand, registered on the CLI11 app.
#include <CLI/CLI.hpp>

namespace ptsim::cosim::cli {
void add_run(CLI::App& app);
void add_report(CLI::App& app);
void add_validate(CLI::App& app);
void add_list(CLI::App& app);
void add_schema(CLI::App& app);

/// Exit codes.
inline constexpr int exit_ok = 0, exit_failed = 1, exit_bad_input = 2;

/// Folders searched for the scenario library, in order.
std::vector<std::string> scenario_dirs();
}  // namespace ptsim::cosim::cli
