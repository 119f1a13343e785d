// Token counts per request drawn from a histogram: the integers a bin holds, and the mean.
#include <cmath>

#include "ptsim/tlm_config/platform_config.hpp"

namespace ptsim::tlm_config {

std::pair<int, int> token_range::bin_integers(std::size_t i) const {
  const double a = edges[i], b = edges[i + 1];
  const bool last = i + 2 == edges.size();
  const int lo = static_cast<int>(std::ceil(a));
  // [a, b) but the last bin's upper edge is in it.
  int hi = static_cast<int>(last ? std::floor(b) : std::ceil(b) - 1);
  // A bin narrower than one integer (2.0 to 2.5) holds the integer nearest its lower edge.
  if (hi < lo) return {static_cast<int>(std::lround(a)), static_cast<int>(std::lround(a))};
  return {lo, hi};
}

double token_range::mean() const {
  if (edges.empty()) return 0.5 * (min + max);
  double m = 0, below = 0;
  for (std::size_t i = 0; i + 1 < edges.size(); ++i) {
    const auto [lo, hi] = bin_integers(i);
    m += (cumulative[i] - below) * 0.5 * (lo + hi);
    below = cumulative[i];
  }
  return m;
}

}  // namespace ptsim::tlm_config
