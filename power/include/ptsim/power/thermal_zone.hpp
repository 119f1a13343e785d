#pragma once
// A thermal zone (Linux thermal framework): a sensor's temperature, a governor with its
// tunables and trip points, and the cooling devices it drives. The co-simulation holds a
// list of them and polls each at its own polling period; what a zone cools (a DVFS
// domain's ceiling, the fans) is behind the cooler interface (cooler.hpp).
#include <memory>
#include <string>
#include <vector>

#include "ptsim/power/cooler.hpp"
#include "ptsim/power/thermal_governor.hpp"

namespace ptsim::power {

class thermal_zone {
 public:
  /// Binds `devices` (not owned: they outlive the zone) and starts `gov` on them.
  /// Throws std::invalid_argument for no devices, or a governor that needs power
  /// estimates (power_allocator) on a device that has none (the fans).
  thermal_zone(std::string name, std::unique_ptr<thermal_governor> gov, const thermal_zone_config& cfg, std::vector<cooler*> devices);
  const std::string& name() const { return name_; }
  const thermal_zone_config& config() const { return cfg_; }
  /// When the zone's polling period has passed since its last poll (the first call
  /// polls): the devices' power estimates, the governor's update with the sensor's
  /// temperature (K), and each device's new claim. Returns whether it polled.
  bool poll(double now_s, double temperature_K);

 private:
  std::string name_;
  std::unique_ptr<thermal_governor> gov_;
  thermal_zone_config cfg_;
  std::vector<cooler*> devices_;
  std::vector<std::size_t> slots_;     // each device's claim
  std::vector<cooling_device> views_;  // the governor's view of each device
  double next_poll_s_ = 0;
};

}  // namespace ptsim::power
