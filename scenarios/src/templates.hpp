#pragma once
// Internal: `templates:`, `use:` and `for VAR in RANGE:` — repetition written once, expanded
// in the raw YAML tree (after extends, before validation) so that the schema, --set,
// sweeps and line:column diagnostics see ordinary keys.
#include <yaml-cpp/yaml.h>

#include <string>

#include "yaml_tree.hpp"

namespace ptsim::scenarios::detail {

/// True for a --set path that names a template (`templates.NAME...`): it is applied to the
/// raw tree before expansion, so that every instance of the template sees it.
bool is_template_path(const std::string& path);

/// Applies a `templates.NAME.KEY...=VALUE` override to the unexpanded tree. Reports an
/// unknown template or a path through a value to o.sink and returns false.
bool apply_template_override(YAML::Node& root, const override_kv& kv, const origin& o);

/// Returns `root` with templates used and loops unrolled, and `templates:` dropped. Nodes
/// outside loops and template uses are the original ones (their marks intact); the nodes it
/// makes are recorded in o.expansions, so that diagnostics about them name the template's
/// file:line:column and the instance. Reports problems to o.sink.
YAML::Node expand_templates(const YAML::Node& root, origin& o);

}  // namespace ptsim::scenarios::detail
