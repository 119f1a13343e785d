#pragma once
// Internal: the rule every command that writes a named output file follows before
// writing it (`run -o`, `floorplan -o`).
#include <string>

namespace ptsim::cosim::cli {

/// False when `output` exists and --force was not given, after saying so on stderr:
/// "ptsim COMMAND: OUTPUT exists; refusing to overwrite it (use --force)".
bool may_write_output(const std::string& command, const std::string& output, bool force);

}  // namespace ptsim::cosim::cli
