#include "evaluation.hpp"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <limits>
#include <map>

#include "../sweep/sweep_folder.hpp"
#include "ptsim/cosim/sweep_runner.hpp"

namespace ptsim::cosim::calibration {

namespace {

// The sweep file of one batch: every point's values as a zip (one run per point).
std::string sweep_text(const std::string& scenario, const std::vector<scenarios::sweep_value>& shared,
                       const std::vector<const std::vector<scenarios::sweep_value>*>& points) {
  YAML::Emitter em;
  em << YAML::BeginMap;
  em << YAML::Key << "name" << YAML::Value << "batch";
  em << YAML::Key << "base" << YAML::Value << scenario;
  if (!shared.empty()) {
    em << YAML::Key << "set" << YAML::Value << YAML::BeginMap;
    for (const auto& v : shared) em << YAML::Key << v.path << YAML::Value << YAML::Load(v.yaml);
    em << YAML::EndMap;
  }
  const auto& first = *points.front();
  if (!first.empty()) {
    em << YAML::Key << "zip" << YAML::Value << YAML::BeginMap;
    for (std::size_t k = 0; k < first.size(); ++k) {
      em << YAML::Key << first[k].path << YAML::Value << YAML::Flow << YAML::BeginSeq;
      for (const auto* p : points) em << YAML::Load((*p)[k].yaml);
      em << YAML::EndSeq;
    }
    em << YAML::EndMap;
  }
  em << YAML::EndMap;
  return std::string(em.c_str()) + "\n";
}

std::string signature(const std::vector<scenarios::sweep_value>& p, bool with_values) {
  std::string s;
  for (const auto& v : p) s += v.path + (with_values ? "=" + v.yaml : "") + "\n";
  return s;
}

}  // namespace

double target_error(const target& t, double measured, double simulated) {
  return t.relative ? simulated / measured - 1 : simulated - measured;
}

std::vector<row_outcome> evaluate_rows(const study& s, const std::vector<std::size_t>& rows,
                                       const std::vector<scenarios::sweep_value>& shared,
                                       const std::vector<scenarios::sweep_value>& params, const batch_options& opts,
                                       batch_result* batch) {
  // The rows asked, then the baselines of ratio targets that are not among them (run, or read
  // from the cache, for the division only).
  std::vector<std::size_t> run_rows = rows;
  for (const auto& t : s.targets)
    if (t.ratio_to_row && std::find(run_rows.begin(), run_rows.end(), t.ratio_to_row) == run_rows.end())
      run_rows.push_back(t.ratio_to_row);
  std::vector<std::vector<scenarios::sweep_value>> points;
  for (const std::size_t r : run_rows) {
    auto p = s.rows[r - 1].conditions;
    p.insert(p.end(), params.begin(), params.end());
    points.push_back(std::move(p));
  }
  // The study's set, then `shared` (a later value for the same path wins).
  std::vector<scenarios::sweep_value> all_shared;
  for (const auto* list : {&s.set, &shared})
    for (const auto& v : *list) {
      all_shared.erase(std::remove_if(all_shared.begin(), all_shared.end(),
                                      [&](const scenarios::sweep_value& x) { return x.path == v.path; }),
                       all_shared.end());
      all_shared.push_back(v);
    }
  batch_result b = run_points(s.scenario, all_shared, points, opts);
  std::vector<const metric_expr*> ms;
  for (const auto& t : s.targets) ms.push_back(&t.metric);
  std::vector<row_outcome> all;
  for (std::size_t i = 0; i < run_rows.size(); ++i) {
    row_outcome o;
    o.row = run_rows[i];
    o.simulated.assign(s.targets.size(), std::numeric_limits<double>::quiet_NaN());
    o.error = o.simulated;
    const point_result& pr = i < b.points.size() ? b.points[i] : point_result{};
    if (!pr.result) {
      o.failure = pr.error.empty() ? "not run" : pr.error;
    } else {
      try {
        o.simulated = evaluate_metrics(ms, *pr.result);
        // A time of 0 gives an infinite rate: an error no tolerance accepts.
        for (std::size_t k = 0; k < s.targets.size(); ++k)
          if (s.targets[k].reciprocal) o.simulated[k] = 1 / o.simulated[k];
      } catch (const std::exception& e) {
        o.failure = e.what();
      }
    }
    all.push_back(std::move(o));
  }
  std::vector<row_outcome> out(all.begin(), all.begin() + static_cast<std::ptrdiff_t>(rows.size()));
  for (auto& o : out) {
    if (!o.failure.empty()) continue;
    for (std::size_t k = 0; k < s.targets.size(); ++k) {
      if (const std::size_t base = s.targets[k].ratio_to_row) {
        const auto ref = std::find_if(all.begin(), all.end(), [&](const row_outcome& x) { return x.row == base; });
        // A failed baseline leaves the ratio unknown (NaN), which the fit counts as a failed run.
        o.simulated[k] = ref->failure.empty() ? o.simulated[k] / ref->simulated[k] : std::numeric_limits<double>::quiet_NaN();
      }
      if (const auto& m = s.rows[o.row - 1].measured[k]) o.error[k] = target_error(s.targets[k], *m, o.simulated[k]);
    }
  }
  if (batch) *batch = std::move(b);
  return out;
}

batch_result run_points(const std::string& scenario, const std::vector<scenarios::sweep_value>& shared,
                        const std::vector<std::vector<scenarios::sweep_value>>& points, const batch_options& opts) {
  batch_result out;
  out.points.resize(points.size());
  // Points with the same paths form one sweep; identical points run once.
  std::map<std::string, std::vector<std::size_t>> groups;
  for (std::size_t i = 0; i < points.size(); ++i) groups[signature(points[i], false)].push_back(i);
  for (const auto& [sig, members] : groups) {
    std::vector<const std::vector<scenarios::sweep_value>*> distinct;
    std::map<std::string, std::size_t> index_of;
    std::vector<std::size_t> run_of(members.size());
    for (std::size_t m = 0; m < members.size(); ++m) {
      const auto [it, fresh] = index_of.emplace(signature(points[members[m]], true), distinct.size());
      if (fresh) distinct.push_back(&points[members[m]]);
      run_of[m] = it->second;
    }
    // A row's own value for a path wins over the shared one (a sweep names a path once).
    std::vector<scenarios::sweep_value> group_shared;
    for (const auto& v : shared)
      if (std::none_of(distinct.front()->begin(), distinct.front()->end(),
                       [&](const scenarios::sweep_value& x) { return x.path == v.path; }))
        group_shared.push_back(v);
    const std::string text = sweep_text(scenario, group_shared, distinct);
    scenarios::sweep_spec spec = scenarios::load_sweep_text(text, "sweep.in.yaml");
    spec.base = scenario;
    // Named by the sweep's identity (its text and the base scenario's): a changed scenario
    // gets a new folder, never the results of the old one.
    const fs::path dir = opts.cache / scenarios::sweep_identity(spec);
    fs::create_directories(dir);
    const fs::path file = dir / "sweep.in.yaml";
    if (!fs::exists(file)) sweep::write_file_atomic(file, text);
    const sweep::sweep_folder folder(dir);
    for (const auto& r : spec.runs) out.simulated += folder.complete(r.id) ? 0 : 1;

    sweep_options so;
    so.dir = dir;
    so.jobs = opts.jobs;
    so.resume = true;
    so.timeout_s = opts.timeout_s;
    so.quiet = true;
    const int rc = run_sweep(file.string(), so);
    if (rc != sweep_ok && rc != sweep_failed) {
      out.status = rc;
      return out;
    }
    if (rc == sweep_failed) out.status = sweep_failed;
    for (std::size_t m = 0; m < members.size(); ++m) {
      const auto& run = spec.runs[run_of[m]];
      point_result& pr = out.points[members[m]];
      if (folder.complete(run.id)) pr.result = folder.result_path(run.id);
      else if (const auto rec = folder.read_record(run.id)) pr.error = rec->error.empty() ? "failed" : rec->error;
      else pr.error = "no result";
    }
  }
  return out;
}

}  // namespace ptsim::cosim::calibration
