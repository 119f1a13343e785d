#pragma once
// A report entry's swept parameters as text, shared by the decision (--best) and Pareto
// reports.
#include <string>

#include "json_text.hpp"
#include "ptsim/postproc/report.hpp"

namespace ptsim::postproc {

/// "k1=v1, k2=v2" in the entry's order.
inline std::string params_text(const labelled_summary& e) {
  std::string out;
  for (const auto& [k, v] : e.params) out += (out.empty() ? "" : ", ") + k + "=" + v;
  return out;
}

/// The members of a JSON object {"k1": "v1", ...}, without the braces.
inline std::string params_json_members(const labelled_summary& e) {
  std::string out;
  for (std::size_t i = 0; i < e.params.size(); ++i)
    out += (i ? ", " : "") + json::quote(e.params[i].first) + ": " + json::quote(e.params[i].second);
  return out;
}

}  // namespace ptsim::postproc
