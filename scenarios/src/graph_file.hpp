#pragma once
// A stage's custom operator graph (`graph: FILE.yaml`): its own schema, checked with the
// scenario's machinery, so its errors name the graph file's line and column.
#include <filesystem>
#include <string>

#include "ptsim/scenarios/schema.hpp"
#include "ptsim/tlm_config/op.hpp"

namespace ptsim::scenarios::detail {

/// The graph file's format: a name and a list of operators.
schema_ptr graph_schema();

/// Reads a graph file; false with `error` (file:line:column: path: message, the first
/// problem) when it cannot be read or is not a valid graph.
bool read_graph(const std::filesystem::path& path, tlm_config::precision prec, tlm_config::op_graph& g, std::string& error);

}  // namespace ptsim::scenarios::detail
