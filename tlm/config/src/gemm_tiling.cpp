#include "ptsim/tlm_config/gemm_tiling.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace ptsim::tlm_config {

gemm_tile parse_gemm_tile(const std::string& s) {
  const auto x = s.find('x');
  auto side = [&](const std::string& part) {
    if (part.empty() || part.find_first_not_of("0123456789") != std::string::npos || part.size() > 4)
      throw std::invalid_argument("expected a tile as ROWSxCOLUMNS such as 128x256, found '" + s + "'");
    const int v = std::stoi(part);
    if (v < 1 || v > 4096)
      throw std::invalid_argument("a tile side is 1 .. 4096, found " + part + " in '" + s + "'");
    return v;
  };
  if (x == std::string::npos)
    throw std::invalid_argument("expected a tile as ROWSxCOLUMNS such as 128x256, found '" + s + "'");
  return {side(s.substr(0, x)), side(s.substr(x + 1))};
}

std::string to_string(gemm_tile t) { return std::to_string(t.m) + "x" + std::to_string(t.n); }

std::vector<gemm_tile> default_gemm_tiles() { return {{128, 256}, {256, 128}, {128, 128}, {128, 64}, {64, 128}, {64, 64}}; }

gemm_launch fastest_tiling(const gemm_tiling& t, double m, double n, double k, double batch, int sms,
                           double ops_per_cycle, double element_bytes, double share) {
  gemm_launch best;
  best.cycles = INFINITY;
  const double feed = t.operand_bytes_per_cycle;
  for (const gemm_tile& tile : t.tiles) {
    const double tm = tile.m, tn = tile.n;
    const double per_k = std::max(2 * tm * tn / ops_per_cycle, (tm + tn) * element_bytes / feed) / share;
    const double tiles = std::ceil(m / tm) * std::ceil(n / tn) * batch;
    for (int s = 1; s <= t.max_split_k; s *= 2) {
      if (s > 1 && k / s < t.min_split_depth) break;
      const double waves = std::ceil(tiles * s / sms);
      const double wave = per_k * std::ceil(k / s) + t.wave_cycles + (s - 1) * 8 * tm * tn / feed;
      const double cycles = waves * wave;
      if (cycles < best.cycles) best = {tile, s, waves, cycles};
    }
  }
  return best;
}

}  // namespace ptsim::tlm_config
