#include "summary_table.hpp"

#include <cmath>
#include <limits>
#include <map>
#include <set>

#include "ptsim/cosim/run.hpp"
#include "ptsim/postproc/metric_catalogue.hpp"
#include "ptsim/postproc/result_file.hpp"

namespace ptsim::cosim::sweep {

postproc::sweep_summary build_summary(const scenarios::sweep_spec& sweep, const sweep_folder& folder,
                                      table_counts* counts) {
  table_counts n;
  postproc::sweep_summary t;
  t.sweep_name = sweep.name;
  t.ptsim_version = version();
  t.param_names = sweep.parameters;
  if (sweep.replicated) t.param_names.push_back("seed");

  // Read first, so the metric columns are the union over every complete result.
  std::vector<std::optional<postproc::run_summary>> summaries(sweep.runs.size());
  std::vector<postproc::sweep_row> rows;
  std::set<std::string> names;
  std::map<std::string, std::string> units;
  for (const auto& run : sweep.runs) {
    postproc::sweep_row row;
    row.index = run.index;
    row.run_id = run.id;
    for (const auto& v : run.values) row.params.push_back(v.text);
    if (run.seed) row.params.push_back(std::to_string(*run.seed));
    const auto record = folder.read_record(run.id);
    std::error_code ec;
    if (fs::exists(folder.result_path(run.id), ec)) {
      try {
        postproc::result_reader r(folder.result_path(run.id));
        summaries[run.index] = r.summary();
        row.ok = true;
        row.wall_s = r.metadata().wall_s;
        row.wall_host = r.metadata().host;
        if (t.throughput_units.empty()) t.throughput_units = r.summary().throughput_units;
        for (const auto& [k, m] : r.summary().metrics) {
          names.insert(k);
          units.emplace(k, m.units);
        }
      } catch (const std::exception& e) {
        row.ok = false;
        row.error = std::string("result file unreadable: ") + e.what();
      }
    } else if (record && !record->ok) {
      row.ok = false;
      row.error = record->error;
    } else {
      ++n.missing;
      continue;
    }
    // The runner's record, when it has one for this outcome, has the process's wall time and rank.
    if (record && record->ok == row.ok) {
      row.wall_s = record->wall_s;
      row.wall_host = record->wall_host;
      row.wall_rank = record->wall_rank;
    }
    ++(row.ok ? n.ok : n.failed);
    rows.push_back(std::move(row));
  }
  t.metric_names = postproc::order_metrics(names);
  for (const auto& m : t.metric_names) t.metric_units.push_back(units[m]);
  for (auto& row : rows) {
    row.metrics.assign(t.metric_names.size(), std::numeric_limits<double>::quiet_NaN());
    if (!row.ok) continue;
    const auto& s = *summaries[row.index];
    for (std::size_t k = 0; k < t.metric_names.size(); ++k)
      if (auto it = s.metrics.find(t.metric_names[k]); it != s.metrics.end()) row.metrics[k] = it->second.value;
  }
  t.rows = std::move(rows);
  if (counts) *counts = n;
  return t;
}

}  // namespace ptsim::cosim::sweep
