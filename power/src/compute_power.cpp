#include "ptsim/power/compute_power.hpp"

#include <cmath>

#include "check.hpp"

namespace ptsim::power {

compute_power_model::compute_power_model(const compute_power_params& p)
    : c_eff_F_(detail::require_non_negative("c_eff", units::value_si(p.c_eff))),
      // An activity factor: a stalled pipeline cannot toggle more than a busy one.
      stall_activity_(detail::require_range("stall_activity", p.stall_activity, 0.0, 1.0)),
      leak_ref_W_(detail::require_non_negative("leakage.power_ref",
                                               units::value_si(p.leakage.power_ref))),
      // v_ref, t_ref and t_double divide: zero is as invalid as negative.
      v_ref_V_(detail::require_positive("leakage.v_ref", units::value_si(p.leakage.v_ref))),
      t_ref_K_(detail::require_positive("leakage.t_ref", units::value_si(p.leakage.t_ref))),
      t_double_K_(detail::require_positive("leakage.t_double",
                                           units::value_si(p.leakage.t_double))),
      v_exponent_(detail::require_non_negative("leakage.v_exponent", p.leakage.v_exponent)) {}

double compute_power_model::activity(double compute_busy_share, double memory_busy_share) const {
  return compute_busy_share + stall_activity_ * memory_busy_share;
}

double compute_power_model::dynamic_W(double voltage_V, double freq_Hz, double activity) const {
  return c_eff_F_ * voltage_V * voltage_V * freq_Hz * activity;
}

double compute_power_model::leakage_W(double voltage_V, double temperature_K) const {
  return leakage_at_voltage_W(voltage_V) * leakage_temperature_factor(temperature_K);
}

double compute_power_model::leakage_at_voltage_W(double voltage_V) const {
  return leak_ref_W_ * std::pow(voltage_V / v_ref_V_, v_exponent_);
}

double compute_power_model::leakage_temperature_factor(double temperature_K) const {
  // Subthreshold leakage grows roughly exponentially with temperature; expressing it as a
  // doubling temperature keeps the parameter readable (typically 10-30 K).
  return std::exp2((temperature_K - t_ref_K_) / t_double_K_);
}

}  // namespace ptsim::power
