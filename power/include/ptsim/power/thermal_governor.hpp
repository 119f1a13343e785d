#pragma once
// Thermal governors (Linux thermal framework): read a sensor temperature every
// polling period and set ceilings on their cooling devices (a DVFS domain's frequency,
// the fans' speed levels: cooler.hpp), each seen through a cooling_device.
#include <memory>
#include <string>
#include <vector>

#include "ptsim/power/opp_table.hpp"
#include "ptsim/power/registry.hpp"

namespace ptsim::power {

/// A governor's view of one cooling device in its zone. Cooling state 0 = no limit (max
/// OPP), state k = k OPPs below the max (as cpufreq_cooling maps states).
struct cooling_device {
  const opp_table* opps = nullptr;
  double weight = 1.0;              ///< IPA split weight
  double requested_power_W = 0.0;   ///< power at the current request (IPA input)
  double max_power_W = 0.0;         ///< power at the max OPP under current load (IPA)
  double min_power_W = 0.0;         ///< power at the min OPP under current load (IPA)
  /// Power the domain would draw at OPP i under the current load (IPA's power->state map).
  std::vector<double> power_at_opp_W;
  double ceiling_hz = 0.0;          ///< output: the frequency ceiling this governor sets
};

struct thermal_zone_config {
  double control_temp_K = 358.15;  ///< passive trip (step_wise), control temp (IPA)
  double switch_on_temp_K = 0.0;   ///< IPA switch-on; 0 = control_temp - 10 K
  double hysteresis_K = 2.0;
  double polling_period_s = 0.1;   ///< passive delay
  double sustainable_power_W = 0.0;  ///< IPA; 0 = estimate from the devices
};

class thermal_governor {
 public:
  virtual ~thermal_governor() = default;
  virtual void start(const thermal_zone_config& cfg, std::vector<cooling_device>& devices) = 0;
  /// One update at time now_s with the zone's sensor temperature (K); sets each device's ceiling_hz.
  virtual void update(double now_s, double temperature_K, std::vector<cooling_device>& devices) = 0;
  /// Whether it reads its devices' power per state (power_at_opp_W and the rest): a
  /// device without a power model (the fans) cannot be driven by it.
  virtual bool needs_power_estimates() const { return false; }
};

/// The thermal governors by name (policy.thermal.governor), with their tunables
/// (policy.thermal.tunables); the built-in ones registered at first use.
class thermal_governor_registry : public registry<thermal_governor> {
 public:
  static thermal_governor_registry& instance();

 private:
  thermal_governor_registry();
};

}  // namespace ptsim::power
