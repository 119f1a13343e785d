// `ptsim report`: summaries of runs as a text table, markdown, csv or json.
#include "ptsim/postproc/report.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <stdexcept>

#include "number_text.hpp"

namespace ptsim::postproc {

namespace {

// The contract's metrics first, in the order DESIGN.md lists them; any others after, by name.
const std::vector<std::string>& canonical_order() {
  static const std::vector<std::string> order{
      "energy_J",      "avg_power_W",   "peak_power_W",       "throughput",
      "perf_per_watt", "latency_p50_s", "latency_p99_s",      "peak_temperature_C",
      "throttled_fraction"};
  return order;
}

std::vector<std::string> metric_names(const std::vector<labelled_summary>& runs) {
  std::vector<std::string> names;
  for (const std::string& n : canonical_order())
    for (const auto& r : runs)
      if (r.summary.metrics.count(n)) {
        names.push_back(n);
        break;
      }
  std::vector<std::string> extra;
  for (const auto& r : runs)
    for (const auto& [n, m] : r.summary.metrics)
      if (std::find(canonical_order().begin(), canonical_order().end(), n) ==
              canonical_order().end() &&
          std::find(extra.begin(), extra.end(), n) == extra.end())
        extra.push_back(n);
  std::sort(extra.begin(), extra.end());
  names.insert(names.end(), extra.begin(), extra.end());
  return names;
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

const metric* find(const run_summary& s, const std::string& name) {
  auto it = s.metrics.find(name);
  return it == s.metrics.end() ? nullptr : &it->second;
}

// Rows of cells: header, then one per metric; `number` prints values, `absent` fills gaps.
template <typename Number>
std::vector<std::vector<std::string>> cells(const std::vector<labelled_summary>& runs,
                                            Number number, const std::string& absent) {
  std::vector<std::vector<std::string>> rows;
  std::vector<std::string> header{"metric", "units"};
  for (const auto& r : runs) header.push_back(r.label);
  rows.push_back(header);
  for (const std::string& name : metric_names(runs)) {
    std::vector<std::string> row{name, units_of(runs, name)};
    for (const auto& r : runs) {
      const metric* m = find(r.summary, name);
      row.push_back(m ? number(m->value) : absent);
    }
    rows.push_back(std::move(row));
  }
  return rows;
}

std::string human_number(double x) { return significant_text(x, 6); }

std::string format_table(const std::vector<labelled_summary>& runs) {
  const auto rows = cells(runs, human_number, "-");
  std::vector<std::size_t> width(rows[0].size(), 0);
  for (const auto& row : rows)
    for (std::size_t c = 0; c < row.size(); ++c) width[c] = std::max(width[c], row[c].size());
  std::string out;
  auto emit = [&](const std::vector<std::string>& row) {
    std::string line;
    for (std::size_t c = 0; c < row.size(); ++c) {
      if (c) line += "  ";
      const std::string pad(width[c] - row[c].size(), ' ');
      // Names and units read left to right; numbers line up on the right.
      line += c < 2 ? row[c] + pad : pad + row[c];
    }
    line.erase(line.find_last_not_of(' ') + 1);
    out += line + "\n";
  };
  emit(rows[0]);
  std::vector<std::string> rule;
  for (std::size_t w : width) rule.push_back(std::string(w, '-'));
  emit(rule);
  for (std::size_t i = 1; i < rows.size(); ++i) emit(rows[i]);
  return out;
}

std::string markdown_cell(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (c == '|') out += '\\';
    out += c;
  }
  return out;
}

std::string format_markdown(const std::vector<labelled_summary>& runs) {
  const auto rows = cells(runs, human_number, "");
  std::string out;
  auto emit = [&](const std::vector<std::string>& row) {
    out += "|";
    for (const auto& c : row) out += " " + markdown_cell(c) + " |";
    out += "\n";
  };
  emit(rows[0]);
  out += "|---|---|";
  for (std::size_t i = 0; i < runs.size(); ++i) out += "---:|";
  out += "\n";
  for (std::size_t i = 1; i < rows.size(); ++i) emit(rows[i]);
  return out;
}

// RFC 4180: quote fields holding a separator, a quote or a line break.
std::string csv_field(const std::string& s) {
  if (s.find_first_of(",\"\r\n") == std::string::npos) return s;
  std::string out = "\"";
  for (char c : s) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + "\"";
}

std::string format_csv(const std::vector<labelled_summary>& runs) {
  // Machine-readable: the shortest text that reads back to the same double.
  const auto rows = cells(runs, shortest_text, "");
  std::string out;
  for (const auto& row : rows) {
    for (std::size_t c = 0; c < row.size(); ++c) out += (c ? "," : "") + csv_field(row[c]);
    out += "\n";
  }
  return out;
}

std::string json_string(const std::string& s) {
  std::string out = "\"";
  for (unsigned char c : s) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      default:
        if (c < 0x20) {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\u%04x", c);
          out += buf;
        } else {
          out += static_cast<char>(c);
        }
    }
  }
  return out + "\"";
}

// JSON has no NaN or infinity: those become null.
std::string json_number(double x) {
  return std::isfinite(x) ? significant_text(x, 17) : "null";
}

std::string json_object(const labelled_summary& run, const std::vector<std::string>& names,
                        bool with_label, const std::string& indent) {
  std::vector<std::pair<std::string, std::string>> members;
  if (with_label) members.emplace_back("run", json_string(run.label));
  std::string units = "{";
  bool first = true;
  for (const std::string& name : names) {
    const metric* m = find(run.summary, name);
    if (!m) continue;
    members.emplace_back(name, json_number(m->value));
    units += std::string(first ? "" : ", ") + json_string(name) + ": " +
             json_string(units_of(run.summary, name));
    first = false;
  }
  members.emplace_back("units", units + "}");
  std::string out = "{\n";
  for (std::size_t i = 0; i < members.size(); ++i)
    out += indent + "  " + json_string(members[i].first) + ": " + members[i].second +
           (i + 1 < members.size() ? ",\n" : "\n");
  return out + indent + "}";
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
  throw std::invalid_argument("unknown report format '" + s +
                              "' (expected table, csv, json or markdown)");
}

std::string format_report(const std::vector<labelled_summary>& runs, report_format fmt) {
  switch (fmt) {
    case report_format::table: return format_table(runs);
    case report_format::markdown: return format_markdown(runs);
    case report_format::csv: return format_csv(runs);
    case report_format::json: return format_json(runs);
  }
  throw std::invalid_argument("unknown report format");
}

}  // namespace ptsim::postproc
