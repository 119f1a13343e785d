#pragma once
// Internal: every command that writes a named output claims it here first, under the one
// set of rules in ptsim/postproc/output_file.hpp (what may be replaced, the exclusive .part,
// the rename that commits). `run -o`, `run --trace`, `trace -o`, `floorplan -o`.
#include <optional>
#include <string>

#include "ptsim/postproc/output_file.hpp"

namespace ptsim::cosim::cli {

/// Claims `output` for `command`, or says why not on stderr ("ptsim COMMAND: out.h5 exists;
/// refusing to overwrite it (use --force)") and returns nullopt.
std::optional<postproc::output_file> claim_output(const std::string& command, const std::string& output,
                                                  const postproc::output_rules& rules);

}  // namespace ptsim::cosim::cli
