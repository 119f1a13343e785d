#pragma once
// "Did you mean" hints: the valid name closest to a misspelt one, by edit distance.
// One implementation for every module that names what it expected (scenario keys,
// governors and their tunables, HotSpot options).
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace ptsim::text {

/// Levenshtein distance: the fewest single-character insertions, deletions and
/// substitutions that turn `a` into `b` (byte-wise).
std::size_t edit_distance(std::string_view a, std::string_view b);

/// How many edits a misspelling of `given` may be from a name and still be suggested:
/// 2, or a third of its length for names longer than 8 characters.
std::size_t suggestion_distance(std::string_view given);

/// The first of `names` closest to `given`, if it is within `max_distance` edits; else "".
std::string nearest_name(std::string_view given, const std::vector<std::string>& names,
                         std::size_t max_distance);

/// nearest_name() within suggestion_distance(given).
std::string nearest_name(std::string_view given, const std::vector<std::string>& names);

}  // namespace ptsim::text
