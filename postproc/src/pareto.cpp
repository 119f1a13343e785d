// --pareto: energy against time per configuration, the two optima and the Pareto front.
#include "ptsim/postproc/pareto.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string_view>

#include "json_text.hpp"
#include "number_text.hpp"
#include "params_text.hpp"
#include "text_grid.hpp"
#include "ptsim/text/trim.hpp"

namespace ptsim::postproc {

namespace {

double summary_value(const labelled_summary& e, const std::string& name) {
  const auto it = e.summary.metrics.find(name);
  return it == e.summary.metrics.end() ? std::nan("") : it->second.value;
}

// The per-work axes: time_per_work_s, energy_per_work_J and energy_per_work_J[A+B+...], the
// energy of some components or groups only (a GPU board as a GPU-only meter reads it).
constexpr std::string_view part_prefix = "energy_per_work_J[";

bool per_work(const std::string& name) {
  return name == "time_per_work_s" || name == "energy_per_work_J" ||
         (name.rfind(part_prefix, 0) == 0 && name.back() == ']');
}

// energy_per_work_J[A+B]: (energy_J[A] + energy_J[B]) / energy_J x avg_power_W / throughput,
// each name a component (energy_J[name]) or else a group (energy_group_J[name]).
double part_energy_per_work(const labelled_summary& e, const std::string& inner, double tput) {
  double part = 0;
  std::size_t from = 0;
  while (from <= inner.size()) {
    const std::size_t plus = std::min(inner.find('+', from), inner.size());
    const std::string n = text::trim(inner.substr(from, plus - from));
    double v = summary_value(e, "energy_J[" + n + "]");
    if (std::isnan(v)) v = summary_value(e, "energy_group_J[" + n + "]");
    if (n.empty() || std::isnan(v)) return std::nan("");
    part += v;
    from = plus + 1;
  }
  const double total = summary_value(e, "energy_J");
  return tput > 0 && total > 0 ? part / total * summary_value(e, "avg_power_W") / tput : std::nan("");
}

std::string units_of(const std::vector<labelled_summary>& entries, const std::string& name) {
  if (name == "time_per_work_s") return "s";
  if (per_work(name)) return "J";
  for (const auto& e : entries)
    if (auto it = e.summary.metrics.find(name); it != e.summary.metrics.end())
      return it->second.units.empty() && name == "throughput" ? e.summary.throughput_units : it->second.units;
  return {};
}

// "per sample" for throughput in samples/s: what one unit of work is.
std::string work_of(const std::vector<labelled_summary>& entries) {
  for (const auto& e : entries) {
    const std::string& u = e.summary.throughput_units;
    const auto slash = u.find('/');
    if (slash != std::string::npos && slash > 0) {
      std::string w = u.substr(0, slash);
      if (w.size() > 1 && w.back() == 's') w.pop_back();
      return w;
    }
  }
  return "unit of work";
}

std::string axis_text(const std::vector<labelled_summary>& entries, const std::string& name) {
  const std::string u = units_of(entries, name);
  if (per_work(name)) return name + " [" + u + " per " + work_of(entries) + "]";
  return name + (u.empty() ? "" : " [" + u + "]");
}

std::string point_words(const std::vector<labelled_summary>& entries, const pareto_result& r, std::size_t p) {
  const auto& pt = r.points[p];
  return entries[pt.entry].label + ": " + r.axes.energy + " = " + significant_text(pt.energy, 6) + " " +
         units_of(entries, r.axes.energy) + ", " + r.axes.time + " = " + significant_text(pt.time, 6) + " " +
         units_of(entries, r.axes.time);
}

std::string verdict(const std::vector<labelled_summary>& entries, const pareto_result& r) {
  std::string out = "energy against time: " + axis_text(entries, r.axes.energy) + " vs " +
                    axis_text(entries, r.axes.time) + " (lower is better on both)\n";
  out += "energy-optimal: " + point_words(entries, r, r.energy_optimal) + "\n";
  out += "time-optimal: " + point_words(entries, r, r.time_optimal) + "\n";
  out += "Pareto front (" + std::to_string(r.front.size()) + " of " + std::to_string(r.points.size()) +
         ", by time): ";
  for (std::size_t i = 0; i < r.front.size(); ++i) out += (i ? ", " : "") + entries[r.points[r.front[i]].entry].label;
  out += "\n";
  for (std::size_t i : r.excluded) out += "left out: " + entries[i].label + " (no value on an axis)\n";
  return out;
}

std::string role(const pareto_result& r, std::size_t p) {
  std::string s;
  if (p == r.energy_optimal) s = "energy-optimal";
  if (p == r.time_optimal) s += std::string(s.empty() ? "" : ", ") + "time-optimal";
  return s;
}

text_grid grid(const std::vector<labelled_summary>& entries, const pareto_result& r, bool human) {
  text_grid g;
  g.text_columns = 2;
  const double e_min = r.points[r.energy_optimal].energy;
  g.header = {"configuration", "parameters", human ? axis_text(entries, r.axes.time) : r.axes.time,
              human ? axis_text(entries, r.axes.energy) : r.axes.energy, "energy / optimum", "pareto", "optimum"};
  for (std::size_t p = 0; p < r.points.size(); ++p) {
    const auto& pt = r.points[p];
    const auto& e = entries[pt.entry];
    const auto num = [&](double v) { return human ? significant_text(v, 6) : shortest_text(v); };
    g.rows.push_back({e.label, params_text(e), num(pt.time), num(pt.energy),
                      e_min != 0 ? num(pt.energy / e_min) : "-", pt.on_front ? "yes" : "no", role(r, p)});
  }
  return g;
}

std::string point_json(const std::vector<labelled_summary>& entries, const pareto_point& pt) {
  const auto& e = entries[pt.entry];
  std::string out = "{\"label\": " + json::quote(e.label) + ", \"time\": " + json::number(pt.time) +
                    ", \"energy\": " + json::number(pt.energy) + ", \"on_front\": " + (pt.on_front ? "true" : "false") +
                    ", \"params\": {";
  out += params_json_members(e);
  return out + "}}";
}

std::string format_json(const std::vector<labelled_summary>& entries, const pareto_result& r) {
  std::string out = "{\n  \"time_metric\": " + json::quote(r.axes.time) + ",\n  \"energy_metric\": " +
                    json::quote(r.axes.energy) + ",\n  \"units\": {" + json::quote(r.axes.time) + ": " +
                    json::quote(units_of(entries, r.axes.time)) + ", " + json::quote(r.axes.energy) + ": " +
                    json::quote(units_of(entries, r.axes.energy)) + "},\n  \"time_optimal\": " +
                    point_json(entries, r.points[r.time_optimal]) + ",\n  \"energy_optimal\": " +
                    point_json(entries, r.points[r.energy_optimal]) + ",\n  \"front\": [";
  for (std::size_t i = 0; i < r.front.size(); ++i)
    out += (i ? ", " : "") + json::quote(entries[r.points[r.front[i]].entry].label);
  out += "],\n  \"points\": [";
  for (std::size_t p = 0; p < r.points.size(); ++p)
    out += std::string(p ? ",\n    " : "\n    ") + point_json(entries, r.points[p]);
  out += r.points.empty() ? "]" : "\n  ]";
  out += ",\n  \"excluded\": [";
  for (std::size_t i = 0; i < r.excluded.size(); ++i) out += (i ? ", " : "") + json::quote(entries[r.excluded[i]].label);
  return out + "]\n}\n";
}

}  // namespace

pareto_axes parse_pareto_axes(const std::string& text) {
  const auto comma = text.find(',');
  if (comma == std::string::npos || text.find(',', comma + 1) != std::string::npos)
    throw std::invalid_argument("--pareto-axes \"" + text + "\": expected TIME,ENERGY (two metric names, e.g. " +
                                "time_per_work_s,energy_per_work_J or latency_p99_s,energy_J)");
  pareto_axes a{text::trim(text.substr(0, comma)), text::trim(text.substr(comma + 1))};
  if (a.time.empty() || a.energy.empty())
    throw std::invalid_argument("--pareto-axes \"" + text + "\": expected TIME,ENERGY, found an empty name");
  return a;
}

double pareto_value(const labelled_summary& e, const std::string& name) {
  const double tput = summary_value(e, "throughput");
  if (name == "time_per_work_s") return tput > 0 ? 1.0 / tput : std::nan("");
  if (name == "energy_per_work_J") return tput > 0 ? summary_value(e, "avg_power_W") / tput : std::nan("");
  if (per_work(name))
    return part_energy_per_work(e, name.substr(part_prefix.size(), name.size() - part_prefix.size() - 1), tput);
  return report_value(e, name);
}

pareto_result pareto(const std::vector<labelled_summary>& entries, const pareto_axes& axes) {
  pareto_result r;
  r.axes = axes;
  bool any_time = false, any_energy = false;
  for (std::size_t i = 0; i < entries.size(); ++i) {
    const double t = pareto_value(entries[i], axes.time), en = pareto_value(entries[i], axes.energy);
    any_time |= !std::isnan(t);
    any_energy |= !std::isnan(en);
    if (std::isnan(t) || std::isnan(en)) r.excluded.push_back(i);
    else r.points.push_back({i, t, en, false});
  }
  if (r.points.empty()) {
    const std::string& missing = !any_time ? axes.time : !any_energy ? axes.energy : axes.time + " and " + axes.energy;
    throw std::invalid_argument("--pareto: no run has a value of " + missing +
                                (any_time && any_energy ? " together" : "") +
                                " (time_per_work_s and energy_per_work_J need a throughput above 0)");
  }
  std::stable_sort(r.points.begin(), r.points.end(), [](const pareto_point& a, const pareto_point& b) {
    return a.time != b.time ? a.time < b.time : a.energy < b.energy;
  });
  // By time, then energy: a point is on the front iff its energy is below every earlier point's
  // (an earlier point has less or equal time, so it dominates unless this one uses less energy).
  double best_energy = INFINITY;
  for (std::size_t p = 0; p < r.points.size(); ++p) {
    if (r.points[p].energy < best_energy) {
      r.points[p].on_front = true;
      r.front.push_back(p);
      best_energy = r.points[p].energy;
    }
  }
  r.time_optimal = 0;
  r.energy_optimal = r.front.back();
  return r;
}

std::string format_pareto(const std::vector<labelled_summary>& entries, const pareto_result& r, report_format fmt) {
  switch (fmt) {
    case report_format::json: return format_json(entries, r);
    case report_format::csv: return grid(entries, r, false).csv();
    case report_format::markdown: {
      std::string v = verdict(entries, r), out;
      for (char c : v) out += c == '\n' ? std::string("  \n") : std::string(1, c);
      return out + "\n" + grid(entries, r, true).markdown();
    }
    case report_format::table: return verdict(entries, r) + "\n" + grid(entries, r, true).table();
    case report_format::html: return format_html(entries, verdict(entries, r) + "\n" + grid(entries, r, true).table());
  }
  throw std::invalid_argument("unknown report format");
}

}  // namespace ptsim::postproc
