#include "ptsim/power/memory_power.hpp"

#include <algorithm>

#include "check.hpp"

namespace ptsim::power {

memory_power_model::memory_power_model(const memory_power_params& p)
    : background_W_(detail::require_non_negative("background", p.background_W)),
      e_read_(detail::require_non_negative("energy_per_byte_read_J", p.energy_per_byte_read_J)),
      e_write_(detail::require_non_negative("energy_per_byte_write_J", p.energy_per_byte_write_J)),
      refresh_W_(detail::require_non_negative("refresh_W", p.refresh_W)),
      sr_W_(p.self_refresh_W < 0 ? -1.0 : detail::require_non_negative("self_refresh_W", p.self_refresh_W)),
      sr_after_s_(detail::require_non_negative("self_refresh_after_s", p.self_refresh_after_s)),
      max_hz_(detail::require_non_negative("max_hz", p.max_hz)),
      max_v_(detail::require_non_negative("max_volts", p.max_volts)),
      clock_share_(detail::require_range("clock_scaled_share", p.clock_scaled_share, 0.0, 1.0)),
      sustained_Bps_(detail::require_non_negative("sustained_Bps", p.sustained_Bps)) {
  for (double w : p.low_power_state_W) state_W_.push_back(detail::require_non_negative("low_power_state_W", w));
}

double memory_power_model::background_at_W(double hz, double volts) const {
  if (!(max_hz_ > 0.0) || !(hz > 0.0)) return background_W_;
  const double v = max_v_ > 0.0 && volts > 0.0 ? volts / max_v_ : 1.0;
  return background_W_ * v * v * ((1.0 - clock_share_) + clock_share_ * hz / max_hz_);
}

double memory_power_model::busy_share(double bytes, double period_s, double hz) const {
  if (!(max_hz_ > 0.0) || !(sustained_Bps_ > 0.0) || !(hz > 0.0) || !(period_s > 0.0)) return 0.0;
  return std::min(1.0, bytes / (sustained_Bps_ * hz / max_hz_ * period_s));
}

double memory_power_model::power_W(double bytes_read, double bytes_written, double period_s, double hz,
                                   double volts) const {
  // A zero period would turn any traffic into infinite power: a caller bug, said loudly.
  if (!(period_s > 0.0)) detail::bad_param("period_s", "a value > 0 s", period_s);
  return background_at_W(hz, volts) + refresh_W_ + (e_read_ * bytes_read + e_write_ * bytes_written) / period_s;
}

double memory_power_model::with_states_W(double bytes_read, double bytes_written, double period_s,
                                         const std::vector<double>& state_s) const {
  // P_background (1 - sum r_k) + sum P_k r_k, written as P_background + sum (P_k - P_background) r_k.
  double p = power_W(bytes_read, bytes_written, period_s);
  for (std::size_t k = 0; k < state_s.size() && k < state_W_.size(); ++k)
    p += (state_W_[k] - background_W_) * state_s[k] / period_s;
  return p;
}

double memory_power_model::step_W(double bytes_read, double bytes_written, double period_s, double hz,
                                  double volts) {
  const double p = power_W(bytes_read, bytes_written, period_s, hz, volts);
  if (bytes_read + bytes_written > 0 || sr_W_ < 0) {
    idle_s_ = 0;
    in_sr_ = false;
    return p;
  }
  // An idle period: in self-refresh once the idle timer (counted before this period) has
  // run out; half a nanosecond of slack absorbs sums of periods that should be exact.
  in_sr_ = idle_s_ + 0.5e-9 >= sr_after_s_;
  idle_s_ += period_s;
  return in_sr_ ? sr_W_ : p;
}

// Preset figures. Access energies are per byte moved (8 x pJ/bit); the per-GB powers
// scale a device's standby, refresh and self-refresh currents to the stack or DIMM set.
//  - HBM3: 3.9 pJ/bit, the HBM2 access energy (activation + data movement + I/O) that
//    O'Connor et al., "Fine-Grained DRAM", MICRO-50 2017 (doi 10.1145/3123939.3124545)
//    give as the baseline; HBM3 runs the same array at a lower I/O voltage (0.4 V vs
//    1.2 V VDDQ, JEDEC JESD238), so this is an upper figure. Weakly sourced for HBM3.
//  - HBM3e: 0.8 x HBM3, after the ~20-30 % lower power per bit the vendors announced for
//    HBM3E (Micron and SK hynix 2023 releases). Weakly sourced: vendor claims.
//  - DDR5: 15 pJ/bit (RDIMM with its buffers and the long board channel), in line with the
//    DDR4 figures of Li, Reddy, Jacob, "A Performance & Power Comparison of Modern
//    High-Speed DRAM Architectures", MEMSYS 2018 (the majority of energy in I/O);
//    background 60 mW/GB: a 64 GB RDIMM idling at ~4 W (module power of a few W per
//    module, Tom's Hardware DDR4 measurements 2014: ~1.5 W per 4 GB under load). Weakly
//    sourced: DDR4-era measurements scaled to DDR5.
//  - GDDR6: 7.5 pJ/bit, Micron's "average device power" for GDDR6 (its Ultra-Bandwidth
//    Solutions comparison, micron.com/products/ultra-bandwidth-solutions: GDDR6 7.5,
//    GDDR6X 7.25, HBM2E 6.0 pJ/bit): devices soldered beside the GPU on a short PCB channel,
//    half the DDR5 RDIMM figure above. Background, refresh and self-refresh per GB are
//    DDR5's, illustrative.
//  - LPDDR5: 4 pJ/bit (short package channel, 0.5 V VDDQ; Li et al. MEMSYS 2018 place
//    LPDDR4 among the lowest per bit); LPDDR5X: 0.8 x LPDDR5, after Samsung's "20 %
//    better power efficiency than LPDDR5" (Samsung newsroom, LPDDR5X announcement, Nov
//    2021). Standby, refresh and self-refresh per GB are illustrative, shaped like LPDDR
//    datasheet IDD2N / IDD5AB / IDD6 currents (self-refresh about a tenth of standby).
const std::vector<memory_preset>& memory_presets() {
  static const std::vector<memory_preset> p = {
      //  name      read J/B   write J/B  bg W/GB  ref W/GB  SR W/GB
      {"lpddr5", 32e-12, 32e-12, 0.006, 0.002, 0.0006},
      {"lpddr5x", 25.6e-12, 25.6e-12, 0.005, 0.0016, 0.0005},
      {"ddr5", 120e-12, 120e-12, 0.060, 0.012, 0.010},
      {"gddr6", 60e-12, 60e-12, 0.060, 0.012, 0.010},
      {"hbm3", 31.2e-12, 31.2e-12, 0.200, 0.040, 0.020},
      {"hbm3e", 25e-12, 25e-12, 0.160, 0.032, 0.016},
  };
  return p;
}

const memory_preset* find_memory_preset(const std::string& name) {
  for (const auto& m : memory_presets())
    if (m.name == name) return &m;
  return nullptr;
}

}  // namespace ptsim::power
