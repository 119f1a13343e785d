#pragma once
// Per-DVFS-domain limits as an operator sets them on a device (policy.limits.<domain>):
// the frequency range every governor must stay within (Linux scaling_min/max_freq,
// `nvidia-smi -lgc min,max`; equal values lock the clock) and a board power limit
// (`nvidia-smi -pl`) on the domain's board: its own components with their memory and links.
#include <algorithm>
#include <optional>
#include <string>
#include <vector>

namespace ptsim::power {

/// Default averaging window of a board power limit: the built-in power sensor of A100 and
/// H100 boards updates its reading every 100 ms (Yang, Adamek, Armour, "Accurate and
/// Convenient Energy Measurements for GPUs: A Detailed Study of NVIDIA GPU's Built-In Power
/// Sensor", SC'24, arXiv:2312.02741), so the firmware's limiter cannot act on a shorter average.
inline constexpr double default_power_limit_window_s = 0.1;

struct domain_limits {
  double min_hz = 0;  ///< resolved to an OPP (a value between OPPs rounds up); the table's lowest when unset
  double max_hz = 0;  ///< resolved to an OPP (rounds down); the table's highest when unset
  std::optional<double> power_W;  ///< board power limit; none: no limit
  double window_s = default_power_limit_window_s;  ///< averaging window of power_W
  double settle_s = default_power_limit_window_s / 4;  ///< the limiter's response (power_capper settle)
  /// Time the limiter takes to raise the clock back across the whole table after a cut; 0: at
  /// once. Cuts act at once either way (a firmware limiter drops the clock fast and climbs back
  /// gradually), so a load whose power swings keeps the clock low through its light phases too.
  double recovery_s = 0;
  /// The board: the components whose power the limit covers (resolved names).
  std::vector<std::string> components;
  /// What the loader changed and the run reports once (a clock rounded onto the table).
  std::vector<std::string> notes;
};

/// The frequency a domain runs at before it is mapped onto its table (README, "Per-domain
/// limits"): the governor's request kept within [min_hz, max_hz], then the lowest of the hard
/// ceilings (thermal, platform power cap, board power limit). A ceiling below min_hz wins:
/// the clock drops below a locked clock when power or temperature demand it.
inline double limited_frequency(double request_hz, double min_hz, double max_hz, double ceiling_hz) {
  return std::min(std::clamp(request_hz, min_hz, max_hz), ceiling_hz);
}

/// The board limiter's ceiling for the coming period: the capper's `wanted_hz` where it is a
/// cut (or the same), else at most (top_hz - bottom_hz) * period_s / recovery_s above the
/// last ceiling, rounded down onto the table by the caller. recovery_s = 0: `wanted_hz`.
inline double recovered_ceiling(double last_hz, double wanted_hz, double bottom_hz, double top_hz, double period_s,
                                double recovery_s) {
  if (!(recovery_s > 0) || wanted_hz <= last_hz) return wanted_hz;
  return std::min(wanted_hz, last_hz + (top_hz - bottom_hz) * period_s / recovery_s);
}

}  // namespace ptsim::power
