#include "ptsim/thermal/floorplan_builder.hpp"

#include <algorithm>
#include <cmath>
#include <map>
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

// Whether two rectangles share an edge segment of positive length (tolerance relative to size).
bool touch(const rect& a, const rect& b) {
  const double eps = 1e-9 * std::max({a.w, a.h, b.w, b.h});
  const double y_overlap = std::min(a.y + a.h, b.y + b.h) - std::max(a.y, b.y);
  const double x_overlap = std::min(a.x + a.w, b.x + b.w) - std::max(a.x, b.x);
  const bool vertical_edge = std::abs(a.x + a.w - b.x) < eps || std::abs(b.x + b.w - a.x) < eps;
  const bool horizontal_edge = std::abs(a.y + a.h - b.y) < eps || std::abs(b.y + b.h - a.y) < eps;
  return (vertical_edge && y_overlap > eps) || (horizontal_edge && x_overlap > eps);
}

// Penalties: a requested pair kept apart outweighs any aspect misfit; separating a pair by a
// cut (which still lets both touch the cut line) costs less, so groups stay together.
constexpr double apart_penalty = 1e6;
constexpr double cut_penalty = 1e3;

struct slicer {
  const std::vector<floorplan_component>& items;
  const std::vector<std::vector<std::size_t>>& partners;  // requested neighbours, by position
  std::vector<rect> region;  // where each item is confined so far (its final block once placed)

  double area(std::size_t a, std::size_t b) const {
    double s = 0;
    for (std::size_t i = a; i < b; ++i) s += items[i].area_m2;
    return s;
  }
  double shape(std::size_t a, std::size_t b, double w, double h) const {
    return b - a == 1 ? misfit(w, h, items[a].aspect) : misfit(w, h, 1.0);
  }
  // Neighbour penalties of confining [a, k) to r1 and [k, b) to r2.
  double neighbour_cost(std::size_t a, std::size_t k, std::size_t b, const rect& r1, const rect& r2) const {
    double s = 0;
    for (std::size_t i = a; i < b; ++i) {
      const rect& mine = i < k ? r1 : r2;
      for (std::size_t j : partners[i]) {
        if (j >= a && j < b) {
          if ((i < k) != (j < k) && i < j) s += cut_penalty;
        } else if (!touch(mine, region[j])) {
          s += apart_penalty;
        }
      }
    }
    return s;
  }

  void confine(std::size_t a, std::size_t b, const rect& r) {
    for (std::size_t i = a; i < b; ++i) region[i] = r;
  }

  void place(std::size_t a, std::size_t b, rect r) {
    confine(a, b, r);
    if (b - a == 1) return;
    const double total = area(a, b);
    double best = INFINITY;
    std::size_t best_k = a + 1;
    bool best_vertical = true;
    double left = 0;
    for (std::size_t k = a + 1; k < b; ++k) {
      left += items[k - 1].area_m2;
      const double f = left / total;
      for (bool vertical : {true, false}) {
        // vertical: a vertical cut, pieces side by side; else the first group on top.
        const rect r1 = vertical ? rect{r.x, r.y, r.w * f, r.h} : rect{r.x, r.y + r.h * (1 - f), r.w, r.h * f};
        const rect r2 = vertical ? rect{r.x + r.w * f, r.y, r.w * (1 - f), r.h} : rect{r.x, r.y, r.w, r.h * (1 - f)};
        const double s = shape(a, k, r1.w, r1.h) + shape(k, b, r2.w, r2.h) + neighbour_cost(a, k, b, r1, r2);
        if (s < best - 1e-12) {
          best = s;
          best_k = k;
          best_vertical = vertical;
        }
      }
    }
    const double f = area(a, best_k) / total;
    rect r1, r2;
    if (best_vertical) {
      const double w1 = r.w * f;
      r1 = {r.x, r.y, w1, r.h};
      r2 = {r.x + w1, r.y, r.w - w1, r.h};
    } else {
      const double h1 = r.h * f;
      r1 = {r.x, r.y + r.h - h1, r.w, h1};
      r2 = {r.x, r.y, r.w, r.h - h1};
    }
    // Confine both halves before placing either, so the first sees where the second's items lie.
    confine(a, best_k, r1);
    confine(best_k, b, r2);
    place(a, best_k, r1);
    place(best_k, b, r2);
  }
};

// Requested pairs as index lists, symmetric, over `items`.
std::vector<std::vector<std::size_t>> partner_lists(const std::vector<floorplan_component>& items) {
  std::map<std::string, std::size_t> at;
  for (std::size_t i = 0; i < items.size(); ++i) at[items[i].name] = i;
  std::vector<std::set<std::size_t>> p(items.size());
  for (std::size_t i = 0; i < items.size(); ++i)
    for (const auto& n : items[i].next_to) {
      const auto it = at.find(n);
      if (it == at.end())
        throw std::invalid_argument("build_floorplan: component '" + items[i].name + "' is next_to '" + n +
                                    "', which is not a component");
      if (it->second == i)
        throw std::invalid_argument("build_floorplan: component '" + items[i].name + "' is next_to itself");
      p[i].insert(it->second);
      p[it->second].insert(i);
    }
  std::vector<std::vector<std::size_t>> out;
  for (const auto& s : p) out.emplace_back(s.begin(), s.end());
  return out;
}

bool by_area(const floorplan_component& a, const floorplan_component& b) { return a.area_m2 > b.area_m2; }

