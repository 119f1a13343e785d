// `ptsim report --format html`: one self-contained page. No script and no external resource
// (styles inline, charts as inline SVG), so it opens offline and anywhere.
#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <string>

#include "number_text.hpp"
#include "ptsim/postproc/report.hpp"
#include "report_grids.hpp"

namespace ptsim::postproc {

namespace {

std::string esc(const std::string& s) {
  std::string out;
  for (char c : s) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      default: out += c;
    }
  }
  return out;
}

std::string num(double x) { return significant_text(x, 4); }

// Coordinates in SVG: 2 decimals are far below a pixel.
std::string px(double x) {
  char b[32];
  std::snprintf(b, sizeof b, "%.2f", x);
  return b;
}

std::string html_table(const text_grid& g) {
  std::string out = "<table>\n<tr>";
  for (const auto& h : g.header) out += "<th>" + esc(h) + "</th>";
  out += "</tr>\n";
  for (const auto& row : g.rows) {
    out += "<tr>";
    for (std::size_t i = 0; i < row.size(); ++i)
      out += std::string(i < g.text_columns ? "<td>" : "<td class=n>") + esc(row[i]) + "</td>";
    out += "</tr>\n";
  }
  return out + "</table>\n";
}

// One colour per label, the same in every chart (Tableau 10, then repeated darker).
const char* colour(std::size_t k) {
  static const char* c[] = {"#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f", "#edc948", "#b07aa1",
                            "#ff9da7", "#9c755f", "#bab0ac", "#2f4b7c", "#a05195", "#d45087", "#665191",
                            "#ff7c43", "#003f5c", "#7a5195", "#488f31", "#de425b", "#8a8a8a"};
  return c[k % (sizeof c / sizeof c[0])];
}

// Labels of a family of metrics ("energy_J[...]") over the entries, in order of appearance.
std::vector<std::string> labels_of(const std::vector<labelled_summary>& runs, const std::string& family) {
  std::vector<std::string> out;
  const std::string prefix = family + "[";
  for (const auto& r : runs)
    for (const auto& [name, m] : r.summary.metrics)
      if (name.rfind(prefix, 0) == 0 && name.back() == ']') {
        const std::string l = name.substr(prefix.size(), name.size() - prefix.size() - 1);
        if (std::find(out.begin(), out.end(), l) == out.end()) out.push_back(l);
      }
  return out;
}

double value(const labelled_summary& r, const std::string& name) {
  auto it = r.summary.metrics.find(name);
  return it == r.summary.metrics.end() ? std::nan("") : it->second.value;
}

// A stacked horizontal bar per entry: its energy by component (J).
std::string energy_chart(const std::vector<labelled_summary>& runs, const std::string& family, const char* title) {
  const std::vector<std::string> parts = labels_of(runs, family);
  if (parts.empty()) return {};
  double most = 0;
  for (const auto& r : runs) {
    double total = 0;
    for (const auto& p : parts) {
      const double v = value(r, family + "[" + p + "]");
      if (v > 0) total += v;
    }
    most = std::max(most, total);
  }
  if (!(most > 0)) return {};
  const double left = 180, width = 560, bar = 22, gap = 10;  // and 120 px right of the bars for the total
  const double height = static_cast<double>(runs.size()) * (bar + gap) + 40;
  std::string svg = "<h2>" + esc(title) + "</h2>\n<svg class=chart xmlns=\"http://www.w3.org/2000/svg\" width=\"" +
                    px(left + width + 120) + "\" height=\"" + px(height) + "\">\n";
  for (std::size_t i = 0; i < runs.size(); ++i) {
    const double y = 10 + static_cast<double>(i) * (bar + gap);
    svg += "<text x=\"" + px(left - 6) + "\" y=\"" + px(y + bar * 0.7) + "\" text-anchor=\"end\">" +
           esc(runs[i].label) + "</text>\n";
    double x = left, total = 0;
    for (std::size_t k = 0; k < parts.size(); ++k) {
      const double v = value(runs[i], family + "[" + parts[k] + "]");
      if (!(v > 0)) continue;
      const double w = v / most * width;
      svg += "<rect x=\"" + px(x) + "\" y=\"" + px(y) + "\" width=\"" + px(w) + "\" height=\"" + px(bar) +
             "\" fill=\"" + colour(k) + "\"><title>" + esc(parts[k]) + ": " + num(v) + " J</title></rect>\n";
      x += w;
      total += v;
    }
    svg += "<text x=\"" + px(x + 4) + "\" y=\"" + px(y + bar * 0.7) + "\">" + num(total) + " J</text>\n";
  }
  svg += "<text x=\"" + px(left) + "\" y=\"" + px(height - 8) + "\">0 J</text><text x=\"" + px(left + width) + "\" y=\"" +
         px(height - 8) + "\" text-anchor=\"end\">" + num(most) + " J</text>\n</svg>\n<p class=legend>";
  for (std::size_t k = 0; k < parts.size(); ++k)
    svg += std::string("<span><i style=\"background:") + colour(k) + "\"></i>" + esc(parts[k]) + "</span> ";
  return svg + "</p>\n";
}

