#pragma once
// Blanks off both ends of a piece of text.
#include <string>

namespace ptsim::text {

/// `s` without leading and trailing spaces and tabs.
inline std::string trim(const std::string& s) {
  const auto b = s.find_first_not_of(" \t");
  if (b == std::string::npos) return {};
  return s.substr(b, s.find_last_not_of(" \t") - b + 1);
}

}  // namespace ptsim::text
