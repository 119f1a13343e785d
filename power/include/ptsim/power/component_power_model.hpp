#pragma once
// One interface for the power of every component of a platform, so that the control loop
// conducts (gathers activity, asks each component's model, sums, hands on) and the
// formulas stay here, in plain C++ that is tested without a simulation kernel.
//
// A component kind picks its model when the scenario is resolved (scenarios/src/kinds/);
// the loop only sees component_power_model.
#include <memory>
#include <vector>

#include "ptsim/power/compute_power.hpp"
#include "ptsim/power/idle_states.hpp"
#include "ptsim/power/memory_power.hpp"
#include "ptsim/power/opp_table.hpp"

namespace ptsim::power {

/// What one component did in the control period that just ended.
struct component_activity {
  // initiators (compute units, fixed-function blocks): shares of the period (0..1)
  double compute_share = 0, stall_share = 0, overhead_share = 0;
  // targets and interconnects: bytes moved in the period
  double bytes_read = 0, bytes_written = 0;
  // compute units: seconds resident in each idle state in the period (sized like the
  // unit's idle states; empty: none); NVMe: seconds in each low-power (APST) state
  std::vector<double> idle_s;
  // compute units: of compute_share, the part its kernels did not toggle (op_activity < 1);
  // negative where kernels toggle more than c_eff's reference work (op_activity > 1)
  double quiet_share = 0;
};

/// The electrical averages of the component's DVFS domain over the period (all zero for
/// a component outside any domain).
struct domain_electrical {
  double avg_hz = 0, avg_volts = 0, avg_v2f = 0;
  /// The scheduler's utilisation for schedutil (cpufreq_sample::sched_util); -1: none.
  double sched_util = -1;
};

/// A component's power over one period, and what the governors read besides it.
struct power_sample {
  double watts = 0;
  double low_power_share = 0;  ///< share of the period in a low-power state (idle state, self-refresh, APST)
  double busy = 0;             ///< share of the period busy (its domain's utilisation)
  double activity = 0;         ///< switching activity (the domain's power estimates at other OPPs)
};

class component_power_model {
 public:
  virtual ~component_power_model() = default;
  /// Power over a period of period_s with this activity, its domain's averages and its
  /// block's temperature at the start of the period. May keep state (idle timers).
  virtual power_sample step(const component_activity& a, const domain_electrical& e, double temperature_K,
                            double period_s) = 0;
  /// Power at an operating point under `activity` at temperature_K, for the thermal
  /// governors' and the power capper's estimates (components in a DVFS domain).
  virtual double at_opp_W(double volts, double hz, double activity, double temperature_K) const = 0;
  /// at_opp_W at every OPP of `opps`, added to out[i] (out sized as opps): the estimates the
  /// board limiter and the thermal governors ask for each period. A model may compute what
  /// does not depend on the OPP once.
  virtual void add_at_opps_W(const opp_table& opps, double activity, double temperature_K,
                             std::vector<double>& out) const;
  /// The least it can draw: at its domain's lowest voltage v_min (0 without a domain),
  /// at temperature_K, idle in its lowest-power state.
  virtual double floor_W(double v_min, double temperature_K) const = 0;
};

/// A compute unit: C V^2 f a, temperature-dependent leakage, idle-state residency.
///   P = P_dyn + P_leak * (1 - sum_s r_s) + sum_s P_s * r_s,   r_s = residency_s / T
std::unique_ptr<component_power_model> make_compute_unit_power(const compute_power_params& p,
                                                               std::vector<idle_state> idle_states);
/// DRAM (background, refresh, self-refresh, energy per byte), interconnects (background
/// and energy per byte) and storage or NICs (idle power, APST states, energy per byte).
std::unique_ptr<component_power_model> make_memory_device_power(const memory_power_params& p);

/// A fixed-function block (video encoder, ISP, DSP) that draws busy_W while working
/// and idle_W otherwise:  P = idle_W + (busy_W - idle_W) * busy,  busy in [0, 1].
struct busy_idle_params {
  double busy_W = 0, idle_W = 0;
};
std::unique_ptr<component_power_model> make_busy_idle_power(const busy_idle_params& p);

}  // namespace ptsim::power