// One line per entry over time, y in `units`.
std::string line_chart(const std::vector<labelled_summary>& runs, std::vector<double> labelled_summary::*series,
                       const char* title, const char* units) {
  double t0 = INFINITY, t1 = -INFINITY, y0 = INFINITY, y1 = -INFINITY;
  for (const auto& r : runs) {
    const auto& y = r.*series;
    if (y.empty() || y.size() != r.time_s.size()) continue;
    t0 = std::min(t0, r.time_s.front());
    t1 = std::max(t1, r.time_s.back());
    for (double v : y)
      if (std::isfinite(v)) y0 = std::min(y0, v), y1 = std::max(y1, v);
  }
  if (!(t1 > t0) || !(y1 >= y0)) return {};
  if (y1 == y0) y1 = y0 + 1;
  const double left = 70, top = 10, w = 700, h = 200;
  std::string svg = "<h2>" + esc(title) + "</h2>\n<svg class=chart xmlns=\"http://www.w3.org/2000/svg\" width=\"" +
                    px(left + w + 20) + "\" height=\"" + px(top + h + 40) + "\">\n";
  svg += "<rect x=\"" + px(left) + "\" y=\"" + px(top) + "\" width=\"" + px(w) + "\" height=\"" + px(h) +
         "\" fill=\"none\" stroke=\"#999\"/>\n";
  svg += "<text x=\"" + px(left - 4) + "\" y=\"" + px(top + 10) + "\" text-anchor=\"end\">" + num(y1) + " " + units +
         "</text><text x=\"" + px(left - 4) + "\" y=\"" + px(top + h) + "\" text-anchor=\"end\">" + num(y0) + " " + units +
         "</text>\n<text x=\"" + px(left) + "\" y=\"" + px(top + h + 16) + "\">" + num(t0) + " s</text><text x=\"" +
         px(left + w) + "\" y=\"" + px(top + h + 16) + "\" text-anchor=\"end\">" + num(t1) + " s</text>\n";
  for (std::size_t i = 0; i < runs.size(); ++i) {
    const auto& y = runs[i].*series;
    if (y.empty() || y.size() != runs[i].time_s.size()) continue;
    // At most ~2 points per pixel column: the page stays small for long runs.
    const std::size_t step = std::max<std::size_t>(1, y.size() / 1400);
    std::string pts;
    for (std::size_t k = 0; k < y.size(); k += step) {
      if (!std::isfinite(y[k])) continue;
      pts += px(left + (runs[i].time_s[k] - t0) / (t1 - t0) * w) + "," + px(top + h - (y[k] - y0) / (y1 - y0) * h) + " ";
    }
    svg += std::string("<polyline fill=\"none\" stroke-width=\"1.2\" stroke=\"") + colour(i) + "\" points=\"" + pts +
           "\"><title>" + esc(runs[i].label) + "</title></polyline>\n";
  }
  svg += "</svg>\n<p class=legend>";
  for (std::size_t i = 0; i < runs.size(); ++i)
    if (!(runs[i].*series).empty())
      svg += std::string("<span><i style=\"background:") + colour(i) + "\"></i>" + esc(runs[i].label) + "</span> ";
  return svg + "</p>\n";
}

