#pragma once
// Internal: the wording shared by scenario and sweep diagnostics: what a node was found
// to be, lists of valid choices, and "did you mean" hints.
#include <yaml-cpp/yaml.h>

#include <string>
#include <vector>

namespace ptsim::scenarios::detail {

/// What a diagnostic says it found: "a mapping", "a list", "nothing (null)", or the
/// scalar in quotes.
std::string found(const YAML::Node& n);

/// "a, b, c".
std::string list_choices(const std::vector<std::string>& choices);

/// " (did you mean 'x'?)" for the name nearest to `given`, or "" when none is close.
std::string did_you_mean(const std::string& given, const std::vector<std::string>& names);

/// "unknown key 'k'" with the nearest valid key, or the list of valid keys when none is close.
std::string unknown_key(const std::string& key, const std::vector<std::string>& valid);

}  // namespace ptsim::scenarios::detail
