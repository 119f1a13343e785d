#pragma once
// Power of a compute unit (CPU cluster, GPU, NPU).
//
//   P_dyn  = C_eff * V^2 * f * a                [W]  C_eff in F, V in V, f in Hz,
//            a = activity in [0, 1]: busy share of the period, with time stalled on
//            memory weighted by stall_activity (a stalled pipeline still toggles clocks).
//   P_leak = P_ref * (V / V_ref)^v_exponent * 2^((T - T_ref) / T_double)   [W]
//            leakage doubles every T_double kelvin; P_ref is the leakage at V_ref, T_ref.
#include "ptsim/units/quantities.hpp"

namespace ptsim::power {

struct leakage_params {
  units::watts_t power_ref = units::watts(0.0);
  units::volts_t v_ref = units::volts(1.0);
  units::abs_kelvin_t t_ref = units::celsius(25.0);
  units::kelvin_t t_double = units::kelvin(20.0);
  double v_exponent = 2.0;
};

/// The most a kernel kind may toggle relative to the work c_eff describes (op_activity): the
/// scenario format's bound and the compute unit's cap on its activity.
inline constexpr double max_op_activity = 2.0;

struct compute_power_params {
  units::farads_t c_eff = units::farads(0.0);  ///< switched capacitance of the whole unit
  double stall_activity = 0.3;                 ///< activity while stalled on memory
  leakage_params leakage;
};

/// Plain-double form of compute_power_params for the control tick.
class compute_power_model {
 public:
  explicit compute_power_model(const compute_power_params& p);
  /// activity from busy shares: compute_share + stall_activity * memory_share.
  double activity(double compute_busy_share, double memory_busy_share) const;
  double dynamic_W(double voltage_V, double freq_Hz, double activity) const;
  double leakage_W(double voltage_V, double temperature_K) const;
  /// The two factors of leakage_W = at_voltage_W(V) * temperature_factor(T), for callers that
  /// hold one fixed while the other varies (every OPP of a table at one temperature).
  double leakage_at_voltage_W(double voltage_V) const;
  double leakage_temperature_factor(double temperature_K) const;

 private:
  double c_eff_F_, stall_activity_;
  double leak_ref_W_, v_ref_V_, t_ref_K_, t_double_K_, v_exponent_;
};

}  // namespace ptsim::power
