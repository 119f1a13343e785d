#pragma once
// From component power to wall power: voltage regulators (VR) on the board and the power
// supply (PSU) at the wall, each with a load-dependent efficiency curve.
//
//   P_vr_in   = P_components / eta_vr(P_components / P_vr_rated)
//   P_wall    = P_vr_in      / eta_psu(P_vr_in / P_psu_rated)
//
// eta(load) is piecewise linear in the load fraction between the given points and flat
// beyond the first and last (a VR or PSU is least efficient at light load). Powers in W.
#include <utility>
#include <vector>

namespace ptsim::power {

class efficiency_curve {
 public:
  efficiency_curve() = default;  ///< eta = 1 everywhere (an ideal stage)
  /// Points (load fraction >= 0, efficiency in (0, 1]), sorted by load; throws
  /// std::invalid_argument otherwise.
  explicit efficiency_curve(std::vector<std::pair<double, double>> points);
  double at(double load_fraction) const;

 private:
  std::vector<std::pair<double, double>> pts_;
};

struct supply_params {
  double vr_rated_W = 0;   ///< 0: no VR stage
  efficiency_curve vr;
  double psu_rated_W = 0;  ///< 0: no PSU stage
  efficiency_curve psu;
};

/// Wall power for a given component power (W).
double wall_power_W(const supply_params& s, double component_power_W);

/// An 80 PLUS Titanium-like PSU curve (efficiency at 10/20/50/100 % load: 90/94/96/91 %,
/// the 230 V internal-redundant thresholds of the 80 PLUS programme).
efficiency_curve psu_80plus_titanium();
/// A typical multiphase buck VR: 80 % at 5 % load, 90 % at 20 %, 92 % at 50 %, 89 % at 100 %
/// (illustrative, shaped like published VR efficiency curves).
efficiency_curve vr_typical();

}  // namespace ptsim::power
