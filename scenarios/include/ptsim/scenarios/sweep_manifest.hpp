#pragma once
// The file that ties a sweep folder to one sweep (DIR/sweep.yaml): where the sweep file
// was, the sweep's identity (sweep_identity: its text and its base scenario's text), and
// a copy of the sweep file's text, so that `ptsim sweep --merge DIR` needs nothing outside
// DIR, and shards of one sweep recognise each other's folder.
#include <cstddef>
#include <string>

#include "ptsim/scenarios/sweep.hpp"

namespace ptsim::scenarios {

struct sweep_manifest {
  std::string source;    ///< absolute path of the sweep file
  std::string identity;  ///< sweep_identity() of the sweep
  std::size_t runs = 0;  ///< how many runs it expands to
  std::string text;      ///< the sweep file's text
};

/// The manifest as YAML text.
std::string manifest_yaml(const sweep_manifest& m);
/// Parses manifest text; throws scenario_error naming `origin` when it is not one.
sweep_manifest parse_manifest(const std::string& yaml_text, const std::string& origin);
/// The sweep a manifest describes, expanded from its copy of the sweep file (whose
/// relative base path resolves against `source`'s folder).
sweep_spec manifest_sweep(const sweep_manifest& m);

}  // namespace ptsim::scenarios