// The list order for one attempt: hinted groups contiguous, groups largest first, inside a group
// breadth-first from its `root_rank`-th largest member (modulo the group's size).
std::vector<floorplan_component> ordered(const std::vector<floorplan_component>& items, std::size_t root_rank) {
  std::vector<floorplan_component> sorted = items;
  std::stable_sort(sorted.begin(), sorted.end(), by_area);
  const auto partners = partner_lists(sorted);  // indices into `sorted`, ascending = larger first
  std::vector<int> group(sorted.size(), -1);
  std::vector<std::vector<std::size_t>> groups;
  for (std::size_t s = 0; s < sorted.size(); ++s) {
    if (group[s] >= 0) continue;
    std::vector<std::size_t> members{s};
    group[s] = static_cast<int>(groups.size());
    for (std::size_t q = 0; q < members.size(); ++q)
      for (std::size_t j : partners[members[q]])
        if (group[j] < 0) {
          group[j] = group[s];
          members.push_back(j);
        }
    std::sort(members.begin(), members.end());
    groups.push_back(members);
  }
  std::vector<double> group_area(groups.size(), 0);
  for (std::size_t g = 0; g < groups.size(); ++g)
    for (std::size_t m : groups[g]) group_area[g] += sorted[m].area_m2;
  std::vector<std::size_t> order_of_groups(groups.size());
  std::iota(order_of_groups.begin(), order_of_groups.end(), 0);
  std::stable_sort(order_of_groups.begin(), order_of_groups.end(),
                   [&](std::size_t x, std::size_t y) { return group_area[x] > group_area[y]; });
  std::vector<floorplan_component> out;
  std::vector<bool> seen(sorted.size(), false);
  for (std::size_t g : order_of_groups) {
    const auto& m = groups[g];
    std::vector<std::size_t> bfs{m[root_rank % m.size()]};
    seen[bfs[0]] = true;
    for (std::size_t q = 0; q < bfs.size(); ++q)
      for (std::size_t j : partners[bfs[q]])  // larger partners first
        if (!seen[j]) {
          seen[j] = true;
          bfs.push_back(j);
        }
    for (std::size_t i : bfs) out.push_back(sorted[i]);
  }
  return out;
}

struct attempt {
  std::vector<block> blocks;
  std::size_t apart = 0;
  double misfit_sum = 0;
};

attempt slice(const std::vector<floorplan_component>& items, const rect& die) {
  const auto partners = partner_lists(items);
  slicer s{items, partners, std::vector<rect>(items.size(), die)};
  s.place(0, items.size(), die);
  attempt a;
  for (std::size_t i = 0; i < items.size(); ++i) {
    const rect& r = s.region[i];
    a.blocks.push_back({items[i].name, r.w, r.h, r.x, r.y});
    a.misfit_sum += misfit(r.w, r.h, items[i].aspect);
    for (std::size_t j : partners[i])
      if (i < j && !touch(r, s.region[j])) ++a.apart;
  }
  return a;
}

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
  bool hinted = false;
  for (const auto& c : items) {
    if (!(c.area_m2 > 0) || !std::isfinite(c.area_m2))
      throw std::invalid_argument("build_floorplan: component '" + c.name + "' needs a positive area");
    if (!(c.aspect > 0) || !std::isfinite(c.aspect))
      throw std::invalid_argument("build_floorplan: component '" + c.name + "' needs a positive aspect ratio");
    if (!names.insert(c.name).second)
      throw std::invalid_argument("build_floorplan: duplicate component '" + c.name + "'");
    used += c.area_m2;
    hinted = hinted || !c.next_to.empty();
  }
  partner_lists(items);  // validates the hints
  if (o.whitespace > 0) {
    // White space as a few square-ish blocks, so that slicing can tuck them anywhere.
    const double spare = used * o.whitespace / (1 - o.whitespace);
    const int pieces = std::max(1, static_cast<int>(std::lround(std::sqrt(static_cast<double>(items.size())) / 2)));
    for (int k = 0; k < pieces; ++k) {
      const std::string n = "whitespace_" + std::to_string(k);
      if (names.count(n)) throw std::invalid_argument("build_floorplan: a component is named '" + n + "'");
      items.push_back({n, spare / pieces, 1.0, {}});
    }
    used += spare;
  }
  const double h = std::sqrt(used / o.die_aspect), w = used / h;
  const rect die{o.origin_x_m, o.origin_y_m, w, h};
  // Without hints one attempt in plain largest-first order; with hints one per root choice.
  const std::size_t roots = hinted ? items.size() : 1;
  attempt best;
  bool have = false;
  for (std::size_t r = 0; r < roots; ++r) {
    attempt a = slice(ordered(items, r), die);
    if (!have || a.apart < best.apart || (a.apart == best.apart && a.misfit_sum < best.misfit_sum - 1e-12)) {
      best = std::move(a);
      have = true;
    }
  }
  // Report in the caller's order (white space last).
  std::vector<block> result;
  for (const auto& c : components)
    for (const block& b : best.blocks)
      if (b.name == c.name) result.push_back(b);
  for (std::size_t i = components.size(); i < items.size(); ++i)
    for (const block& b : best.blocks)
      if (b.name == items[i].name) result.push_back(b);
  return floorplan(std::move(result));
}

std::vector<std::pair<std::string, std::string>> unmet_neighbours(const std::vector<floorplan_component>& components,
                                                                  const floorplan& fp) {
  std::vector<std::pair<std::string, std::string>> out;
  const auto partners = partner_lists(components);
  auto r = [&](std::size_t i) {
    const block& b = fp.blocks()[fp.index_of(components[i].name)];
    return rect{b.x_m, b.y_m, b.width_m, b.height_m};
  };
  for (std::size_t i = 0; i < components.size(); ++i)
    for (std::size_t j : partners[i])
      if (i < j && !touch(r(i), r(j))) out.emplace_back(components[i].name, components[j].name);
  return out;
}

}  // namespace ptsim::thermal
