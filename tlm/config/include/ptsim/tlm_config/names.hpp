#pragma once
// Names of a closed set of values (precisions, operator kinds, fusion rule sets, CSV columns):
// listed in messages that say what is accepted, and parsed back from them. One home so that a
// list and its parser cannot drift apart.
#include <cstddef>
#include <stdexcept>
#include <string>
#include <vector>

namespace ptsim::tlm_config {

/// "a, b, c".
inline std::string join_names(const std::vector<std::string>& names) {
  std::string s;
  for (const auto& n : names) s += (s.empty() ? "" : ", ") + n;
  return s;
}

/// Each value's to_string, in the order of `all`.
template <class E, std::size_t N>
std::vector<std::string> names_of(const E (&all)[N]) {
  std::vector<std::string> names;
  for (E e : all) names.emplace_back(to_string(e));
  return names;
}

/// The value of `all` whose to_string is `s`; otherwise std::invalid_argument naming `what`
/// and every accepted name.
template <class E, std::size_t N>
E parse_named(const std::string& s, const E (&all)[N], const char* what) {
  for (E e : all)
    if (s == to_string(e)) return e;
  throw std::invalid_argument("unknown " + std::string(what) + " '" + s + "' (expected " + join_names(names_of(all)) +
                              ")");
}

}  // namespace ptsim::tlm_config
