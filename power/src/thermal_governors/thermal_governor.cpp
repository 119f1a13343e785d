#include "ptsim/power/thermal_governor.hpp"

#include <stdexcept>

#include "check.hpp"
#include "thermal_governors/common.hpp"

namespace ptsim::power {

namespace detail {

void check_zone(const thermal_zone_config& cfg, const std::vector<cooling_device>& devices) {
  require_positive("control_temp_K", cfg.control_temp_K);
  require_non_negative("switch_on_temp_K", cfg.switch_on_temp_K);
  require_non_negative("hysteresis_K", cfg.hysteresis_K);
  require_positive("polling_period_s", cfg.polling_period_s);
  require_non_negative("sustainable_power_W", cfg.sustainable_power_W);
  if (cfg.switch_on_temp_K != 0.0 && cfg.switch_on_temp_K >= cfg.control_temp_K)
    bad_param("switch_on_temp_K", "a temperature below control_temp_K", cfg.switch_on_temp_K);
  for (const cooling_device& d : devices) {
    if (d.opps == nullptr || d.opps->size() == 0)
      throw std::invalid_argument("cooling_device: opps must point to a non-empty opp_table");
    require_non_negative("cooling_device.weight", d.weight);
  }
}

double state_ceiling_hz(const cooling_device& d, std::size_t state) {
  const std::size_t top = d.opps->size() - 1;
  return d.opps->frequency_hz(top - std::min(state, top));
}

std::size_t max_state(const cooling_device& d) { return d.opps->size() - 1; }

bool polling_due(bool acted, double last_s, double now_s, double period_s) {
  return !acted || now_s - last_s >= period_s - 1e-9;
}

}  // namespace detail

}  // namespace ptsim::power
