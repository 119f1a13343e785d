#pragma once
// Operating-point (V-f) tables of a DVFS domain, sorted by ascending frequency.
#include <cstddef>
#include <vector>

#include "ptsim/units/quantities.hpp"

namespace ptsim::power {

struct opp {
  units::hertz_t frequency;
  units::volts_t voltage;
};

class opp_table {
 public:
  opp_table() = default;
  /// Sorts by frequency; throws std::invalid_argument on an empty table, a non-positive
  /// frequency or voltage, duplicate frequencies, or voltage decreasing with frequency.
  explicit opp_table(std::vector<opp> points);

  std::size_t size() const { return hz_.size(); }
  double frequency_hz(std::size_t i) const { return hz_[i]; }
  double voltage_v(std::size_t i) const { return v_[i]; }
  double min_hz() const { return hz_.front(); }
  double max_hz() const { return hz_.back(); }
  /// Lowest OPP with f >= target (CPUFREQ_RELATION_L), clamped to the table.
  std::size_t index_at_least(double target_hz) const;
  /// Highest OPP with f <= target (CPUFREQ_RELATION_H), clamped to the table.
  std::size_t index_at_most(double target_hz) const;
  /// OPP closest to target (CPUFREQ_RELATION_C); ties go to the lower one.
  std::size_t index_closest(double target_hz) const;
  /// Index of an exact table frequency (within 1 Hz); throws std::out_of_range otherwise.
  std::size_t index_of(double hz) const;

 private:
  std::vector<double> hz_;
  std::vector<double> v_;
};

}  // namespace ptsim::power
