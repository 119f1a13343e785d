#pragma once
// Internal: a fast reader for the YAML that scenario files are written in.
//
// yaml-cpp's scanner matches a regular expression per character (~1,200 instructions a
// byte): 62 % of `ptsim validate`'s instructions went there (bench/RESULTS.md,
// "Start-up"). This reader builds the very tree YAML::Load builds (the same node types,
// scalars, tags, styles, key order and marks, so diagnostics keep their line:column) for
// the common subset: block mappings and sequences, flow collections, plain and quoted
// scalars on one line, comments. For anything outside it (anchors, tags, block scalars,
// multi-line scalars, empty values, escapes, documents, tabs, deep nesting, ...) it gives up and yaml-cpp
// reads the text, which is also what reports syntax errors.
#include <yaml-cpp/yaml.h>

#include <optional>
#include <string>
#include <string_view>

namespace ptsim::scenarios::detail {

/// The tree YAML::Load(text) returns, when the text stays within the subset; nullopt otherwise.
std::optional<YAML::Node> load_yaml_subset(std::string_view text);

/// load_yaml_subset, else YAML::Load (which throws YAML::ParserException on bad syntax).
YAML::Node load_yaml(const std::string& text);

}  // namespace ptsim::scenarios::detail