// Per request stream: its throughput, latencies and (LLM) token figures, one row per entry.
std::string stream_tables(const std::vector<labelled_summary>& runs) {
  static const char* columns[] = {"throughput",  "latency_p50_s", "latency_p99_s", "ttft_p50_s",
                                  "ttft_p99_s",  "tpot_p50_s",    "tpot_p99_s",    "energy_per_output_token_J",
                                  "energy_per_request_J", "completed", "unfinished", "dropped"};
  std::string out;
  for (const std::string& s : labels_of(runs, "completed")) {
    text_grid g;
    g.header = {"entry"};
    std::vector<std::string> used;
    for (const char* c : columns) {
      const std::string name = std::string(c) + "[" + s + "]";
      for (const auto& r : runs)
        if (auto it = r.summary.metrics.find(name); it != r.summary.metrics.end()) {
          used.push_back(name);
          g.header.push_back(std::string(c) + " [" + it->second.units + "]");
          break;
        }
    }
    for (const auto& r : runs) {
      std::vector<std::string> row{r.label};
      for (const auto& name : used) {
        const double v = value(r, name);
        row.push_back(std::isnan(v) ? "-" : num(v));
      }
      g.rows.push_back(std::move(row));
    }
    out += "<h2>stream " + esc(s) + "</h2>\n" + html_table(g);
  }
  return out;
}

}  // namespace

std::string format_html(const std::vector<labelled_summary>& runs, const std::string& decision) {
  std::string out =
      "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>ptsim report</title>\n"
      "<style>\nbody{font-family:sans-serif;margin:1.5em;color:#222}table{border-collapse:collapse;margin:.5em 0 1.5em}"
      "th,td{border:1px solid #ccc;padding:2px 8px;font-size:13px}th{background:#eef}td.n{text-align:right;"
      "font-variant-numeric:tabular-nums}h2{font-size:16px;margin-top:1.5em}svg.chart text{font-size:12px}"
      "p.legend span{margin-right:1em;font-size:12px}p.legend i{display:inline-block;width:10px;height:10px;"
      "margin-right:4px}pre{background:#f6f6f6;padding:.5em}\n</style>\n</head>\n<body>\n<h1>ptsim report</h1>\n";
  out += "<p>" + std::to_string(runs.size()) + (runs.size() == 1 ? " entry" : " entries") + "</p>\n";
  if (!decision.empty()) out += "<h2>best configuration</h2>\n<pre>" + esc(decision) + "</pre>\n";
  // The charts and per-stream figures first; the full table (every metric) after them.
  out += stream_tables(runs);
  out += energy_chart(runs, "energy_group_J", "energy by group");
  out += energy_chart(runs, "energy_J", "energy by component");
  out += line_chart(runs, &labelled_summary::platform_power_W, "platform power over time", "W");
  out += line_chart(runs, &labelled_summary::max_temperature_C, "hottest block over time", "degC");
  out += "<h2>summary</h2>\n" + html_table(report_summary_grid(runs));
  if (std::any_of(runs.begin(), runs.end(), [](const auto& r) { return !r.units.empty(); }))
    out += "<h2>where the time went (share of the run)</h2>\n" + html_table(report_time_grid(runs));
  return out + "</body>\n</html>\n";
}

}  // namespace ptsim::postproc
