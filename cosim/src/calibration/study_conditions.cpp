// Checking a study against its scenario before anything runs: the scenario is loaded under
// every row's conditions and every parameter's start and bounds.
#include <algorithm>
#include <set>

#include "ptsim/scenarios/scenario.hpp"
#include "ptsim/tlm_config/names.hpp"
#include "study.hpp"
#include "study_reading.hpp"

namespace ptsim::cosim::calibration {

using scenarios::diagnostic;
using scenarios::scenario_error;

namespace {

// Loads the scenario with these overrides; a problem with an override is moved to the
// place it came from: a value it refuses to its value, a path it cannot apply to its key.
struct origin {
  where key, value;
};

void try_load(const study& s, const std::vector<scenarios::sweep_value>& values, const std::vector<origin>& at,
              std::vector<diagnostic>& out, std::set<std::string>& seen, scenarios::scenario* keep = nullptr) {
  scenarios::load_options o;
  o.emit_resolved_yaml = false;
  for (const auto& v : values) o.overrides.push_back({v.path, v.yaml});
  try {
    auto sc = scenarios::load_scenario_file(s.scenario, o);
    if (keep) *keep = std::move(sc);
  } catch (const scenario_error& e) {
    for (diagnostic d : e.diagnostics()) {
      if (const auto blame = scenarios::blamed_override(d))
        for (std::size_t i = values.size(); i-- > 0;)
          if (values[i].path == blame->path) {
            const where& w = blame->path_at_fault ? at[i].key : at[i].value;
            d.file = w.file;
            d.line = w.line;
            d.column = w.column;
            break;
          }
      if (seen.insert(d.to_string()).second) out.push_back(d);
    }
  }
}

}  // namespace

void check_study_conditions(const study& s, bool quick) {
  std::vector<diagnostic> out;
  std::set<std::string> seen;
  std::vector<scenarios::sweep_value> shared = s.set;
  std::vector<origin> shared_at;
  for (const auto& w : s.set_at) shared_at.push_back({w, w});
  if (quick) {
    shared.insert(shared.end(), s.quick_set.begin(), s.quick_set.end());
    for (const auto& w : s.quick_set_at) shared_at.push_back({w, w});
  }
  // The parameters at their start, then each bound with the others at their start (a bound
  // in the wrong unit; keys that are only valid together, such as a GPU's gemm_tiling, load
  // together as every run sets them).
  std::vector<scenarios::sweep_value> params;
  std::vector<origin> params_at;
  std::vector<std::size_t> owner;  // the parameter each entry of params belongs to
  for (std::size_t i = 0; i < s.parameters.size(); ++i) {
    const auto& p = s.parameters[i];
    for (const auto& path : p.paths) {
      params.push_back(reading::condition_value(path, p.value_text(p.start)));
      params_at.push_back({p.at, p.start_at});
      owner.push_back(i);
    }
  }
  scenarios::scenario first;
  bool have_first = false;
  for (const auto& row : s.rows) {
    auto values = shared;
    auto at = shared_at;
    values.insert(values.end(), row.conditions.begin(), row.conditions.end());
    for (std::size_t i = 0; i < row.conditions.size(); ++i) {
      const auto& cols = s.table.columns;
      const auto k = static_cast<std::size_t>(std::find(cols.begin(), cols.end(), row.conditions[i].path) - cols.begin());
      at.push_back({k < cols.size() ? s.table.column_at[k] : row.condition_at[i], row.condition_at[i]});
    }
    values.insert(values.end(), params.begin(), params.end());
    at.insert(at.end(), params_at.begin(), params_at.end());
    const std::size_t before = out.size();
    try_load(s, values, at, out, seen, have_first ? nullptr : &first);
    if (out.size() == before) have_first = true;
  }
  for (std::size_t i = 0; i < s.parameters.size(); ++i)
    for (const double bound : {s.parameters[i].lo, s.parameters[i].hi}) {
      const auto& p = s.parameters[i];
      auto values = shared;
      auto at = shared_at;
      for (std::size_t k = 0; k < params.size(); ++k)
        if (owner[k] != i) values.push_back(params[k]), at.push_back(params_at[k]);
      for (const auto& path : p.paths) {
        values.push_back(reading::condition_value(path, p.value_text(bound)));
        at.push_back({p.at, bound == p.lo ? p.lo_at : p.hi_at});
      }
      try_load(s, values, at, out, seen);
    }
  // Power and job-energy targets name components of the platform.
  if (have_first)
    for (const auto& t : s.targets)
      for (const auto& comp : t.metric.components)
        if (std::none_of(first.components.begin(), first.components.end(),
                         [&](const scenarios::component_ref& r) { return r.name == comp; })) {
          std::vector<std::string> names;
          for (const auto& r : first.components) names.push_back(r.name);
          out.push_back({t.at.file, t.at.line, t.at.column, "targets." + t.column,
                         "metric '" + t.metric.text + "': no component '" + comp + "' in the platform (components: " +
                             tlm_config::join_names(names) + ")",
                         false});
        }
  // Clock targets name DVFS domains.
  if (have_first)
    for (const auto& t : s.targets)
      if (t.metric.what == metric_expr::kind::freq &&
          std::none_of(first.domains.begin(), first.domains.end(),
                       [&](const power::dvfs_domain_config& d) { return d.name == t.metric.domain; })) {
        std::vector<std::string> names;
        for (const auto& d : first.domains) names.push_back(d.name);
        out.push_back({t.at.file, t.at.line, t.at.column, "targets." + t.column,
                       "metric '" + t.metric.text + "': no DVFS domain '" + t.metric.domain + "' (domains: " +
                           tlm_config::join_names(names) + ")",
                       false});
      }
  if (!out.empty()) throw scenario_error(out);
}

}  // namespace ptsim::cosim::calibration
