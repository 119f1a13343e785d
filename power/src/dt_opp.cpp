#include "ptsim/power/dt_opp.hpp"

namespace ptsim::power {

opp_table opp_table_from_dt(const std::vector<dt_opp>& points) {
  std::vector<opp> opps;
  opps.reserve(points.size());
  for (const dt_opp& p : points) {
    // µV -> V; opp_table rejects the zero values a missing property would leave.
    opps.push_back({units::hertz(static_cast<double>(p.opp_hz)),
                    units::volts(static_cast<double>(p.opp_microvolt) * 1e-6)});
  }
  return opp_table(std::move(opps));
}

}  // namespace ptsim::power
