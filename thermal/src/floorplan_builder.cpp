#include "ptsim/thermal/floorplan_builder.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <set>
#include <stdexcept>

namespace ptsim::thermal {

namespace {

struct rect {
  double x, y, w, h;
};

// How far a w x h rectangle is from aspect `want` (0 when equal), symmetric in the ratio.
double misfit(double w, double h, double want) { return std::abs(std::log(w / h / want)); }

struct slicer {
  const std::vector<floorplan_component>& items;  // sorted largest first
  std::vector<block>& out;

  double area(std::size_t a, std::size_t b) const {
    double s = 0;
    for (std::size_t i = a; i < b; ++i) s += items[i].area_m2;
    return s;
  }
  // Score of placing items [a, b) in a w x h piece, looking one level ahead.
  double score(std::size_t a, std::size_t b, double w, double h) const {
    return b - a == 1 ? misfit(w, h, items[a].aspect) : misfit(w, h, 1.0);
  }

  void place(std::size_t a, std::size_t b, rect r) {
    if (b - a == 1) {
      out.push_back({items[a].name, r.w, r.h, r.x, r.y});
      return;
    }
    const double total = area(a, b);
    double best = INFINITY;
    std::size_t best_k = a + 1;
    bool best_vertical = true;
    double left = 0;
    for (std::size_t k = a + 1; k < b; ++k) {
      left += items[k - 1].area_m2;
      const double f = left / total;
      for (bool vertical : {true, false}) {
        // vertical: a vertical cut, pieces side by side; else one above the other.
        const double s = vertical ? score(a, k, r.w * f, r.h) + score(k, b, r.w * (1 - f), r.h)
                                  : score(a, k, r.w, r.h * f) + score(k, b, r.w, r.h * (1 - f));
        if (s < best - 1e-12) {
          best = s;
          best_k = k;
          best_vertical = vertical;
        }
      }
    }
    const double f = area(a, best_k) / total;
    if (best_vertical) {
      const double w1 = r.w * f;
      place(a, best_k, {r.x, r.y, w1, r.h});
      place(best_k, b, {r.x + w1, r.y, r.w - w1, r.h});
    } else {
      const double h1 = r.h * f;
      place(a, best_k, {r.x, r.y + r.h - h1, r.w, h1});  // first group on top
      place(best_k, b, {r.x, r.y, r.w, r.h - h1});
    }
  }
};

}  // namespace

floorplan build_floorplan(const std::vector<floorplan_component>& components, const floorplan_options& o) {
  if (components.empty()) throw std::invalid_argument("build_floorplan: no components");
  if (!(o.die_aspect > 0) || !std::isfinite(o.die_aspect))
    throw std::invalid_argument("build_floorplan: die_aspect must be positive");
  if (!(o.whitespace >= 0 && o.whitespace < 1))
    throw std::invalid_argument("build_floorplan: whitespace must be in [0, 1)");
  std::set<std::string> names;
  std::vector<floorplan_component> items = components;
  double used = 0;
  for (const auto& c : items) {
    if (!(c.area_m2 > 0) || !std::isfinite(c.area_m2))
      throw std::invalid_argument("build_floorplan: component '" + c.name + "' needs a positive area");
    if (!(c.aspect > 0) || !std::isfinite(c.aspect))
      throw std::invalid_argument("build_floorplan: component '" + c.name + "' needs a positive aspect ratio");
    if (!names.insert(c.name).second)
      throw std::invalid_argument("build_floorplan: duplicate component '" + c.name + "'");
    used += c.area_m2;
  }
  if (o.whitespace > 0) {
    // White space as a few square-ish blocks, so that slicing can tuck them anywhere.
    const double spare = used * o.whitespace / (1 - o.whitespace);
    const int pieces = std::max(1, static_cast<int>(std::lround(std::sqrt(static_cast<double>(items.size())) / 2)));
    for (int k = 0; k < pieces; ++k) {
      const std::string n = "whitespace_" + std::to_string(k);
      if (names.count(n)) throw std::invalid_argument("build_floorplan: a component is named '" + n + "'");
      items.push_back({n, spare / pieces, 1.0});
    }
    used += spare;
  }
  std::stable_sort(items.begin(), items.end(),
                   [](const floorplan_component& a, const floorplan_component& b) { return a.area_m2 > b.area_m2; });
  const double h = std::sqrt(used / o.die_aspect), w = used / h;
  std::vector<block> blocks;
  slicer{items, blocks}.place(0, items.size(), {o.origin_x_m, o.origin_y_m, w, h});
  // Report in the caller's order (white space last).
  std::vector<block> ordered;
  for (const auto& c : components)
    for (const block& b : blocks)
      if (b.name == c.name) ordered.push_back(b);
  for (const block& b : blocks)
    if (b.name.rfind("whitespace_", 0) == 0 && !std::count_if(components.begin(), components.end(),
                                                               [&](const auto& c) { return c.name == b.name; }))
      ordered.push_back(b);
  return floorplan(std::move(ordered));
}

}  // namespace ptsim::thermal
