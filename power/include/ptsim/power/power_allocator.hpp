#pragma once
// power_allocator (IPA) thermal governor (Linux drivers/thermal/gov_power_allocator.c):
// a PID controller on the temperature error sets a power budget, which is split across
// the cooling devices by weight × requested power; each device gets the highest OPP whose
// power fits its grant.
#include <cmath>
#include <limits>
#include <vector>

#include "ptsim/power/thermal_governor.hpp"

namespace ptsim::power {

/// PID constants; NaN = the kernel's default from the sustainable power P_s and
/// ΔT = control_temp - switch_on_temp: k_po = P_s/ΔT, k_pu = 2·P_s/ΔT,
/// k_i = max(k_pu/10, 1/1024) (the kernel's floor of 1 in FRAC_BITS = 10 fixed point), k_d = 0.
/// Units are the kernel's numbers: mW/m°C = W/K for k_po, k_pu, k_i (k_i per polling
/// period); k_d in W·ms/K (the kernel divides the error change by the period in ms).
struct power_allocator_params {
  double k_po = std::numeric_limits<double>::quiet_NaN();
  double k_pu = std::numeric_limits<double>::quiet_NaN();
  double k_i = std::numeric_limits<double>::quiet_NaN();
  double k_d = std::numeric_limits<double>::quiet_NaN();
  double integral_cutoff_K = 0.0;  ///< integrate only while err < cutoff (0: only above control)
};

/// The controller's terms at its last action (W, K).
struct ipa_pid_terms {
  double err_K = 0, p_W = 0, i_W = 0, d_W = 0, budget_W = 0;
};

/// Splits budget_W in proportion to weighted_req_W (weight × requested power); any grant
/// above an actor's max_W is capped and the surplus redistributed, once, in proportion to
/// the other actors' headroom (max - grant), never more than the total headroom.
std::vector<double> ipa_divvy_up_power(double budget_W, const std::vector<double>& weighted_req_W,
                                       const std::vector<double>& max_W);

class power_allocator_governor final : public thermal_governor {
 public:
  explicit power_allocator_governor(power_allocator_params p = {});
  /// Validates cfg and devices; lifts every ceiling to the max OPP. switch_on_temp_K = 0 means
  /// control_temp_K - 10 K; sustainable_power_W = 0 means Σ min_power_W, estimated at the
  /// first active update (when the devices' power reflects the load).
  void start(const thermal_zone_config& cfg, std::vector<cooling_device>& devices) override;
  /// Acts on the first call and once every polling_period_s. Below switch_on: resets the PID
  /// and lifts all ceilings. Otherwise budget = clamp(P_s + P + I + D, 0, Σ max_power_W),
  /// split by ipa_divvy_up_power, each grant mapped to the highest OPP i with
  /// power_at_opp_W[i] <= grant (the min OPP if none fits).
  void update(double now_s, double temperature_K, std::vector<cooling_device>& devices) override;
  bool needs_power_estimates() const override { return true; }

  const ipa_pid_terms& last_pid() const { return pid_; }
  const std::vector<double>& granted_power_W() const { return granted_W_; }
  double sustainable_power_W() const { return sustainable_W_; }
  double k_po() const { return k_po_; }
  double k_pu() const { return k_pu_; }
  double k_i() const { return k_i_; }
  double k_d() const { return k_d_; }
  bool active() const { return active_; }

 private:
  void set_constants();

  power_allocator_params params_;
  thermal_zone_config cfg_;
  double switch_on_K_ = 0.0, sustainable_W_ = 0.0;
  double k_po_ = 0.0, k_pu_ = 0.0, k_i_ = 0.0, k_d_ = 0.0;
  double err_integral_K_ = 0.0, prev_err_K_ = 0.0, last_action_s_ = 0.0;
  ipa_pid_terms pid_;
  std::vector<double> granted_W_;
  bool acted_ = false, active_ = false;
};

}  // namespace ptsim::power
