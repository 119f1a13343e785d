#include "ptsim/thermal/floorplan.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>
#include <stdexcept>
#include <unordered_map>

namespace ptsim::thermal {

namespace {

// HotSpot's tolerance for "these two edges are the same line" (m).
constexpr double edge_tolerance_m = 1e-6;
// Shared lengths and overlap extents at or below this are rounding, not geometry (m).
constexpr double length_epsilon_m = 1e-9;
// Uncovered bounding-box area below this fraction is rounding, not a gap.
constexpr double gap_relative_tolerance = 1e-9;

double right(const block& b) { return b.x_m + b.width_m; }
double top(const block& b) { return b.y_m + b.height_m; }

// Length of the intersection of [a0, a1] and [b0, b1]; negative when disjoint.
double overlap(double a0, double a1, double b0, double b1) {
  return std::min(a1, b1) - std::max(a0, b0);
}

}  // namespace

floorplan::floorplan(std::vector<block> blocks) : blocks_(std::move(blocks)) {
  std::unordered_map<std::string, std::size_t> seen;
  for (std::size_t i = 0; i < blocks_.size(); ++i) {
    const block& b = blocks_[i];
    if (b.name.empty())
      throw std::invalid_argument("floorplan: block #" + std::to_string(i) + " has an empty name");
    if (!seen.emplace(b.name, i).second)
      throw std::invalid_argument("floorplan: duplicate block name '" + b.name + "'");
    auto check = [&](double v, const char* what, bool positive) {
      if (!std::isfinite(v) || (positive && !(v > 0))) {
        std::ostringstream msg;
        msg << "floorplan: block '" << b.name << "' " << what << " must be "
            << (positive ? "positive and finite" : "finite") << ", got " << v;
        throw std::invalid_argument(msg.str());
      }
    };
    check(b.width_m, "width", true);
    check(b.height_m, "height", true);
    check(b.x_m, "left_x", false);
    check(b.y_m, "bottom_y", false);
  }
}

std::size_t floorplan::index_of(const std::string& name) const {
  for (std::size_t i = 0; i < blocks_.size(); ++i)
    if (blocks_[i].name == name) return i;
  throw std::out_of_range("floorplan: no block named '" + name + "'");
}

double floorplan::min_x() const {
  double v = blocks_.empty() ? 0.0 : blocks_.front().x_m;
  for (const block& b : blocks_) v = std::min(v, b.x_m);
  return v;
}

double floorplan::min_y() const {
  double v = blocks_.empty() ? 0.0 : blocks_.front().y_m;
  for (const block& b : blocks_) v = std::min(v, b.y_m);
  return v;
}

double floorplan::width() const {
  if (blocks_.empty()) return 0.0;
  double hi = right(blocks_.front());
  for (const block& b : blocks_) hi = std::max(hi, right(b));
  return hi - min_x();
}

double floorplan::height() const {
  if (blocks_.empty()) return 0.0;
  double hi = top(blocks_.front());
  for (const block& b : blocks_) hi = std::max(hi, top(b));
  return hi - min_y();
}

std::vector<adjacency> floorplan::adjacencies() const {
  std::vector<adjacency> out;
  for (std::size_t i = 0; i < blocks_.size(); ++i) {
    for (std::size_t j = i + 1; j < blocks_.size(); ++j) {
      const block& a = blocks_[i];
      const block& b = blocks_[j];
      // East/west neighbours: a vertical edge in common, overlapping y-ranges.
      if (std::abs(right(a) - b.x_m) < edge_tolerance_m ||
          std::abs(right(b) - a.x_m) < edge_tolerance_m) {
        const double l = overlap(a.y_m, top(a), b.y_m, top(b));
        if (l > length_epsilon_m) out.push_back({i, j, l, true});
      }
      // North/south neighbours: a horizontal edge in common, overlapping x-ranges.
      if (std::abs(top(a) - b.y_m) < edge_tolerance_m ||
          std::abs(top(b) - a.y_m) < edge_tolerance_m) {
        const double l = overlap(a.x_m, right(a), b.x_m, right(b));
        if (l > length_epsilon_m) out.push_back({i, j, l, false});
      }
    }
  }
  return out;
}

std::vector<std::string> floorplan::problems() const {
  std::vector<std::string> out;
  for (const block& b : blocks_) {
    if (!(b.width_m > 0) || !(b.height_m > 0))
      out.push_back("block '" + b.name + "' has zero or negative size");
  }
  for (std::size_t i = 0; i < blocks_.size(); ++i) {
    for (std::size_t j = i + 1; j < blocks_.size(); ++j) {
      const block& a = blocks_[i];
      const block& b = blocks_[j];
      const double ox = overlap(a.x_m, right(a), b.x_m, right(b));
      const double oy = overlap(a.y_m, top(a), b.y_m, top(b));
      if (ox > length_epsilon_m && oy > length_epsilon_m) {
        std::ostringstream msg;
        msg << "blocks '" << a.name << "' and '" << b.name << "' overlap by " << ox * oy
            << " m^2 (" << ox << " m x " << oy << " m)";
        out.push_back(msg.str());
      }
    }
  }
  if (blocks_.empty()) return out;

  // Uncovered area: cut the bounding box along every block edge into cells and test
  // each cell's centre against the blocks (exact for axis-aligned rectangles).
  std::vector<double> xs, ys;
  for (const block& b : blocks_) {
    xs.insert(xs.end(), {b.x_m, right(b)});
    ys.insert(ys.end(), {b.y_m, top(b)});
  }
  std::sort(xs.begin(), xs.end());
  std::sort(ys.begin(), ys.end());
  xs.erase(std::unique(xs.begin(), xs.end()), xs.end());
  ys.erase(std::unique(ys.begin(), ys.end()), ys.end());
  double uncovered = 0.0;
  double gap_x = 0.0, gap_y = 0.0, largest = 0.0;
  for (std::size_t ix = 0; ix + 1 < xs.size(); ++ix) {
    for (std::size_t iy = 0; iy + 1 < ys.size(); ++iy) {
      const double cx = 0.5 * (xs[ix] + xs[ix + 1]);
      const double cy = 0.5 * (ys[iy] + ys[iy + 1]);
      const bool covered = std::any_of(blocks_.begin(), blocks_.end(), [&](const block& b) {
        return cx > b.x_m && cx < right(b) && cy > b.y_m && cy < top(b);
      });
      if (covered) continue;
      const double area = (xs[ix + 1] - xs[ix]) * (ys[iy + 1] - ys[iy]);
      uncovered += area;
      if (area > largest) {
        largest = area;
        gap_x = cx;
        gap_y = cy;
      }
    }
  }
  const double box = width() * height();
  if (uncovered > gap_relative_tolerance * box) {
    std::ostringstream msg;
    msg << "gap: " << uncovered << " m^2 (" << 100.0 * uncovered / box
        << " % of the bounding box) is covered by no block, e.g. around (" << gap_x << ", "
        << gap_y << ") m";
    out.push_back(msg.str());
  }
  return out;
}

}  // namespace ptsim::thermal
