#pragma once
// Operating points as Linux device trees write them (operating-points-v2 nodes):
//   opp-hz = /bits/ 64 <851000000>;  opp-microvolt = <556250>;
// so that platform presets can be pasted from upstream .dtsi files unchanged.
#include <cstdint>
#include <vector>

#include "ptsim/power/opp_table.hpp"

namespace ptsim::power {

struct dt_opp {
  std::uint64_t opp_hz = 0;         ///< `opp-hz`, Hz
  std::uint64_t opp_microvolt = 0;  ///< `opp-microvolt` (target value), µV
};

/// Builds an opp_table from device-tree values (Hz, µV), with the same validation as
/// opp_table's constructor (std::invalid_argument on empty, zero, duplicate, decreasing V).
opp_table opp_table_from_dt(const std::vector<dt_opp>& points);

}  // namespace ptsim::power
