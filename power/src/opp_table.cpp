#include "ptsim/power/opp_table.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>
#include <stdexcept>

namespace ptsim::power {

namespace {
// Frequencies computed by governors in floating point (e.g. 1.25 * f * util) can land a
// few ULPs beside a table frequency that the kernel's integer kHz arithmetic would hit
// exactly; a millihertz of slack makes "f >= target" behave like the kernel's.
constexpr double lookup_slack_hz = 1e-3;
}  // namespace

opp_table::opp_table(std::vector<opp> points) {
  if (points.empty()) throw std::invalid_argument("opp_table: empty table (need at least one OPP)");
  std::sort(points.begin(), points.end(), [](const opp& a, const opp& b) {
    return units::value_si(a.frequency) < units::value_si(b.frequency);
  });
  hz_.reserve(points.size());
  v_.reserve(points.size());
  for (std::size_t i = 0; i < points.size(); ++i) {
    const double f = units::value_si(points[i].frequency);
    const double v = units::value_si(points[i].voltage);
    std::ostringstream os;
    if (!std::isfinite(f) || f <= 0.0) {
      os << "opp_table: frequency must be finite and > 0 Hz, found " << f << " Hz";
      throw std::invalid_argument(os.str());
    }
    if (!std::isfinite(v) || v <= 0.0) {
      os << "opp_table: voltage must be finite and > 0 V, found " << v << " V at " << f << " Hz";
      throw std::invalid_argument(os.str());
    }
    if (i > 0 && f == hz_.back()) {
      os << "opp_table: duplicate frequency " << f << " Hz";
      throw std::invalid_argument(os.str());
    }
    if (i > 0 && v < v_.back()) {
      os << "opp_table: voltage decreases with frequency: " << v_.back() << " V at " << hz_.back()
         << " Hz, then " << v << " V at " << f << " Hz";
      throw std::invalid_argument(os.str());
    }
    hz_.push_back(f);
    v_.push_back(v);
  }
}

std::size_t opp_table::index_at_least(double target_hz) const {
  const auto it = std::lower_bound(hz_.begin(), hz_.end(), target_hz - lookup_slack_hz);
  if (it == hz_.end()) return hz_.size() - 1;  // above the table: clamp to max
  return static_cast<std::size_t>(it - hz_.begin());
}

std::size_t opp_table::index_at_most(double target_hz) const {
  const auto it = std::upper_bound(hz_.begin(), hz_.end(), target_hz + lookup_slack_hz);
  if (it == hz_.begin()) return 0;  // below the table: clamp to min
  return static_cast<std::size_t>(it - hz_.begin()) - 1;
}

std::size_t opp_table::index_closest(double target_hz) const {
  const std::size_t hi = index_at_least(target_hz);
  if (hi == 0) return 0;
  const std::size_t lo = hi - 1;
  // Ties go to the lower OPP (the kernel's RELATION_C picks the lower on equal distance).
  return (target_hz - hz_[lo] <= hz_[hi] - target_hz) ? lo : hi;
}

std::size_t opp_table::index_of(double hz) const {
  const std::size_t i = index_closest(hz);
  if (std::abs(hz_[i] - hz) > 1.0) {
    std::ostringstream os;
    os << "opp_table: " << hz << " Hz is not a table frequency (nearest " << hz_[i] << " Hz)";
    throw std::out_of_range(os.str());
  }
  return i;
}

}  // namespace ptsim::power
