#pragma once
// Cooling devices (Linux's thermal_cooling_device): what a thermal zone's governor turns
// down when the zone is hot. Every kind states its cooling states as an OPP table counted
// from the top (state 0: the top entry, no cooling; state k: k entries below), so that one
// governor drives a DVFS domain's frequency ceiling and the fans' speed levels alike.
// Several zones may bind one device: it runs at the deepest state any of them asks for,
// the lowest ceiling, as Linux's thermal instances do.
#include <cstddef>
#include <functional>
#include <string>
#include <vector>

#include "ptsim/power/opp_table.hpp"
#include "ptsim/power/thermal_governor.hpp"

namespace ptsim::power {

/// The name that means the fans in a zone's cooling list.
inline constexpr const char* fans_cooling_name = "fans";

class cooler {
 public:
  virtual ~cooler() = default;
  const std::string& name() const { return name_; }
  /// Its cooling states as OPPs, counted down from the top.
  const opp_table& states() const { return states_; }
  /// Whether estimate() gives its power per state (IPA, power_allocator, needs it).
  virtual bool estimates_power() const { return false; }
  /// IPA's inputs in a zone's view of the device: its power at each state under the
  /// current load, at its current request, at its lowest and highest state. A device
  /// without a power model leaves them as they are.
  virtual void estimate(cooling_device&) const {}

  /// One zone's claim on the device; returns the claim's slot for request().
  std::size_t bind();
  /// Zone `slot` now asks for `ceiling_hz`: the device goes to the lowest ceiling of all
  /// its claims (the deepest cooling any zone asks for).
  void request(std::size_t slot, double ceiling_hz);

 protected:
  cooler(std::string name, opp_table states);
  /// Puts the device at `ceiling_hz` (one of states()).
  virtual void apply(double ceiling_hz) = 0;

 private:
  std::string name_;
  opp_table states_;
  std::vector<double> claims_hz_;
};

/// A DVFS domain's thermal frequency ceiling. The domain's owner supplies its power at
/// each OPP under the current load (for IPA), its cpufreq governor's last request, and
/// where the ceiling goes.
class dvfs_cooler final : public cooler {
 public:
  struct hooks {
    std::function<void(std::vector<double>& power_at_opp_W)> power_at_opps;
    std::function<double()> request_hz;
    std::function<void(double ceiling_hz)> set_ceiling;
  };
  dvfs_cooler(std::string domain, const opp_table& opps, hooks h);
  bool estimates_power() const override { return true; }
  void estimate(cooling_device& view) const override;

 private:
  void apply(double ceiling_hz) override { hooks_.set_ceiling(ceiling_hz); }
  hooks hooks_;
};

/// The fans: `levels` speeds from min_speed (state 0, no extra cooling) to max_speed
/// evenly, written as an OPP table of level numbers (1 .. levels Hz) so that a governor's
/// "k OPPs below the top" is "k levels above the slowest". Faster fans cool and cost fan
/// power but add no heat, so they state no power per state (IPA cannot drive them).
class fan_cooler final : public cooler {
 public:
  fan_cooler(double min_speed, double max_speed, int levels, std::function<void(double speed)> set_speed);
  /// The speed of cooling state `state`.
  double speed_of_state(std::size_t state) const;

 private:
  void apply(double ceiling_hz) override;
  double min_speed_, max_speed_;
  std::function<void(double)> set_speed_;
};

}  // namespace ptsim::power
