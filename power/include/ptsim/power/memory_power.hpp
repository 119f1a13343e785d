#pragma once
// Power of a DRAM device or interconnect:
//   P = P_background + (E_read * bytes_read + E_write * bytes_written) / period   [W]
// E in J/byte. P_background covers refresh and standby at nominal activity.
#include "ptsim/units/quantities.hpp"

namespace ptsim::power {

struct memory_power_params {
  units::watts_t background = units::watts(0.0);
  double energy_per_byte_read_J = 0.0;
  double energy_per_byte_write_J = 0.0;
};

class memory_power_model {
 public:
  explicit memory_power_model(const memory_power_params& p);
  double power_W(double bytes_read, double bytes_written, double period_s) const;
  double background_W() const { return background_W_; }

 private:
  double background_W_, e_read_, e_write_;
};

}  // namespace ptsim::power
