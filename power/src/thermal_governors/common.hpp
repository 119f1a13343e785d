#pragma once
// Internals shared by the thermal governors.
#include <vector>

#include "ptsim/power/thermal_governor.hpp"

namespace ptsim::power {
class thermal_governor_registry;
void register_power_allocator(thermal_governor_registry& r);
void register_step_wise(thermal_governor_registry& r);
}  // namespace ptsim::power

namespace ptsim::power::detail {

/// Validates a zone configuration and its devices (std::invalid_argument naming the field).
void check_zone(const thermal_zone_config& cfg, const std::vector<cooling_device>& devices);

/// Frequency of cooling state k (k OPPs below the max, clamped to the min OPP).
double state_ceiling_hz(const cooling_device& d, std::size_t state);

/// Highest cooling state of a device: #OPPs - 1.
std::size_t max_state(const cooling_device& d);

/// True when a governor last acting at last_s (acted = false: never) should act at now_s.
bool polling_due(bool acted, double last_s, double now_s, double period_s);

}  // namespace ptsim::power::detail
