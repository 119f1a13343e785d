#include "ptsim/power/memory_power.hpp"

#include "check.hpp"

namespace ptsim::power {

memory_power_model::memory_power_model(const memory_power_params& p)
    : background_W_(detail::require_non_negative("background", units::value_si(p.background))),
      e_read_(detail::require_non_negative("energy_per_byte_read_J", p.energy_per_byte_read_J)),
      e_write_(detail::require_non_negative("energy_per_byte_write_J", p.energy_per_byte_write_J)) {}

double memory_power_model::power_W(double bytes_read, double bytes_written, double period_s) const {
  // A zero period would turn any traffic into infinite power: a caller bug, said loudly.
  if (!(period_s > 0.0)) detail::bad_param("period_s", "a value > 0 s", period_s);
  return background_W_ + (e_read_ * bytes_read + e_write_ * bytes_written) / period_s;
}

}  // namespace ptsim::power
