// `ptsim report`: summaries of runs as a text table, markdown, csv or json.
#include "ptsim/postproc/report.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <set>
#include <stdexcept>

#include "json_text.hpp"
#include "ptsim/postproc/metric_catalogue.hpp"
#include "number_text.hpp"
#include "report_grids.hpp"
#include "text_grid.hpp"

namespace ptsim::postproc {

namespace {

const double nan = std::numeric_limits<double>::quiet_NaN();

// The catalogue's metrics first, in its order; any others after, by name.
std::vector<std::string> metric_names(const std::vector<labelled_summary>& runs) {
  std::set<std::string> present;
  for (const auto& r : runs)
    for (const auto& [n, m] : r.summary.metrics) present.insert(n);
  return order_metrics(present);
}

// A metric's unit; throughput falls back on throughput_units when it carries none itself.
std::string units_of(const run_summary& s, const std::string& name) {
  auto it = s.metrics.find(name);
  if (it == s.metrics.end()) return {};
  if (it->second.units.empty() && name == "throughput") return s.throughput_units;
  return it->second.units;
}

std::string units_of(const std::vector<labelled_summary>& runs, const std::string& name) {
  for (const auto& r : runs)
    if (r.summary.metrics.count(name)) return units_of(r.summary, name);
  return {};
}

// Whether the entries that have a metric give it in different units (throughput of a camera
// run in inferences/s beside an LLM run's tokens/s): each cell then says its own.
bool units_differ(const std::vector<labelled_summary>& runs, const std::string& name) {
  const std::string first = units_of(runs, name);
  return std::any_of(runs.begin(), runs.end(), [&](const labelled_summary& r) {
    return r.summary.metrics.count(name) && units_of(r.summary, name) != first;
  });
}

// The distinct units of a metric over the entries, in order of first appearance.
std::vector<std::string> units_seen(const std::vector<labelled_summary>& runs, const std::string& name) {
  std::vector<std::string> out;
  for (const auto& r : runs)
    if (r.summary.metrics.count(name)) {
      const std::string u = units_of(r.summary, name);
      if (std::find(out.begin(), out.end(), u) == out.end()) out.push_back(u);
    }
  return out;
}

const metric* find(const run_summary& s, const std::string& name) {
  auto it = s.metrics.find(name);
  return it == s.metrics.end() ? nullptr : &it->second;
}

// Labels in order of first appearance across the entries.
template <typename Get>
std::vector<std::string> union_of(const std::vector<labelled_summary>& runs, Get get) {
  std::vector<std::string> out;
  for (const auto& r : runs)
    for (const std::string& k : get(r))
      if (std::find(out.begin(), out.end(), k) == out.end()) out.push_back(k);
  return out;
}

std::vector<std::string> param_names(const std::vector<labelled_summary>& runs) {
  return union_of(runs, [](const labelled_summary& r) {
    std::vector<std::string> k;
    for (const auto& p : r.params) k.push_back(p.first);
    return k;
  });
}

std::vector<std::string> domain_names(const std::vector<labelled_summary>& runs) {
  return union_of(runs, [](const labelled_summary& r) {
    std::vector<std::string> k;
    for (const auto& d : r.domains) k.push_back(d.domain);
    return k;
  });
}

std::vector<std::string> unit_names(const std::vector<labelled_summary>& runs) {
  return union_of(runs, [](const labelled_summary& r) {
    std::vector<std::string> k;
    for (const auto& u : r.units) k.push_back(u.unit);
    return k;
  });
}

std::string param_of(const labelled_summary& r, const std::string& name) {
  for (const auto& p : r.params)
    if (p.first == name) return p.second;
  return {};
}

const unit_time_row* unit_of(const labelled_summary& r, const std::string& name) {
  for (const auto& u : r.units)
    if (u.unit == name) return &u;
  return nullptr;
}

// The per-unit quantities, by the names report_value and csv use.
struct unit_quantity {
  const char* name;
  const char* heading;  ///< in the table of where the time went
  double (*get)(const unit_time_row&);
};

const std::vector<unit_quantity>& unit_quantities() {
  static const std::vector<unit_quantity> q{
      {"busy_s", "busy", [](const unit_time_row& u) { return u.busy_s(); }},
      {"compute_bound_s", "compute-bound", [](const unit_time_row& u) { return u.compute_bound_s; }},
      {"memory_bound_s", "memory-bound", [](const unit_time_row& u) { return u.memory_bound_s; }},
      {"interconnect_bound_s", "interconnect-bound", [](const unit_time_row& u) { return u.interconnect_bound_s; }},
      {"dvfs_stall_s", "DVFS stall", [](const unit_time_row& u) { return u.dvfs_stall_s; }},
      {"idle_exit_s", "idle exit", [](const unit_time_row& u) { return u.idle_exit_s; }},
      {"idle_s", "idle", [](const unit_time_row& u) { return u.idle_s; }},
  };
  return q;
}

struct domain_quantity {
  const char* name;
  const char* units;
  double (*get)(const domain_summary_row&);
};

// Per-domain throttle residency (for any reason, then by reason) and what it cost.
const std::vector<domain_quantity>& domain_quantities() {
  static const std::vector<domain_quantity> q{
      {"throttled_fraction", "1", [](const domain_summary_row& d) { return d.throttled_fraction; }},
      {"throttled_thermal_fraction", "1", [](const domain_summary_row& d) { return d.throttled_thermal_fraction; }},
      {"throttled_power_fraction", "1", [](const domain_summary_row& d) { return d.throttled_power_fraction; }},
      {"time_lost_thermal_s", "s", [](const domain_summary_row& d) { return d.time_lost_thermal_s; }},
      {"time_lost_power_s", "s", [](const domain_summary_row& d) { return d.time_lost_power_s; }},
      {"domain_busy_s", "s", [](const domain_summary_row& d) { return d.busy_s; }},  // not busy_s: a unit's
  };
  return q;
}

bool limits_cost_something(const domain_summary_row& d) { return d.time_lost_thermal_s + d.time_lost_power_s > 0; }

std::string human_number(double x) { return significant_text(x, 6); }

// "12.3 ± 0.4" for a group, the plain number for a run.
std::string human_cell(const labelled_summary& r, const std::string& name, double value) {
  auto ci = r.ci95.find(name);
  if (ci == r.ci95.end() || !std::isfinite(ci->second)) return human_number(value);
  return human_number(value) + " ± " + significant_text(ci->second, 3);
}

bool any_groups(const std::vector<labelled_summary>& runs) {
  return std::any_of(runs.begin(), runs.end(), [](const auto& r) { return !r.runs.empty(); });
}

// Parameters, metrics and per-domain throttling: one row each, one column per entry.
text_grid summary_grid(const std::vector<labelled_summary>& runs, bool human) {
  text_grid g;
  g.text_columns = 2;
  g.header = {"metric", "units"};
  const bool ci_columns = !human && any_groups(runs);
  for (const auto& r : runs) {
    g.header.push_back(r.label);
    if (ci_columns) g.header.push_back(r.label + " ci95");
  }
  auto number_cells = [&](std::vector<std::string>& row, const labelled_summary& r,
                          const std::string& name, double v, bool present) {
    if (!present) {
      row.push_back(human ? "-" : "");
      if (ci_columns) row.push_back("");
      return;
    }
    row.push_back(human ? human_cell(r, name, v) : shortest_text(v));
    if (ci_columns) {
      auto ci = r.ci95.find(name);
      row.push_back(ci != r.ci95.end() && std::isfinite(ci->second) ? shortest_text(ci->second) : "");
    }
  };
  for (const std::string& p : param_names(runs)) {
    std::vector<std::string> row{p, "param"};
    for (const auto& r : runs) {
      row.push_back(param_of(r, p));
      if (ci_columns) row.push_back("");
    }
    g.rows.push_back(std::move(row));
  }
  for (const std::string& name : metric_names(runs)) {
    if (!units_differ(runs, name)) {
      std::vector<std::string> row{name, units_of(runs, name)};
      for (const auto& r : runs) {
        const metric* m = find(r.summary, name);
        number_cells(row, r, name, m ? m->value : nan, m != nullptr);
      }
      g.rows.push_back(std::move(row));
      continue;
    }
    // Entries in different units: a table says each cell's unit; csv gives one row per unit,
    // each entry's number on the row of its unit.
    if (human) {
      std::vector<std::string> row{name, "(each its own)"};
      for (const auto& r : runs) {
        const metric* m = find(r.summary, name);
        number_cells(row, r, name, m ? m->value : nan, m != nullptr);
        if (m) row.back() += " " + units_of(r.summary, name);
      }
      g.rows.push_back(std::move(row));
      continue;
    }
    for (const std::string& u : units_seen(runs, name)) {
      std::vector<std::string> row{name, u};
      for (const auto& r : runs) {
        const metric* m = find(r.summary, name);
        const bool here = m && units_of(r.summary, name) == u;
        number_cells(row, r, name, here ? m->value : nan, here);
      }
      g.rows.push_back(std::move(row));
    }
  }
  // Per-domain throttling; the split by reason only where some entry has it.
  for (const auto& q : domain_quantities())
    for (const std::string& d : domain_names(runs)) {
      const std::string name = std::string(q.name) + "[" + d + "]";
      const bool first = &q == &domain_quantities().front();
      if (!first && std::none_of(runs.begin(), runs.end(), [&](const auto& r) { return report_value(r, name) > 0; }))
        continue;
      std::vector<std::string> row{name, q.units};
      for (const auto& r : runs) {
        const double v = report_value(r, name);
        number_cells(row, r, name, v, !std::isnan(v));
      }
      g.rows.push_back(std::move(row));
    }
  if (!human) {  // csv carries the time breakdown in seconds as rows of the one table
    for (const std::string& u : unit_names(runs)) {
      for (const auto& q : unit_quantities()) {
        const std::string name = std::string(q.name) + "[" + u + "]";
        std::vector<std::string> row{name, "s"};
        for (const auto& r : runs) {
          const double v = report_value(r, name);
          number_cells(row, r, name, v, !std::isnan(v));
        }
        g.rows.push_back(std::move(row));
      }
      std::vector<std::string> row{"ops[" + u + "]", "1"};
      for (const auto& r : runs) {
        const double v = report_value(r, "ops[" + u + "]");
        number_cells(row, r, "", v, !std::isnan(v));
      }
      g.rows.push_back(std::move(row));
    }
  }
  return g;
}

// Three significant digits: 41.7%, 0.0412% (a small share is still visible).
std::string percent(double part, double whole) {
  if (!(whole > 0) || !std::isfinite(part)) return "-";
  return significant_text(100.0 * part / whole, 3) + "%";
}

// Where each unit's time went, in percent of the run: units as rows for one entry; for
// several, one row per unit and category with the entries as columns.
text_grid time_grid(const std::vector<labelled_summary>& runs) {
  text_grid g;
  const std::vector<std::string> units = unit_names(runs);
  if (runs.size() == 1) {
    g.header = {"unit"};
    for (const auto& q : unit_quantities()) g.header.push_back(q.heading);
    g.header.push_back("ops");
    for (const auto& u : runs[0].units) {
      const double run_s = u.busy_s() + u.idle_s;
      std::vector<std::string> row{u.unit};
      for (const auto& q : unit_quantities()) row.push_back(percent(q.get(u), run_s));
      row.push_back(std::to_string(u.ops));
      g.rows.push_back(std::move(row));
    }
    return g;
  }
  g.text_columns = 2;
  g.header = {"unit", "share"};
  for (const auto& r : runs) g.header.push_back(r.label);
  for (const std::string& name : units) {
    for (const auto& q : unit_quantities()) {
      // Busy and idle always; a kind of stall only where some entry has it.
      const bool always = std::string(q.name) == "busy_s" || std::string(q.name) == "idle_s";
      if (!always && std::none_of(runs.begin(), runs.end(), [&](const auto& r) {
            const unit_time_row* u = unit_of(r, name);
            return u && q.get(*u) > 0;
          }))
        continue;
      std::vector<std::string> row{name, q.heading};
      for (const auto& r : runs) {
        const unit_time_row* u = unit_of(r, name);
        row.push_back(u ? percent(q.get(*u), u->busy_s() + u->idle_s) : "-");
      }
      g.rows.push_back(std::move(row));
    }
  }
  return g;
}

// Mean power per component (the timeseries `power` by `component`), one column per entry.
text_grid component_grid(const std::vector<labelled_summary>& runs) {
  text_grid g;
  g.header = {"component"};
  for (const auto& r : runs) g.header.push_back(runs.size() == 1 ? "mean W" : r.label);
  std::vector<std::string> names;
  for (const auto& r : runs)
    for (const auto& [name, w] : r.component_power_W)
      if (std::find(names.begin(), names.end(), name) == names.end()) names.push_back(name);
  for (const auto& name : names) {
    std::vector<std::string> row{name};
    for (const auto& r : runs) {
      std::string cell = "-";
      for (const auto& [other, w] : r.component_power_W)
        if (other == name) cell = human_number(w);
      row.push_back(cell);
    }
    g.rows.push_back(std::move(row));
  }
  return g;
}

bool any_component_power(const std::vector<labelled_summary>& runs) {
  return std::any_of(runs.begin(), runs.end(), [](const auto& r) { return !r.component_power_W.empty(); });
}

bool any_units(const std::vector<labelled_summary>& runs) {
  return std::any_of(runs.begin(), runs.end(), [](const auto& r) { return !r.units.empty(); });
}

// What the thermal and power limits cost, per throttled domain: the compute-bound time they
// added, and that time as a share of the domain's busy time, which bounds the throughput a
// saturated domain lost (its work would have needed that much less time unthrottled).
text_grid cost_grid(const std::vector<labelled_summary>& runs) {
  text_grid g;
  const bool many = runs.size() > 1;
  if (many) g.header.push_back("entry");
  for (const char* h : {"domain", "throttled", "lost to thermal", "lost to power", "share of busy"})
    g.header.push_back(h);
  g.text_columns = many ? 2 : 1;
  for (const auto& r : runs)
    for (const auto& d : r.domains) {
      if (!limits_cost_something(d)) continue;
      std::vector<std::string> row;
      if (many) row.push_back(r.label);
      row.push_back(d.domain);
      row.push_back(percent(d.throttled_fraction, 1.0));
      row.push_back(human_number(d.time_lost_thermal_s) + " s");
      row.push_back(human_number(d.time_lost_power_s) + " s");
      row.push_back(percent(d.time_lost_thermal_s + d.time_lost_power_s, d.busy_s));
      g.rows.push_back(std::move(row));
    }
  return g;
}

bool any_cost(const std::vector<labelled_summary>& runs) {
  return std::any_of(runs.begin(), runs.end(), [](const auto& r) {
    return std::any_of(r.domains.begin(), r.domains.end(), limits_cost_something);
  });
}

// The heaviest operators of a single run (fused kernels under their '+'-joined names),
// summed over the units that ran them: their share of all operator time in the ops table
// and how much of their own time memory set.
constexpr std::size_t heaviest_ops = 12;

bool any_op_times(const std::vector<labelled_summary>& runs) {
  return runs.size() == 1 && runs[0].runs.empty() && !runs[0].op_times.empty();
}

struct op_total {
  std::string op;
  std::vector<std::string> units;
  op_time_row sum;
};

std::vector<op_total> op_totals(const labelled_summary& r) {
  std::vector<op_total> out;
  for (const op_time_row& o : r.op_times) {
    auto it = std::find_if(out.begin(), out.end(), [&](const op_total& t) { return t.op == o.op; });
    if (it == out.end()) it = out.insert(out.end(), op_total{o.op, {}, {}});
    it->units.push_back(o.unit);
    it->sum.executions += o.executions;
    it->sum.seconds += o.seconds;
    it->sum.memory_bound_s += o.memory_bound_s;
  }
  std::stable_sort(out.begin(), out.end(), [](const op_total& a, const op_total& b) { return a.sum.seconds > b.sum.seconds; });
  return out;
}

std::string op_title(const labelled_summary& r) {
  std::string t = "by operator (the heaviest, share of all operator time";
  if (r.ops_dropped > 0) t += "; the ops table's first executions, " + std::to_string(r.ops_dropped) + " more not kept";
  return t + ")";
}

text_grid op_grid(const labelled_summary& r) {
  text_grid g;
  g.header = {"operator", "units", "executions", "time", "share", "memory-bound"};
  g.text_columns = 2;
  const std::vector<op_total> totals = op_totals(r);
  double all = 0;
  for (const auto& t : totals) all += t.sum.seconds;
  for (std::size_t i = 0; i < totals.size() && i < heaviest_ops; ++i) {
    const op_total& t = totals[i];
    std::string units = t.units.size() <= 2 ? t.units.front() : std::to_string(t.units.size()) + " units";
    if (t.units.size() == 2) units += ", " + t.units[1];
    g.rows.push_back({t.op, units, std::to_string(t.sum.executions), human_number(t.sum.seconds) + " s",
                      percent(t.sum.seconds, all), percent(t.sum.memory_bound_s, t.sum.seconds)});
  }
  return g;
}

constexpr const char* cost_title =
    "what the limits cost (compute-bound time added by running below the governor's request)";

std::string format_table(const std::vector<labelled_summary>& runs) {
  std::string out = summary_grid(runs, true).table();
  if (any_units(runs)) out += "\nwhere the time went (share of the run)\n" + time_grid(runs).table();
  if (any_op_times(runs)) out += "\nwhere the time went " + op_title(runs[0]) + "\n" + op_grid(runs[0]).table();
  if (any_component_power(runs)) out += "\npower by component (mean over the run)\n" + component_grid(runs).table();
  if (any_cost(runs)) out += "\n" + std::string(cost_title) + "\n" + cost_grid(runs).table();
  return out;
}

std::string format_markdown(const std::vector<labelled_summary>& runs) {
  std::string out = summary_grid(runs, true).markdown();
  if (any_units(runs)) out += "\n**Where the time went** (share of the run)\n\n" + time_grid(runs).markdown();
  if (any_op_times(runs))
    out += "\n**Where the time went** " + op_title(runs[0]) + "\n\n" + op_grid(runs[0]).markdown();
  if (any_component_power(runs))
    out += "\n**Power by component** (mean over the run)\n\n" + component_grid(runs).markdown();
  if (any_cost(runs)) out += "\n**What the limits cost** (compute-bound time added by running below the governor's "
                             "request)\n\n" + cost_grid(runs).markdown();
  return out;
}

std::string format_csv(const std::vector<labelled_summary>& runs) {
  // Machine-readable: the shortest text that reads back to the same double.
  return summary_grid(runs, false).csv();
}

// {"k": v, ...} from prepared member texts.
std::string json_members(const std::vector<std::pair<std::string, std::string>>& members,
                         const std::string& indent) {
  std::string out = "{\n";
  for (std::size_t i = 0; i < members.size(); ++i)
    out += indent + "  " + json::quote(members[i].first) + ": " + members[i].second +
           (i + 1 < members.size() ? ",\n" : "\n");
  return out + indent + "}";
}

std::string json_inline(const std::vector<std::pair<std::string, std::string>>& members) {
  std::string out = "{";
  for (std::size_t i = 0; i < members.size(); ++i)
    out += (i ? ", " : "") + json::quote(members[i].first) + ": " + members[i].second;
  return out + "}";
}

std::string json_object(const labelled_summary& run, const std::vector<std::string>& names,
                        bool with_label, const std::string& indent) {
  std::vector<std::pair<std::string, std::string>> members, units, ci;
  if (with_label) members.emplace_back("run", json::quote(run.label));
  if (!run.runs.empty()) {
    std::string ids = "[";
    for (std::size_t i = 0; i < run.runs.size(); ++i) ids += (i ? ", " : "") + json::quote(run.runs[i]);
    members.emplace_back("runs", ids + "]");
  }
  if (!run.params.empty()) {
    std::vector<std::pair<std::string, std::string>> p;
    for (const auto& [k, v] : run.params) p.emplace_back(k, json::quote(v));
    members.emplace_back("params", json_inline(p));
  }
  for (const std::string& name : names) {
    const metric* m = find(run.summary, name);
    if (!m) continue;
    members.emplace_back(name, json::number(m->value));
    units.emplace_back(name, json::quote(units_of(run.summary, name)));
    if (auto it = run.ci95.find(name); it != run.ci95.end()) ci.emplace_back(name, json::number(it->second));
  }
  if (!run.runs.empty()) members.emplace_back("ci95", json_inline(ci));
  if (!run.domains.empty()) {
    std::vector<std::pair<std::string, std::string>> d;
    for (const auto& row : run.domains) {
      std::vector<std::pair<std::string, std::string>> q;
      for (const auto& dq : domain_quantities()) q.emplace_back(dq.name, json::number(dq.get(row)));
      d.emplace_back(row.domain, json_inline(q));
    }
    members.emplace_back("domains", json_members(d, indent + "  "));
  }
  if (!run.units.empty()) {
    std::vector<std::pair<std::string, std::string>> u;
    for (const auto& row : run.units) {
      std::vector<std::pair<std::string, std::string>> q;
      for (const auto& uq : unit_quantities()) q.emplace_back(uq.name, json::number(uq.get(row)));
      q.emplace_back("ops", std::to_string(row.ops));
      u.emplace_back(row.unit, json_inline(q));
    }
    members.emplace_back("time_breakdown", json_members(u, indent + "  "));
  }
  members.emplace_back("units", json_inline(units));
  return json_members(members, indent);
}

std::string format_json(const std::vector<labelled_summary>& runs) {
  const auto names = metric_names(runs);
  if (runs.size() == 1) return json_object(runs[0], names, false, "") + "\n";
  std::string out = "[";
  for (std::size_t i = 0; i < runs.size(); ++i)
    out += std::string(i ? ",\n  " : "\n  ") + json_object(runs[i], names, true, "  ");
  return out + (runs.empty() ? "]\n" : "\n]\n");
}

}  // namespace

report_format parse_report_format(const std::string& s) {
  if (s == "table") return report_format::table;
  if (s == "csv") return report_format::csv;
  if (s == "json") return report_format::json;
  if (s == "markdown") return report_format::markdown;
  if (s == "html") return report_format::html;
  throw std::invalid_argument("unknown report format '" + s +
                              "' (expected table, csv, json, markdown or html)");
}

double report_value(const labelled_summary& e, const std::string& name) {
  // Summary metrics first, labelled ones included ("ttft_p99_s[chat]", "energy_J[gpu0]").
  if (const metric* m = find(e.summary, name)) return m->value;
  const std::size_t open = name.find('[');
  if (open == std::string::npos || name.back() != ']') return nan;
  const std::string what = name.substr(0, open), label = name.substr(open + 1, name.size() - open - 2);
  // Domain quantities first; a label that is no domain falls through to the units.
  for (const auto& q : domain_quantities())
    if (what == q.name)
      for (const auto& d : e.domains)
        if (d.domain == label) return q.get(d);
  const unit_time_row* u = unit_of(e, label);
  if (!u) return nan;
  if (what == "ops") return static_cast<double>(u->ops);
  for (const auto& q : unit_quantities())
    if (what == q.name) return q.get(*u);
  return nan;
}

std::string format_report(const std::vector<labelled_summary>& runs, report_format fmt) {
  switch (fmt) {
    case report_format::table: return format_table(runs);
    case report_format::markdown: return format_markdown(runs);
    case report_format::csv: return format_csv(runs);
    case report_format::json: return format_json(runs);
    case report_format::html: return format_html(runs);
  }
  throw std::invalid_argument("unknown report format");
}

text_grid report_summary_grid(const std::vector<labelled_summary>& runs) { return summary_grid(runs, true); }
text_grid report_time_grid(const std::vector<labelled_summary>& runs) { return time_grid(runs); }

}  // namespace ptsim::postproc
