#include "ptsim/power/fan_power.hpp"

#include <cmath>
#include <stdexcept>
#include <string>

namespace ptsim::power {

double fan_power_W(const fan_params& f, double speed) {
  if (!(f.max_speed_rpm > 0) || !(f.max_power_W >= 0) || !(f.min_speed_rpm >= 0) ||
      f.min_speed_rpm > f.max_speed_rpm)
    throw std::invalid_argument("fan: need max_speed > 0, max_power >= 0 and 0 <= min_speed <= max_speed");
  if (!(speed >= f.min_speed_rpm && speed <= f.max_speed_rpm))
    throw std::invalid_argument("fan speed " + std::to_string(speed) + " rpm is outside [" +
                                std::to_string(f.min_speed_rpm) + ", " + std::to_string(f.max_speed_rpm) + "] rpm");
  const double r = speed / f.max_speed_rpm;
  return f.max_power_W * r * r * r;
}

}  // namespace ptsim::power
