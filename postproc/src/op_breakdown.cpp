#include "ptsim/postproc/op_breakdown.hpp"

#include <algorithm>
#include <map>
#include <utility>

namespace ptsim::postproc {

std::vector<op_time_row> op_breakdown(const ops_table& t) {
  std::map<std::pair<std::string, std::string>, op_time_row> sums;
  for (const op_row& r : t.rows) {
    op_time_row& s = sums[{r.unit, r.op}];
    s.unit = r.unit;
    s.op = r.op;
    ++s.executions;
    s.seconds += r.end_s - r.start_s;
    if (r.bound_by == "memory") s.memory_bound_s += r.end_s - r.start_s;
  }
  std::vector<op_time_row> out;
  out.reserve(sums.size());
  for (auto& [k, v] : sums) out.push_back(std::move(v));
  std::stable_sort(out.begin(), out.end(), [](const op_time_row& a, const op_time_row& b) { return a.seconds > b.seconds; });
  return out;
}

}  // namespace ptsim::postproc
