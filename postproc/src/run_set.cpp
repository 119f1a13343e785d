// Runs for reports: result files and sweep folders, swept parameters, replicate groups.
#include "ptsim/postproc/run_set.hpp"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <map>
#include <stdexcept>

#include "ptsim/postproc/stats.hpp"

namespace ptsim::postproc {

namespace fs = std::filesystem;

namespace {

bool is_result_file(const fs::path& p) {
  std::error_code ec;
  return p.extension() == ".h5" && fs::is_regular_file(p, ec);
}

std::vector<fs::path> results_in(const fs::path& dir) {
  std::vector<fs::path> out;
  for (const auto& e : fs::directory_iterator(dir))
    if (is_result_file(e.path())) out.push_back(e.path());
  std::sort(out.begin(), out.end());
  return out;
}

// What flattening a stored scenario may cost. A scenario of the library flattens to a few
// hundred entries; aliases (`*a`) are followed, so a small text can stand for an exponential
// tree (an "alias bomb"): the walk stops at these bounds with an error instead of exhausting
// memory.
struct flatten_budget {
  std::size_t nodes = limits::scenario_nodes;
  std::size_t bytes = limits::scenario_flat_bytes;
};

void flatten(const YAML::Node& n, const std::string& path,
             std::vector<std::pair<std::string, std::string>>& out, flatten_budget& budget, int depth) {
  if (budget.nodes == 0)
    throw std::invalid_argument("the stored scenario expands to more than " + std::to_string(limits::scenario_nodes) +
                                " nodes (aliases followed)");
  --budget.nodes;
  if (depth > limits::scenario_depth)
    throw std::invalid_argument("the stored scenario nests deeper than " + std::to_string(limits::scenario_depth) +
                                " levels");
  const auto join = [&](const std::string& k) { return path.empty() ? k : path + "." + k; };
  const auto emit = [&](std::string value) {
    const std::size_t size = path.size() + value.size();
    if (size > budget.bytes)
      throw std::invalid_argument("the stored scenario expands to more than " +
                                  std::to_string(limits::scenario_flat_bytes) + " bytes (aliases followed)");
    budget.bytes -= size;
    out.emplace_back(path, std::move(value));
  };
  switch (n.Type()) {
    case YAML::NodeType::Map:
      for (const auto& kv : n) {
        if (!kv.first.IsScalar()) throw std::invalid_argument("the stored scenario has a key that is not a scalar");
        flatten(kv.second, join(kv.first.Scalar()), out, budget, depth + 1);
      }
      break;
    case YAML::NodeType::Sequence:
      for (std::size_t i = 0; i < n.size(); ++i) flatten(n[i], join(std::to_string(i)), out, budget, depth + 1);
      break;
    case YAML::NodeType::Scalar: emit(n.Scalar()); break;
    default: emit("null"); break;
  }
}

// RFC 4180 fields of one csv line (quotes doubled inside quoted fields).
std::vector<std::string> csv_fields(const std::string& line) {
  std::vector<std::string> out(1);
  bool quoted = false;
  for (std::size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (quoted) {
      if (c == '"' && i + 1 < line.size() && line[i + 1] == '"') out.back() += '"', ++i;
      else if (c == '"') quoted = false;
      else out.back() += c;
    } else if (c == '"') {
      quoted = true;
    } else if (c == ',') {
      out.emplace_back();
    } else if (c != '\r') {
      out.back() += c;
    }
  }
  return out;
}

// The shortest dotted suffix of each path that no other path shares ("policy.governor" ->
// "governor"), for compact labels.
std::map<std::string, std::string> short_names(const std::vector<std::string>& paths) {
  std::map<std::string, std::string> out;
  for (const std::string& p : paths) {
    std::string name = p;
    for (std::size_t at = p.rfind('.'); at != std::string::npos; at = p.rfind('.', at - 1)) {
      const std::string suffix = p.substr(at + 1);
      const bool unique = std::none_of(paths.begin(), paths.end(), [&](const std::string& q) {
        return q != p && (q == suffix || (q.size() > suffix.size() &&
                                          q.compare(q.size() - suffix.size(), suffix.size(), suffix) == 0 &&
                                          q[q.size() - suffix.size() - 1] == '.'));
      });
      if (unique) {
        name = suffix;
        break;
      }
      if (at == 0) break;
    }
    out[p] = name;
  }
  return out;
}

std::string value_at(const loaded_run& r, const std::string& path) {
  for (const auto& [k, v] : r.scenario)
    if (k == path) return v;
  return "(unset)";
}

// More differing paths than this: the runs are different scenarios, not a sweep; their ids
// label them better than a long list of differences.
constexpr std::size_t max_label_params = 6;

std::vector<std::pair<std::string, std::string>> params_of(const loaded_run& r,
                                                           const std::vector<std::string>& swept) {
  std::vector<std::pair<std::string, std::string>> out;
  for (const std::string& p : swept) out.emplace_back(p, value_at(r, p));
  return out;
}

std::string label_of(const std::vector<std::pair<std::string, std::string>>& params,
                     const std::map<std::string, std::string>& names) {
  std::string out;
  for (const auto& [k, v] : params) out += (out.empty() ? "" : ", ") + names.at(k) + "=" + v;
  return out;
}

// The scenario without its seed: equal keys mean replicates of one configuration.
std::string configuration_key(const loaded_run& r) {
  std::string key;
  for (const auto& [k, v] : r.scenario)
    if (k != "seed") key += k + "\x1f" + v + "\x1e";
  return key;
}

labelled_summary entry_of(const loaded_run& r, const std::vector<std::string>& swept) {
  labelled_summary e;
  e.label = r.id;
  e.summary = r.summary;
  e.params = params_of(r, swept);
  e.units = r.units;
  e.domains = r.domains;
  e.component_power_W = r.component_power_W;
  e.op_times = r.op_times;
  e.ops_dropped = r.ops_dropped;
  e.time_s = r.time_s;
  e.platform_power_W = r.platform_power_W;
  e.max_temperature_C = r.max_temperature_C;
  return e;
}

// Mean ± CI of every metric over the group's runs; per-unit and per-domain values as means.
labelled_summary merge(const std::vector<const loaded_run*>& group, const std::vector<std::string>& swept) {
  labelled_summary e = entry_of(*group.front(), swept);
  e.summary.metrics.clear();
  std::map<std::string, std::vector<double>> values;
  for (const loaded_run* r : group) {
    e.runs.push_back(r->id);
    for (const auto& [name, m] : r->summary.metrics) {
      values[name].push_back(m.value);
      e.summary.metrics[name].units = m.units;
    }
  }
  for (const auto& [name, v] : values) {
    const mean_ci s = mean_with_ci95(v);
    e.summary.metrics[name].value = s.mean;
    e.ci95[name] = s.half_width;
  }
  const double n = static_cast<double>(group.size());
  for (auto& u : e.units) {
    u = {u.unit, 0, 0, 0, 0, 0, 0, 0};
    double ops = 0;
    for (const loaded_run* r : group)
      for (const auto& x : r->units)
        if (x.unit == u.unit) {
          u.compute_bound_s += x.compute_bound_s / n;
          u.memory_bound_s += x.memory_bound_s / n;
          u.interconnect_bound_s += x.interconnect_bound_s / n;
          u.dvfs_stall_s += x.dvfs_stall_s / n;
          u.idle_exit_s += x.idle_exit_s / n;
          u.idle_s += x.idle_s / n;
          ops += static_cast<double>(x.ops) / n;
        }
    u.ops = static_cast<std::uint64_t>(std::llround(ops));
  }
  for (auto& d : e.domains) {
    d = {d.domain, 0, 0, 0};
    for (const loaded_run* r : group)
      for (const auto& x : r->domains)
        if (x.domain == d.domain) {
          d.throttled_fraction += x.throttled_fraction / n;
          d.throttled_thermal_fraction += x.throttled_thermal_fraction / n;
          d.throttled_power_fraction += x.throttled_power_fraction / n;
        }
  }
  for (auto& [name, watts] : e.component_power_W) {
    watts = 0;
    for (const loaded_run* r : group)
      for (const auto& [other, w] : r->component_power_W)
        if (other == name) watts += w / n;
  }
  return e;
}

// Mean power of each component over the run, from the timeseries (none: not recorded).
std::vector<std::pair<std::string, double>> mean_component_power(const result_reader& r) {
  std::vector<std::pair<std::string, double>> out;
  const auto names = r.coord("component");
  std::size_t nc = 0;
  const auto p = names.empty() ? std::vector<double>{} : r.variable("power", &nc);
  if (nc != names.size() || p.empty()) return out;
  const std::size_t rows = p.size() / nc;
  for (std::size_t c = 0; c < nc; ++c) {
    double sum = 0;
    for (std::size_t k = 0; k < rows; ++k) sum += p[k * nc + c];
    out.emplace_back(names[c], sum / static_cast<double>(rows));
  }
  return out;
}

// Platform power (the components' power summed) and the hottest block at each sample.
void read_timeline(const result_reader& r, loaded_run& run) {
  run.time_s = r.time();
  std::size_t nc = 0, nb = 0;
  const auto p = r.variable("power", &nc);
  const auto t = r.variable("temperature", &nb);
  const std::size_t n = run.time_s.size();
  if (nc == 0 || nb == 0 || p.size() != n * nc || t.size() != n * nb) {
    run.time_s.clear();
    return;
  }
  run.platform_power_W.assign(n, 0.0);
  run.max_temperature_C.assign(n, -INFINITY);
  for (std::size_t k = 0; k < n; ++k) {
    for (std::size_t c = 0; c < nc; ++c) run.platform_power_W[k] += p[k * nc + c];
    for (std::size_t b = 0; b < nb; ++b) run.max_temperature_C[k] = std::max(run.max_temperature_C[k], t[k * nb + b]);
  }
}

}  // namespace

std::vector<fs::path> expand_result_inputs(const std::vector<fs::path>& inputs) {
  std::vector<fs::path> out;
  for (const fs::path& in : inputs) {
    std::error_code ec;
    if (fs::is_directory(in, ec)) {
      const bool sweep = fs::is_directory(in / "runs", ec);
      std::vector<fs::path> found = results_in(sweep ? in / "runs" : in);
      if (found.empty())
        throw std::invalid_argument(in.string() + ": expected result files (" +
                                    (sweep ? "runs/*.h5" : "*.h5") + "), found none");
      out.insert(out.end(), found.begin(), found.end());
    } else if (fs::exists(in, ec)) {
      out.push_back(in);
    } else {
      throw std::invalid_argument(in.string() + ": no such file or folder");
    }
  }
  return out;
}

std::vector<std::pair<std::string, std::string>> failed_runs(const fs::path& dir) {
  std::vector<std::pair<std::string, std::string>> out;
  std::ifstream in(dir / "summary.csv");
  std::string line;
  if (!in || !std::getline(in, line)) return out;
  const std::vector<std::string> header = csv_fields(line);
  const auto col = [&](const char* name) {
    return static_cast<std::size_t>(std::find(header.begin(), header.end(), name) - header.begin());
  };
  const std::size_t id = col("run_id"), status = col("status"), error = col("error");
  if (id == header.size() || status == header.size()) return out;
  while (std::getline(in, line)) {
    const std::vector<std::string> f = csv_fields(line);
    if (status < f.size() && id < f.size() && f[status] != "ok")
      out.emplace_back(f[id], error < f.size() ? f[error] : "");
  }
  return out;
}

std::vector<std::pair<std::string, std::string>> flatten_yaml(const std::string& yaml) {
  std::vector<std::pair<std::string, std::string>> out;
  if (yaml.size() > limits::scenario_text_bytes)
    throw std::invalid_argument("the stored scenario is " + std::to_string(yaml.size()) + " bytes, more than " +
                                std::to_string(limits::scenario_text_bytes));
  try {
    flatten_budget budget;
    flatten(YAML::Load(yaml), "", out, budget, 0);
  } catch (const YAML::Exception& e) {
    throw std::invalid_argument(std::string("scenario text is not valid YAML: ") + e.what());
  }
  return out;
}

std::vector<loaded_run> load_runs(const std::vector<fs::path>& files) {
  std::vector<loaded_run> runs;
  for (const fs::path& f : files) {
    const result_reader r(f);
    loaded_run run;
    run.id = f.stem().string();
    run.path = f;
    run.meta = r.metadata();
    run.summary = r.summary();
    run.units = r.unit_summary();
    run.domains = r.domain_summary();
    const ops_table ops = r.ops();
    run.op_times = op_breakdown(ops);
    run.ops_dropped = ops.dropped;
    try {
      run.component_power_W = mean_component_power(r);
      read_timeline(r, run);
    } catch (const std::exception&) {
      run.component_power_W.clear();  // a file without a power timeseries: nothing to show
      run.time_s.clear();
      run.platform_power_W.clear();
      run.max_temperature_C.clear();
    }
    try {
      run.scenario = flatten_yaml(run.meta.scenario_yaml);
    } catch (const std::invalid_argument& e) {
      throw std::runtime_error(f.string() + ": " + e.what());
    }
    runs.push_back(std::move(run));
  }
  return runs;
}

std::vector<std::string> swept_parameters(const std::vector<loaded_run>& runs) {
  std::vector<std::string> paths;
  if (runs.size() < 2) return paths;
  std::map<std::string, std::size_t> seen;
  for (const auto& r : runs)
    for (const auto& kv : r.scenario)
      if (seen.emplace(kv.first, paths.size()).second) paths.push_back(kv.first);
  std::vector<std::string> swept;
  for (const std::string& p : paths) {
    if (p == "seed") continue;
    const std::string first = value_at(runs.front(), p);
    if (std::any_of(runs.begin() + 1, runs.end(), [&](const auto& r) { return value_at(r, p) != first; }))
      swept.push_back(p);
  }
  return swept;
}

std::vector<labelled_summary> entries_per_run(const std::vector<loaded_run>& runs) {
  std::vector<std::string> swept = swept_parameters(runs);
  if (swept.size() > max_label_params) swept.clear();
  std::vector<labelled_summary> out;
  for (const auto& r : runs) out.push_back(entry_of(r, swept));
  return out;
}

bool has_replicates(const std::vector<loaded_run>& runs) {
  std::map<std::string, int> count;
  for (const auto& r : runs)
    if (++count[configuration_key(r)] > 1) return true;
  return false;
}

std::vector<labelled_summary> entries_by_configuration(const std::vector<loaded_run>& runs) {
  std::vector<std::string> swept = swept_parameters(runs);
  if (swept.size() > max_label_params) swept.clear();
  const auto names = short_names(swept);
  std::vector<std::string> order;
  std::map<std::string, std::vector<const loaded_run*>> groups;
  for (const auto& r : runs) {
    const std::string key = configuration_key(r);
    if (!groups.count(key)) order.push_back(key);
    groups[key].push_back(&r);
  }
  std::vector<labelled_summary> out;
  for (const std::string& key : order) {
    const auto& g = groups[key];
    if (g.size() == 1) {
      out.push_back(entry_of(*g.front(), swept));
      continue;
    }
    labelled_summary e = merge(g, swept);
    e.label = swept.empty() ? g.front()->id + " (" + std::to_string(g.size()) + " seeds)" : label_of(e.params, names);
    out.push_back(std::move(e));
  }
  return out;
}

}  // namespace ptsim::postproc
