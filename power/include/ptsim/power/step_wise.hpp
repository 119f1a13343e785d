#pragma once
// step_wise thermal governor (Linux drivers/thermal/gov_step_wise.c): one cooling state
// step per polling period, up while hot and heating, down once cooling below the trip.
#include <cstddef>
#include <vector>

#include "ptsim/power/thermal_governor.hpp"

namespace ptsim::power {

class step_wise_governor final : public thermal_governor {
 public:
  /// Validates cfg and devices (std::invalid_argument) and lifts every ceiling to the max OPP.
  void start(const thermal_zone_config& cfg, std::vector<cooling_device>& devices) override;
  /// Acts on the first call and then once every cfg.polling_period_s; in between it
  /// leaves the ceilings as they are. Temperatures in K.
  ///  - trend: RAISING / DROPPING / STABLE against the temperature of the previous action
  ///    (the first action counts as RAISING, as Linux's first reading does);
  ///  - throttle: T >= control_temp; once crossed, it stays until T < control_temp - hysteresis;
  ///  - throttle and RAISING: state + 1 (at most #OPPs - 1); not throttling and DROPPING:
  ///    state - 1 (at least 0); otherwise hold. State k: ceiling k OPPs below the max.
  void update(double now_s, double temperature_K, std::vector<cooling_device>& devices) override;

  std::size_t state(std::size_t device) const { return states_.at(device); }
  bool throttling() const { return crossed_; }

 private:
  thermal_zone_config cfg_;
  std::vector<std::size_t> states_;
  double last_action_s_ = 0.0, last_temp_K_ = 0.0;
  bool acted_ = false, crossed_ = false;
};

}  // namespace ptsim::power
