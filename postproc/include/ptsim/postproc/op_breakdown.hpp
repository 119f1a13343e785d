#pragma once
// Where a unit's time went by operator: the `ops` table's executions summed per unit and
// operator name (a fused kernel under its '+'-joined name), for the report.
#include <cstdint>
#include <string>
#include <vector>

#include "ptsim/postproc/result_file.hpp"

namespace ptsim::postproc {

struct op_time_row {
  std::string unit, op;
  std::uint64_t executions = 0;
  double seconds = 0;         ///< summed end - start (launch included)
  double memory_bound_s = 0;  ///< of which its pace was set by memory traffic
};

/// Per (unit, operator name), heaviest first (ties in name order). Covers the executions
/// the table kept (see ops_table::dropped).
std::vector<op_time_row> op_breakdown(const ops_table& t);

}  // namespace ptsim::postproc
