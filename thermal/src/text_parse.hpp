#pragma once
// Private: the small text helpers every HotSpot format reader shares.
#include <charconv>
#include <cmath>
#include <string>
#include <string_view>
#include <vector>

namespace ptsim::thermal::detail {

inline bool is_blank(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f' || c == '\n'; }

/// Splits a line into words on blanks and tabs ('\r' too, for files edited on Windows).
inline void split_words(std::string_view line, std::vector<std::string>& out) {
  out.clear();
  std::size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && is_blank(line[i])) ++i;
    const std::size_t start = i;
    while (i < line.size() && !is_blank(line[i])) ++i;
    if (i > start) out.emplace_back(line.substr(start, i - start));
  }
}

/// Parses a whole word as a finite double (C locale; a leading '+' allowed, as scanf does).
inline bool parse_double(std::string_view w, double& v) {
  if (!w.empty() && w.front() == '+') w.remove_prefix(1);
  const char* end = w.data() + w.size();
  const auto [ptr, ec] = std::from_chars(w.data(), end, v);
  return ec == std::errc() && ptr == end && std::isfinite(v);
}

/// Parses a whole word as an int (a leading '+' allowed).
inline bool parse_int(std::string_view w, int& v) {
  if (!w.empty() && w.front() == '+') w.remove_prefix(1);
  const char* end = w.data() + w.size();
  const auto [ptr, ec] = std::from_chars(w.data(), end, v);
  return ec == std::errc() && ptr == end;
}

}  // namespace ptsim::thermal::detail
