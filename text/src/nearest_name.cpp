#include "ptsim/text/nearest_name.hpp"

#include <algorithm>

namespace ptsim::text {

std::size_t edit_distance(std::string_view a, std::string_view b) {
  // One row of the dynamic-programming table: row[j] = distance(a[0..i), b[0..j)).
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diag = row[0];  // distance(a[0..i-1), b[0..j-1))
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t up = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diag + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diag = up;
    }
  }
  return row[b.size()];
}

std::size_t suggestion_distance(std::string_view given) { return std::max<std::size_t>(2, given.size() / 3); }

std::string nearest_name(std::string_view given, const std::vector<std::string>& names, std::size_t max_distance) {
  const std::string* best = nullptr;
  std::size_t best_d = max_distance + 1;
  for (const std::string& n : names) {
    const std::size_t d = edit_distance(given, n);
    if (d < best_d) {  // strict: the first of equally close names wins
      best_d = d;
      best = &n;
    }
  }
  return best ? *best : std::string();
}

std::string nearest_name(std::string_view given, const std::vector<std::string>& names) {
  return nearest_name(given, names, suggestion_distance(given));
}

}  // namespace ptsim::text
