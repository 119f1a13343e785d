// --best / --where: the best configuration under constraints.
#include "ptsim/postproc/decision.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <optional>
#include <stdexcept>

#include "ptsim/postproc/metric_catalogue.hpp"
#include "json_text.hpp"
#include "number_text.hpp"
#include "params_text.hpp"
#include "text_grid.hpp"
#include "ptsim/text/trim.hpp"
#include "ptsim/text/nearest_name.hpp"

namespace ptsim::postproc {

namespace {

bool starts_with(const std::string& s, const std::string& p) { return s.rfind(p, 0) == 0; }

// Which way is better: the metric catalogue's direction (per-unit and per-domain forms such
// as "throttled_fraction[big]" follow their column).
std::optional<goal> known_direction(const std::string& m) {
  const auto b = direction_of(m);
  if (!b) return std::nullopt;
  return *b == better::higher ? goal::maximize : goal::minimize;
}

const char* goal_name(goal g) { return g == goal::maximize ? "max" : "min"; }

std::string value_text(const labelled_summary& e, const std::string& metric, bool human) {
  const double v = report_value(e, metric);
  if (!human) return shortest_text(v);
  std::string t = significant_text(v, 6);
  auto ci = e.ci95.find(metric);
  if (ci != e.ci95.end() && std::isfinite(ci->second)) t += " ± " + significant_text(ci->second, 3);
  return t;
}

std::string units_text(const std::vector<labelled_summary>& entries, const std::string& metric) {
  for (const auto& e : entries) {
    auto it = e.summary.metrics.find(metric);
    if (it != e.summary.metrics.end())
      return it->second.units.empty() && metric == "throughput" ? e.summary.throughput_units : it->second.units;
  }
  if (metric.find('[') != std::string::npos)
    return starts_with(metric, "throttled_") || starts_with(metric, "ops[") ? "1" : "s";
  return {};
}

// The runner-up's distance from the best: absolute, and relative to the best.
std::pair<double, double> gap_of(double best, double second) {
  const double gap = std::fabs(best - second);
  return {gap, best != 0 ? gap / std::fabs(best) : std::nan("")};
}

std::string entry_json(const labelled_summary& e, const std::string& metric) {
  std::string out = "{\"label\": " + json::quote(e.label) + ", \"value\": " + json::number(report_value(e, metric));
  if (auto ci = e.ci95.find(metric); ci != e.ci95.end()) out += ", \"ci95\": " + json::number(ci->second);
  out += ", \"params\": {";
  out += params_json_members(e);
  out += "}";
  if (!e.runs.empty()) {
    out += ", \"runs\": [";
    for (std::size_t i = 0; i < e.runs.size(); ++i) out += (i ? ", " : "") + json::quote(e.runs[i]);
    out += "]";
  }
  return out + "}";
}

std::string format_json(const std::vector<labelled_summary>& entries, const decision& d) {
  const std::string& m = d.obj.metric;
  std::string out = "{\n  \"metric\": " + json::quote(m) + ",\n  \"goal\": " + json::quote(goal_name(d.obj.direction)) +
                    ",\n  \"units\": " + json::quote(units_text(entries, m)) + ",\n  \"where\": [";
  for (std::size_t i = 0; i < d.where.size(); ++i) out += (i ? ", " : "") + json::quote(d.where[i].text);
  out += "],\n  \"candidates\": " + std::to_string(entries.size()) +
         ",\n  \"feasible\": " + std::to_string(d.ranking.size()) + ",\n  \"best\": ";
  out += d.ranking.empty() ? "null" : entry_json(entries[d.ranking[0]], m);
  out += ",\n  \"runner_up\": ";
  out += d.ranking.size() < 2 ? "null" : entry_json(entries[d.ranking[1]], m);
  if (d.ranking.size() >= 2) {
    const auto [gap, rel] = gap_of(report_value(entries[d.ranking[0]], m), report_value(entries[d.ranking[1]], m));
    out += ",\n  \"gap\": " + json::number(gap) + ",\n  \"gap_relative\": " + json::number(rel);
  } else {
    out += ",\n  \"gap\": null,\n  \"gap_relative\": null";
  }
  out += ",\n  \"ranking\": [";
  for (std::size_t i = 0; i < d.ranking.size(); ++i)
    out += std::string(i ? ",\n    " : "\n    ") + entry_json(entries[d.ranking[i]], m);
  out += d.ranking.empty() ? "]" : "\n  ]";
  out += ",\n  \"excluded\": [";
  for (std::size_t i = 0; i < d.excluded.size(); ++i)
    out += std::string(i ? ",\n    " : "\n    ") + "{\"label\": " + json::quote(entries[d.excluded[i].first].label) +
           ", \"reason\": " + json::quote(d.excluded[i].second) + "}";
  out += d.excluded.empty() ? "]" : "\n  ]";
  return out + "\n}\n";
}

text_grid ranking_grid(const std::vector<labelled_summary>& entries, const decision& d, bool human) {
  text_grid g;
  g.text_columns = 3;
  const std::string& m = d.obj.metric;
  g.header = {"rank", "configuration", "parameters", m + (human ? " [" + units_text(entries, m) + "]" : "")};
  if (!human) g.header.insert(g.header.end(), {"ci95", "feasible", "reason"});
  for (std::size_t i = 0; i < d.ranking.size(); ++i) {
    const auto& e = entries[d.ranking[i]];
    std::vector<std::string> row{std::to_string(i + 1), e.label, params_text(e), value_text(e, m, human)};
    if (!human) {
      auto ci = e.ci95.find(m);
      row.push_back(ci != e.ci95.end() && std::isfinite(ci->second) ? shortest_text(ci->second) : "");
      row.insert(row.end(), {"yes", ""});
    }
    g.rows.push_back(std::move(row));
  }
  for (const auto& [i, why] : d.excluded) {
    const auto& e = entries[i];
    std::vector<std::string> row{"-", e.label, params_text(e), value_text(e, m, human)};
    if (!human) row.insert(row.end(), {"", "no", why});
    else row[0] = "out";
    g.rows.push_back(std::move(row));
  }
  return g;
}

std::string verdict(const std::vector<labelled_summary>& entries, const decision& d) {
  const std::string& m = d.obj.metric;
  const std::string units = units_text(entries, m);
  std::string out = std::string(d.obj.direction == goal::maximize ? "maximise " : "minimise ") + m;
  for (std::size_t i = 0; i < d.where.size(); ++i) out += (i ? " and " : " where ") + d.where[i].text;
  out += "\n";
  if (d.ranking.empty()) return out + "no configuration meets the constraints\n";
  const auto& best = entries[d.ranking[0]];
  out += "best: " + best.label + ": " + m + " = " + value_text(best, m, true) + " " + units + "\n";
  if (d.ranking.size() < 2) return out + "runner-up: none (only one configuration meets the constraints)\n";
  const auto& second = entries[d.ranking[1]];
  const auto [gap, rel] = gap_of(report_value(best, m), report_value(second, m));
  out += "runner-up: " + second.label + ": " + m + " = " + value_text(second, m, true) + " " + units + ", " +
         significant_text(gap, 4) + " " + units + " " + (d.obj.direction == goal::maximize ? "lower" : "higher");
  if (std::isfinite(rel)) out += " (" + significant_text(100 * rel, 3) + "% behind)";
  return out + "\n";
}

}  // namespace

objective parse_objective(const std::string& text) {
  objective o;
  const std::string t = text::trim(text);
  if (starts_with(t, "max:") || starts_with(t, "min:")) {
    o.direction = starts_with(t, "max:") ? goal::maximize : goal::minimize;
    o.metric = text::trim(t.substr(4));
  } else {
    o.metric = t;
    const auto g = known_direction(t);
    if (!g)
      throw std::invalid_argument("--best " + text + ": no known direction for '" + t +
                                  "'; write max:" + t + " or min:" + t);
    o.direction = *g;
  }
  if (o.metric.empty()) throw std::invalid_argument("--best '" + text + "': expected a metric name, found none");
  return o;
}

bool constraint::holds(double x) const {
  if (std::isnan(x)) return false;
  if (op == "<") return x < value;
  if (op == "<=") return x <= value;
  if (op == ">") return x > value;
  if (op == ">=") return x >= value;
  return x == value;
}

constraint parse_constraint(const std::string& text) {
  constraint c;
  c.text = text::trim(text);
  const std::size_t at = c.text.find_first_of("<>=");
  const auto fail = [&](const std::string& why) {
    throw std::invalid_argument("--where \"" + text + "\": " + why +
                                " (expected METRIC OP NUMBER, OP one of < <= > >= ==)");
  };
  if (at == std::string::npos) fail("no comparison found");
  c.metric = text::trim(c.text.substr(0, at));
  std::size_t rest = at + 1;
  if (rest < c.text.size() && c.text[rest] == '=') ++rest;
  c.op = c.text.substr(at, rest - at);
  if (c.op == "=") fail("'=' is not a comparison; use '=='");
  if (c.metric.empty()) fail("no metric before '" + c.op + "'");
  const std::string number = text::trim(c.text.substr(rest));
  char* end = nullptr;
  c.value = std::strtod(number.c_str(), &end);
  if (number.empty() || end == number.c_str() || !std::isfinite(c.value))
    fail("expected a number after '" + c.op + "', found '" + number + "'");
  c.unit = text::trim(end);
  c.text = c.metric + " " + c.op + " " + number;
  return c;
}

namespace {

// The factor from `unit` to `metric_units`: the same unit with an SI prefix or none, or
// "%" of a ratio; nullopt otherwise.
std::optional<double> factor_to(const std::string& unit, const std::string& metric_units) {
  if (unit == metric_units) return 1.0;
  if (metric_units == "1" && unit == "%") return 0.01;
  if (metric_units == "degC" || metric_units.empty() || unit.size() <= metric_units.size()) return std::nullopt;
  if (unit.compare(unit.size() - metric_units.size(), metric_units.size(), metric_units) != 0) return std::nullopt;
  static const std::pair<const char*, double> prefixes[] = {
      {"p", 1e-12}, {"n", 1e-9}, {"u", 1e-6}, {"\u00b5", 1e-6}, {"m", 1e-3}, {"k", 1e3}, {"M", 1e6}, {"G", 1e9}, {"T", 1e12}};
  const std::string prefix = unit.substr(0, unit.size() - metric_units.size());
  for (const auto& [p, f] : prefixes)
    if (prefix == p) return f;
  return std::nullopt;
}

// Every metric name the entries have (summary and per-unit/per-domain forms), for "did you mean".
std::vector<std::string> names_in(const std::vector<labelled_summary>& entries) {
  std::vector<std::string> out = known_metric_names();
  for (const auto& e : entries) {
    for (const auto& [n, m] : e.summary.metrics) out.push_back(n);
    for (const auto& d : e.domains) out.push_back("throttled_fraction[" + d.domain + "]");
    for (const auto& u : e.units) out.push_back("busy_s[" + u.unit + "]");
  }
  return out;
}

std::string unknown_metric(const std::vector<labelled_summary>& entries, const std::string& metric) {
  // A metric the catalogue knows but no run has a number for (a latency where no request
  // finished, a cap metric without a cap): not a misspelling.
  if (meaning_of(metric))
    return "no run has a value of '" + metric + "' (absent or not a number in every run: " +
           "e.g. a latency where no request finished, a cap's metric without a cap)";
  std::string m = "no run has the metric '" + metric + "'";
  const std::string near = text::nearest_name(metric, names_in(entries));
  if (!near.empty()) m += "; did you mean '" + near + "'?";
  return m;
}

}  // namespace

decision decide(const std::vector<labelled_summary>& entries, const objective& obj,
                const std::vector<constraint>& where) {
  decision d;
  d.obj = obj;
  d.where = where;
  const bool any = std::any_of(entries.begin(), entries.end(),
                               [&](const auto& e) { return !std::isnan(report_value(e, obj.metric)); });
  if (!any) throw std::invalid_argument("--best: " + unknown_metric(entries, obj.metric));
  for (constraint& c : d.where) {
    const bool known = std::any_of(entries.begin(), entries.end(),
                                   [&](const auto& e) { return !std::isnan(report_value(e, c.metric)); });
    if (!known) throw std::invalid_argument("--where \"" + c.text + "\": " + unknown_metric(entries, c.metric));
    if (c.unit.empty()) continue;
    const std::string units = units_text(entries, c.metric);
    const auto f = factor_to(c.unit, units);
    if (!f)
      throw std::invalid_argument("--where \"" + c.text + "\": expected a number in " + c.metric + "'s units, " +
                                  (units.empty() ? std::string("none") : units) +
                                  (units == "1" ? " (or %)" : units == "degC" || units.empty() ? "" : " (with an SI prefix or none)") +
                                  ", found '" + c.unit + "'");
    c.value *= *f;
  }
  for (std::size_t i = 0; i < entries.size(); ++i) {
    std::string why;
    if (std::isnan(report_value(entries[i], obj.metric))) why = obj.metric + " is not defined";
    for (const constraint& c : d.where) {
      if (!why.empty()) break;
      const double v = report_value(entries[i], c.metric);
      if (!c.holds(v)) why = c.metric + " = " + significant_text(v, 6) + ", needs " + c.op + " " + shortest_text(c.value);
    }
    if (why.empty()) d.ranking.push_back(i);
    else d.excluded.emplace_back(i, why);
  }
  std::stable_sort(d.ranking.begin(), d.ranking.end(), [&](std::size_t a, std::size_t b) {
    const double va = report_value(entries[a], obj.metric), vb = report_value(entries[b], obj.metric);
    return obj.direction == goal::maximize ? va > vb : va < vb;
  });
  return d;
}

std::string format_decision(const std::vector<labelled_summary>& entries, const decision& d,
                            report_format fmt) {
  switch (fmt) {
    case report_format::json: return format_json(entries, d);
    case report_format::csv: return ranking_grid(entries, d, false).csv();
    case report_format::markdown: {
      std::string v = verdict(entries, d), out;
      for (char c : v) out += c == '\n' ? std::string("  \n") : std::string(1, c);
      return out + "\n" + ranking_grid(entries, d, true).markdown();
    }
    case report_format::table: return verdict(entries, d) + "\n" + ranking_grid(entries, d, true).table();
    case report_format::html:
      return format_html(entries, verdict(entries, d) + "\n" + ranking_grid(entries, d, true).table());
  }
  throw std::invalid_argument("unknown report format");
}

}  // namespace ptsim::postproc
