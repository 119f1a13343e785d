#include "ptsim/power/supply_power.hpp"

#include <cmath>
#include <stdexcept>

namespace ptsim::power {

efficiency_curve::efficiency_curve(std::vector<std::pair<double, double>> points) : pts_(std::move(points)) {
  if (pts_.empty()) throw std::invalid_argument("an efficiency curve needs at least one point");
  for (std::size_t i = 0; i < pts_.size(); ++i) {
    const auto [load, eta] = pts_[i];
    if (!(load >= 0) || !std::isfinite(load)) throw std::invalid_argument("efficiency curve: load fraction must be >= 0");
    if (!(eta > 0 && eta <= 1)) throw std::invalid_argument("efficiency curve: efficiency must be in (0, 1]");
    if (i && !(load > pts_[i - 1].first))
      throw std::invalid_argument("efficiency curve: load fractions must increase");
  }
}

double efficiency_curve::at(double x) const {
  if (pts_.empty()) return 1.0;
  if (x <= pts_.front().first) return pts_.front().second;
  if (x >= pts_.back().first) return pts_.back().second;
  for (std::size_t i = 1; i < pts_.size(); ++i) {
    if (x <= pts_[i].first) {
      const auto [x0, y0] = pts_[i - 1];
      const auto [x1, y1] = pts_[i];
      return y0 + (y1 - y0) * (x - x0) / (x1 - x0);
    }
  }
  return pts_.back().second;
}

double wall_power_W(const supply_params& s, double p) {
  double vr_in = s.vr_rated_W > 0 ? p / s.vr.at(p / s.vr_rated_W) : p;
  return s.psu_rated_W > 0 ? vr_in / s.psu.at(vr_in / s.psu_rated_W) : vr_in;
}

efficiency_curve psu_80plus_titanium() { return efficiency_curve({{0.1, 0.90}, {0.2, 0.94}, {0.5, 0.96}, {1.0, 0.91}}); }

efficiency_curve vr_typical() { return efficiency_curve({{0.05, 0.80}, {0.2, 0.90}, {0.5, 0.92}, {1.0, 0.89}}); }

}  // namespace ptsim::power
