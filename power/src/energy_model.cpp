#include "ptsim/power/energy_model.hpp"

#include <cmath>

#include "check.hpp"

namespace ptsim::power {

double em_power_mW(double coeff, double mhz, double mv) {
  detail::require_non_negative("dyn_power_coeff_uW_per_MHz_V2", coeff);
  detail::require_non_negative("mhz", mhz);
  detail::require_non_negative("mv", mv);
  // The kernel works in unsigned integers: mV = µV / 1000 and MHz = Hz / 10^6 are
  // truncated before the product, and the final division by 10^6 truncates too. The
  // truncation of mV is visible in the EM tables (gs101 X1 at 1426 MHz / 662.5 mV gives
  // 406 mW, not the 407 mW that 662.5 mV would give), so it is reproduced here.
  const double mv_i = std::floor(mv);
  const double mhz_i = std::floor(mhz);
  const double uW = std::floor(coeff * mv_i * mv_i * mhz_i / 1e6);  // exact below 2^53
  return uW / 1000.0;
}

double em_power_mW(double coeff, const dt_opp& point) {
  // Integer division as in the kernel: mV = µV / 1000, MHz = Hz / 10^6.
  const double mv = static_cast<double>(point.opp_microvolt / 1000);
  const double mhz = static_cast<double>(point.opp_hz / 1000000);
  return em_power_mW(coeff, mhz, mv);
}

double em_c_eff_F(double coeff, unsigned cores) {
  detail::require_non_negative("dyn_power_coeff_uW_per_MHz_V2", coeff);
  // The EM formula is P[µW] = coeff × V² × f[MHz] (mV² / 10^6 = V²). In SI:
  //   P[W] = coeff × 1e-6 W/µW × V² × f[Hz] × 1e-6 MHz/Hz = (coeff × 1e-12) × V² × f[Hz].
  // Matching P[W] = C_eff × V² × f gives C_eff[F] = coeff × 1e-12 per core
  // (e.g. Cortex-X1, coeff 650 -> 650 pF). A cluster switches `cores` times that when
  // all its cores are busy, which is how compute_power_model's activity is defined.
  return coeff * 1e-12 * static_cast<double>(cores);
}

units::farads_t em_c_eff(double coeff, unsigned cores) {
  return units::farads(em_c_eff_F(coeff, cores));
}

}  // namespace ptsim::power
