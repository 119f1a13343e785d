#pragma once
// Linux Energy Model (EM) helpers: the per-CPU power that the kernel derives from a
// device tree's `dynamic-power-coefficient` (drivers/opp/of.c), and its conversion
// into ptsim's switched capacitance C_eff.
#include "ptsim/power/dt_opp.hpp"
#include "ptsim/units/quantities.hpp"

namespace ptsim::power {

/// The kernel's EM power of one CPU at one OPP, in mW:
///   P[µW] = C × mV² × MHz / 10^6,  C in µW/(MHz·V²).
/// As in the kernel, mV and MHz are truncated to integers (mV = opp-microvolt / 1000 in
/// integer arithmetic) and the µW result is truncated; the return value is that µW / 1000,
/// so it is exact to the µW the kernel stores. Throws std::invalid_argument on negative or
/// non-finite inputs.
double em_power_mW(double dyn_power_coeff_uW_per_MHz_V2, double mhz, double mv);

/// em_power_mW() for a device-tree OPP (opp-hz in Hz, opp-microvolt in µV).
double em_power_mW(double dyn_power_coeff_uW_per_MHz_V2, const dt_opp& point);

/// Switched capacitance (F) of `cores` CPUs with the given dynamic-power-coefficient:
/// C_eff = coeff × 1e-12 F per core (derivation in energy_model.cpp).
double em_c_eff_F(double dyn_power_coeff_uW_per_MHz_V2, unsigned cores = 1);

/// em_c_eff_F() as a quantity, for compute_power_params::c_eff.
units::farads_t em_c_eff(double dyn_power_coeff_uW_per_MHz_V2, unsigned cores = 1);

}  // namespace ptsim::power
