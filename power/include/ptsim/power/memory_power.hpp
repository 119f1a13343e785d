#pragma once
// Power of a DRAM device (or of an interconnect, which has no refresh) over one period:
//
//   active:        P = P_background + P_refresh + (E_read * bytes_read + E_write * bytes_written) / period
//   self-refresh:  P = P_self_refresh
//
// [W; E in J/byte]. P_background is standby power with the banks precharged (IDD2N/IDD3N
// class currents), P_refresh the average cost of auto-refresh while active. A memory that
// moved no byte for at least self_refresh_after enters self-refresh (the controller's idle
// timer), where it refreshes itself and its interface is off: P_self_refresh replaces
// both. The idle timer counts whole periods without traffic, so self-refresh is resolved
// to the control period; self_refresh_after = 0 puts every idle period in self-refresh.
// Without a self_refresh_power (< 0) the memory never enters it.
//
// NVMe storage with low-power states (APST, resolved in time by the TLM model, which
// reports the seconds s_k resident in each non-operational state k in the period):
//
//   P = P_background * (1 - sum_k r_k) + sum_k P_k * r_k + (E_read * bytes_read + E_write * bytes_written) / period,
//   r_k = s_k / period
//
// P_background (background_W) is the drive's PS0 idle power, P_k the state's power [W]; entries and exits
// count as PS0 (the drive draws at least its idle power while changing state).
//
// Memory DVFS (a DRAM in a DVFS domain whose OPPs are its clock): background power follows
// the clock f and the OPP voltage V, relative to the table's top point (f_max, V_max):
//
//   P_background(f, V) = P_background * (V / V_max)^2 * ((1 - s) + s * f / f_max)
//
// with s the clock-scaled share (default 1). Micron's power notes scale the IDD-based
// background (standby) power linearly with the clock and with VDD^2 from the datasheet's
// test point (TN-41-01 "Calculating Memory System Power for DDR3", TN-46-03 for DDR/DDR2;
// the same rule as JEDEC's IDD currents, specified at tCK min). Refresh and self-refresh
// do not follow the clock (refresh commands come at a fixed rate in time, tREFI), nor does
// the energy per byte (the bits moved are the same; bandwidth, not energy per bit, follows
// the clock). A memory without a clock (max_hz = 0) draws P_background unscaled.
#include <string>
#include <vector>

#include "ptsim/units/quantities.hpp"

namespace ptsim::power {

struct memory_power_params {
  double background_W = 0.0;       ///< always, while powered
  double energy_per_byte_read_J = 0.0;
  double energy_per_byte_write_J = 0.0;
  double refresh_W = 0.0;          ///< auto-refresh while active
  double self_refresh_W = -1.0;    ///< < 0: no self-refresh
  double self_refresh_after_s = 0.0;
  std::vector<double> low_power_state_W;  ///< NVMe non-operational states, shallow to deep
  // Memory DVFS (0: no clock; background unscaled, busy share not computed)
  double max_hz = 0.0;               ///< top of the memory domain's OPP table
  double max_volts = 0.0;            ///< its voltage at max_hz
  double clock_scaled_share = 1.0;   ///< s above: share of the background that follows the clock
  double sustained_Bps = 0.0;        ///< bandwidth x efficiency at max_hz: the busy share's denominator
};

class memory_power_model {
 public:
  explicit memory_power_model(const memory_power_params& p);
  /// Active power with this traffic (no self-refresh); stateless. With a clock (max_hz > 0)
  /// the background is P_background(hz, volts) (above); hz <= 0: at the top point.
  double power_W(double bytes_read, double bytes_written, double period_s, double hz = 0, double volts = 0) const;
  /// Power over the next period, following the idle timer into and out of self-refresh.
  double step_W(double bytes_read, double bytes_written, double period_s, double hz = 0, double volts = 0);
  /// P_background(f, V) (above); the unscaled background without a clock or with hz <= 0.
  double background_at_W(double hz, double volts) const;
  /// Busy share of the memory's bandwidth over a period at average clock hz: bytes moved
  /// over what the sustained bandwidth at that clock moves in the period, at most 1; 0
  /// without a clock.
  double busy_share(double bytes, double period_s, double hz) const;
  /// NVMe: power over a period with `state_s[k]` seconds resident in low_power_state_W[k].
  double with_states_W(double bytes_read, double bytes_written, double period_s,
                       const std::vector<double>& state_s) const;
  bool in_self_refresh() const { return in_sr_; }
  double background_W() const { return background_W_; }

 private:
  double background_W_, e_read_, e_write_, refresh_W_, sr_W_, sr_after_s_;
  double max_hz_, max_v_, clock_share_, sustained_Bps_;
  std::vector<double> state_W_;
  double idle_s_ = 0;  ///< time since the last traffic (whole periods)
  bool in_sr_ = false;
};

/// Power figures of a DRAM generation: energies per byte (J/B) at the device pins plus
/// interface, and standby, refresh and self-refresh powers per GB of capacity (W/GB).
/// Sources and how solid each figure is: memory_power.cpp and README (Memory power).
struct memory_preset {
  std::string name;  ///< lpddr5, lpddr5x, ddr5, gddr6, hbm3, hbm3e
  double read_J_per_B, write_J_per_B;
  double background_W_per_GB, refresh_W_per_GB, self_refresh_W_per_GB;
};
const std::vector<memory_preset>& memory_presets();
/// The preset of that name; nullptr when there is none.
const memory_preset* find_memory_preset(const std::string& name);

}  // namespace ptsim::power
