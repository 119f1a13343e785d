#include "ptsim/power/step_wise.hpp"

#include <memory>
#include <stdexcept>

#include "thermal_governors/common.hpp"

namespace ptsim::power {

void step_wise_governor::start(const thermal_zone_config& cfg,
                               std::vector<cooling_device>& devices) {
  detail::check_zone(cfg, devices);
  cfg_ = cfg;
  states_.assign(devices.size(), 0);
  for (cooling_device& d : devices) d.ceiling_hz = detail::state_ceiling_hz(d, 0);
  acted_ = false;
  crossed_ = false;
}

void step_wise_governor::update(double now_s, double temperature_K,
                                std::vector<cooling_device>& devices) {
  if (devices.size() != states_.size())
    throw std::invalid_argument("step_wise: the zone has a different number of devices than at start()");
  if (!detail::polling_due(acted_, last_action_s_, now_s, cfg_.polling_period_s)) return;

  // Linux's first reading compares against an invalid (lowest) temperature: RAISING.
  const bool raising = !acted_ || temperature_K > last_temp_K_;
  const bool dropping = acted_ && temperature_K < last_temp_K_;
  acted_ = true;
  last_action_s_ = now_s;
  last_temp_K_ = temperature_K;

  // Trip with hysteresis: once crossed, the threshold drops to control - hysteresis,
  // so that the device is not released at the first reading below the trip.
  if (!crossed_ && temperature_K >= cfg_.control_temp_K)
    crossed_ = true;
  else if (crossed_ && temperature_K < cfg_.control_temp_K - cfg_.hysteresis_K)
    crossed_ = false;

  for (std::size_t i = 0; i < devices.size(); ++i) {
    std::size_t& st = states_[i];
    if (crossed_ && raising) {
      if (st < detail::max_state(devices[i])) ++st;
    } else if (!crossed_ && dropping) {
      if (st > 0) --st;
    }
    devices[i].ceiling_hz = detail::state_ceiling_hz(devices[i], st);
  }
}

void register_step_wise(thermal_governor_registry& r) {
  r.register_governor({"step_wise",
                       "one cooling state per polling period: up while at or above control_temp and heating, "
                       "down once below control_temp - hysteresis and cooling",
                       {}},
                      [](const tunables&) { return std::make_unique<step_wise_governor>(); });
}

}  // namespace ptsim::power
