#pragma once
// Fan power from the fan affinity laws: airflow is proportional to speed, pressure to
// speed^2, so shaft power goes with speed^3:
//   P_fan = P_max * (speed / max_speed)^3                                   [W]
// The thermal side (convection resistance falling with airflow) lives in thermal/.
namespace ptsim::power {

struct fan_params {
  double max_power_W = 0;   ///< at max_speed
  double max_speed_rpm = 0; ///< > 0
  double min_speed_rpm = 0; ///< the fan never runs slower (0: may stop)
};

/// Throws std::invalid_argument for a speed outside [min, max] or bad parameters.
double fan_power_W(const fan_params& f, double speed_rpm);

}  // namespace ptsim::power
