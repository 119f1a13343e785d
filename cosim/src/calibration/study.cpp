// Reading a study file and its measurement table; checking both against the scenario
// before anything runs.
#include "study.hpp"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <fstream>
#include <random>
#include <set>
#include <sstream>

#include "ptsim/scenarios/scenario.hpp"
#include "ptsim/scenarios/schema.hpp"
#include "ptsim/text/input_file.hpp"

namespace ptsim::cosim::calibration {

using scenarios::diagnostic;
using scenarios::scenario_error;

namespace {

struct collector {
  std::string file;
  std::vector<diagnostic> diags;
  void report(const where& w, const std::string& path, const std::string& message) {
    diags.push_back({w.file, w.line, w.column, path, message, false});
  }
  void report(const YAML::Node& n, const std::string& path, const std::string& message) {
    report(at(n), path, message);
  }
  where at(const YAML::Node& n) const { return {file, n.Mark().line + 1, n.Mark().column + 1}; }
};

std::string found(const YAML::Node& n) {
  if (n.IsScalar()) return "'" + n.Scalar() + "'";
  if (n.IsMap()) return "a mapping";
  if (n.IsSequence()) return "a list";
  return "nothing";
}

std::string read_file(const fs::path& p) {
  std::string why;
  auto content = text::read_input_file(p, why);
  if (!content) throw std::runtime_error("cannot read " + p.string() + ": " + why);
  return std::move(*content);
}

// A value for --set from text: the YAML scalar that reads back as this text.
scenarios::sweep_value value_of(const std::string& path, const std::string& text) {
  scenarios::sweep_value v;
  v.path = path;
  v.text = text;
  v.yaml = scenarios::flow_yaml(YAML::Node(text));
  return v;
}

bool parse_number(const std::string& t, double& x) {
  if (t.empty()) return false;
  char* end = nullptr;
  x = std::strtod(t.c_str(), &end);
  while (end && *end == ' ') ++end;
  return end != t.c_str() && *end == '\0' && std::isfinite(x);
}

// "15 %" or 0.15 (a fraction).
bool parse_fraction(const std::string& t, double& x) {
  std::string s = t;
  bool percent = false;
  if (!s.empty() && s.back() == '%') {
    s.pop_back();
    percent = true;
  }
  while (!s.empty() && s.back() == ' ') s.pop_back();
  if (!parse_number(s, x)) return false;
  if (percent) x /= 100;
  return x >= 0;
}

// "1.5 GHz" -> 1.5 and "GHz"; "0.55" -> 0.55 and "".
bool split_quantity(const std::string& t, double& x, std::string& unit) {
  const char* b = t.c_str();
  char* end = nullptr;
  x = std::strtod(b, &end);
  if (end == b || !std::isfinite(x)) return false;
  std::string rest(end);
  const auto first = rest.find_first_not_of(' ');
  unit = first == std::string::npos ? "" : rest.substr(first);
  return true;
}

// A condition column: a dotted path, or a top-level scenario key (duration, seed, ...).
bool looks_like_path(const std::string& c) {
  if (c.find(' ') != std::string::npos) return false;
  if (c.find('.') != std::string::npos) return true;
  const auto root = scenarios::scenario_schema();
  return std::any_of(root->fields.begin(), root->fields.end(), [&](const scenarios::field& f) { return f.key == c; });
}

std::vector<std::size_t> row_numbers(const YAML::Node& n, std::size_t n_rows, const std::string& key, collector& c) {
  std::vector<std::size_t> out;
  if (!n.IsSequence() || n.size() == 0) {
    c.report(n, key, "expected a non-empty list of row numbers (1 = the first data row), found " + found(n));
    return out;
  }
  for (const auto& e : n) {
    double x = 0;
    if (!e.IsScalar() || !parse_number(e.Scalar(), x) || x != std::floor(x) || x < 1 || x > static_cast<double>(n_rows))
      c.report(e, key, "expected a row number from 1 to " + std::to_string(n_rows) + ", found " + found(e));
    else
      out.push_back(static_cast<std::size_t>(x));
  }
  return out;
}

void read_set(const YAML::Node& n, const std::string& key, collector& c, std::vector<scenarios::sweep_value>& out,
              std::vector<where>& out_at) {
  if (!n.IsMap()) return c.report(n, key, "expected a mapping of dotted paths to values, found " + found(n));
  for (const auto& e : n) {
    const std::string path = e.first.Scalar();
    if (!e.second.IsScalar() && !e.second.IsSequence() && !e.second.IsMap()) {
      c.report(e.second, key + "." + path, "expected a value, found nothing");
      continue;
    }
    scenarios::sweep_value v;
    v.path = path;
    v.text = e.second.IsScalar() ? e.second.Scalar() : scenarios::flow_yaml(e.second);
    v.yaml = scenarios::flow_yaml(e.second);
    out.push_back(v);
    out_at.push_back(c.at(e.second));
  }
}

}  // namespace

std::string number_text(double x) {
  char buf[64];
  const auto r = std::to_chars(buf, buf + sizeof buf, x);
  return std::string(buf, r.ptr);
}

std::string parameter::value_text(double x) const { return unit.empty() ? number_text(x) : number_text(x) + " " + unit; }

std::vector<std::string> expand_ranges(const std::string& text) {
  const auto open = text.find('{');
  if (open == std::string::npos) {
    if (text.find('}') != std::string::npos) throw std::invalid_argument("'" + text + "': a '}' without its '{'");
    return {text};
  }
  const auto close = text.find('}', open);
  if (close == std::string::npos) throw std::invalid_argument("'" + text + "': an unclosed '{'");
  const std::string inside = text.substr(open + 1, close - open - 1);
  const auto dots = inside.find("..");
  long a = 0, b = 0;
  const auto all_digits = [](const std::string& s) {
    return !s.empty() && s.size() < 7 && s.find_first_not_of("0123456789") == std::string::npos;
  };
  if (dots == std::string::npos || !all_digits(inside.substr(0, dots)) || !all_digits(inside.substr(dots + 2)) ||
      (a = std::stol(inside.substr(0, dots))) > (b = std::stol(inside.substr(dots + 2))))
    throw std::invalid_argument("'" + text + "': expected a range {A..B} of integers with A <= B, found '{" + inside + "}'");
  std::vector<std::string> out;
  for (const auto& rest : expand_ranges(text.substr(close + 1)))
    for (long i = a; i <= b; ++i) out.push_back(text.substr(0, open) + std::to_string(i) + rest);
  // Every first-range value with every later one, in the order of the first range.
  std::stable_sort(out.begin(), out.end(), [&](const std::string& x, const std::string& y) {
    return std::stol(x.substr(open)) < std::stol(y.substr(open));
  });
  return out;
}

measurement_table parse_measurement_table(const std::string& text, const std::string& file) {
  measurement_table t;
  t.file = file;
  t.text = text;
  std::vector<diagnostic> diags;
  std::istringstream in(text);
  std::string line;
  int line_no = 0;
  bool header = false;
  while (std::getline(in, line)) {
    ++line_no;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.empty()) continue;
    if (line[0] == '#') {
      t.comments.push_back(line.size() > 1 && line[1] == ' ' ? line.substr(2) : line.substr(1));
      continue;
    }
    std::vector<std::string> cells;
    std::vector<where> at;
    std::size_t i = 0;
    bool bad = false;
    while (true) {
      std::string cell;
      const int col = static_cast<int>(i) + 1;
      if (i < line.size() && line[i] == '"') {
        ++i;
        while (true) {
          if (i >= line.size()) {
            diags.push_back({file, line_no, col, "", "a quoted field without its closing '\"'", false});
            bad = true;
            break;
          }
          if (line[i] == '"') {
            if (i + 1 < line.size() && line[i + 1] == '"') {
              cell += '"';
              i += 2;
              continue;
            }
            ++i;
            break;
          }
          cell += line[i++];
        }
        if (bad) break;
        if (i < line.size() && line[i] != ',') {
          diags.push_back({file, line_no, static_cast<int>(i) + 1, "", "expected ',' after a quoted field", false});
          bad = true;
          break;
        }
      } else {
        while (i < line.size() && line[i] != ',') cell += line[i++];
        const auto a = cell.find_first_not_of(' '), b = cell.find_last_not_of(' ');
        cell = a == std::string::npos ? "" : cell.substr(a, b - a + 1);
      }
      cells.push_back(cell);
      at.push_back({file, line_no, col});
      if (i >= line.size()) break;
      ++i;  // the comma
    }
    if (bad) continue;
    if (!header) {
      t.columns = cells;
      t.column_at = at;
      header = true;
      std::set<std::string> seen;
      for (std::size_t k = 0; k < cells.size(); ++k) {
        if (cells[k].empty()) diags.push_back({file, line_no, at[k].column, "", "an empty column name", false});
        else if (!seen.insert(cells[k]).second)
          diags.push_back({file, line_no, at[k].column, cells[k], "column '" + cells[k] + "' given twice", false});
      }
      continue;
    }
    if (cells.size() != t.columns.size()) {
      diags.push_back({file, line_no, 1, "",
                       "expected " + std::to_string(t.columns.size()) + " fields as in the header, found " +
                           std::to_string(cells.size()),
                       false});
      continue;
    }
    t.cells.push_back(std::move(cells));
    t.cell_at.push_back(std::move(at));
  }
  if (!header) diags.push_back({file, line_no, 1, "", "expected a header line of column names, found none", false});
  else if (t.cells.empty()) diags.push_back({file, line_no, 1, "", "expected at least one row of measurements, found none", false});
  if (!diags.empty()) throw scenario_error(diags);
  return t;
}

study load_study(const fs::path& path, study_kind kind) {
  study s;
  s.file = path.string();
  collector c{s.file, {}};
  YAML::Node root;
  try {
    root = YAML::Load(read_file(path));
  } catch (const YAML::Exception& e) {
    throw scenario_error({{s.file, e.mark.line + 1, e.mark.column + 1, "", e.msg, false}});
  } catch (const std::runtime_error& e) {
    throw scenario_error({{s.file, 0, 0, "", e.what(), false}});
  }
  if (!root.IsMap()) throw scenario_error({{s.file, 1, 1, "", "expected a mapping of study keys, found " + found(root), false}});
  const fs::path dir = path.parent_path();

  std::vector<std::string> keys{"name", "description", "scenario", "set", "measurements", "targets"};
  if (kind == study_kind::compare_case) keys.insert(keys.end(), {"source", "citation", "expect", "quick"});
  else keys.insert(keys.end(), {"parameters", "holdout", "optimizer"});
  for (const auto& e : root) {
    const std::string k = e.first.Scalar();
    if (std::find(keys.begin(), keys.end(), k) == keys.end()) {
      std::string list;
      for (const auto& x : keys) list += (list.empty() ? "" : ", ") + x;
      c.report(e.first, k, "unknown key '" + k + "' (expected one of: " + list + ")");
    }
  }
  auto required = [&](const std::string& k) -> YAML::Node {
    YAML::Node n = root[k];
    if (!n) c.report(where{s.file, 1, 1}, k, "missing required key '" + k + "'");
    return n;
  };
  auto scalar = [&](const YAML::Node& n, const std::string& k) -> std::string {
    if (!n) return "";
    if (!n.IsScalar() || n.Scalar().empty()) {
      c.report(n, k, "expected a non-empty string, found " + found(n));
      return "";
    }
    return n.Scalar();
  };

  s.name = root["name"] ? scalar(root["name"], "name") : path.parent_path().filename().string();
  if (kind == study_kind::calibration && !root["name"]) s.name = path.stem().string();
  if (const auto n = required("scenario")) {
    s.scenario_at = c.at(n);
    const std::string t = scalar(n, "scenario");
    if (!t.empty()) {
      const fs::path p = fs::path(t).is_absolute() ? fs::path(t) : dir / t;
      if (!fs::is_regular_file(p)) c.report(n, "scenario", "no scenario file at " + p.string());
      else s.scenario = fs::absolute(p).lexically_normal().string();
    }
  }
  if (const auto n = root["set"]) read_set(n, "set", c, s.set, s.set_at);

  if (const auto n = required("measurements")) {
    const std::string t = scalar(n, "measurements");
    if (!t.empty()) {
      const fs::path p = fs::path(t).is_absolute() ? fs::path(t) : dir / t;
      try {
        s.table = parse_measurement_table(read_file(p), p.string());
      } catch (const scenario_error& e) {
        for (const auto& d : e.diagnostics()) c.diags.push_back(d);
      } catch (const std::runtime_error& e) {
        c.report(n, "measurements", e.what());
      }
    }
  }
  const auto& T = s.table;

  if (const auto n = required("targets")) {
    if (!n.IsMap() || n.size() == 0) c.report(n, "targets", "expected a mapping of measured columns to metrics, found " + found(n));
    else
      for (const auto& e : n) {
        target t;
        t.column = e.first.Scalar();
        t.at = c.at(e.first);
        const std::string where_ = "targets." + t.column;
        if (!T.columns.empty() && std::find(T.columns.begin(), T.columns.end(), t.column) == T.columns.end())
          c.report(e.first, where_, "no column '" + t.column + "' in " + T.file);
        const YAML::Node& v = e.second;
        if (!v.IsMap() || !v["metric"]) {
          c.report(v, where_, "expected { metric: NAME, ... }, found " + found(v));
          continue;
        }
        for (const auto& f : v) {
          const std::string k = f.first.Scalar();
          if (k != "metric" && k != "scale" && k != "weight" && k != "error" && k != "tolerance")
            c.report(f.first, where_ + "." + k, "unknown key '" + k + "' (expected metric, scale, weight, error, tolerance)");
        }
        try {
          t.metric = parse_metric(scalar(v["metric"], where_ + ".metric"));
        } catch (const std::invalid_argument& x) {
          c.report(v["metric"], where_ + ".metric", x.what());
        }
        auto number = [&](const char* k, double& out, bool positive) {
          if (!v[k]) return;
          if (!v[k].IsScalar() || !parse_number(v[k].Scalar(), out) || (positive && !(out > 0)))
            c.report(v[k], where_ + "." + k, std::string("expected a number") + (positive ? " > 0" : "") + ", found " + found(v[k]));
        };
        number("scale", t.scale, true);
        number("weight", t.weight, false);
        if (t.weight < 0) c.report(v["weight"], where_ + ".weight", "expected a weight >= 0");
        if (v["error"]) {
          const std::string k = v["error"].IsScalar() ? v["error"].Scalar() : "";
          if (k == "relative" || k == "absolute") t.relative = k == "relative";
          else c.report(v["error"], where_ + ".error", "expected relative or absolute, found " + found(v["error"]));
        }
        if (v["tolerance"]) {
          double x = 0;
          const std::string tt = v["tolerance"].IsScalar() ? v["tolerance"].Scalar() : "";
          if (t.relative ? parse_fraction(tt, x) : (parse_number(tt, x) && x >= 0)) t.tolerance = x;
          else
            c.report(v["tolerance"], where_ + ".tolerance",
                     std::string("expected ") + (t.relative ? "a share such as \"15 %\" or 0.15" : "a number >= 0 in the metric's units") +
                         ", found " + found(v["tolerance"]));
        }
        s.targets.push_back(std::move(t));
      }
  }

  // Rows: conditions from the dotted-path columns, measured values from the target columns.
  std::vector<std::size_t> cond_cols, target_cols;
  for (std::size_t k = 0; k < T.columns.size(); ++k)
    if (looks_like_path(T.columns[k]) &&
        std::none_of(s.targets.begin(), s.targets.end(), [&](const target& t) { return t.column == T.columns[k]; })) {
      cond_cols.push_back(k);
      s.condition_columns.push_back(T.columns[k]);
    }
  for (const auto& t : s.targets) target_cols.push_back(std::find(T.columns.begin(), T.columns.end(), t.column) - T.columns.begin());
  for (std::size_t r = 0; r < T.cells.size(); ++r) {
    study_row row;
    row.number = r + 1;
    for (const std::size_t k : cond_cols) {
      if (T.cells[r][k].empty()) continue;
      row.conditions.push_back(value_of(T.columns[k], T.cells[r][k]));
      row.condition_at.push_back(T.cell_at[r][k]);
    }
    for (std::size_t i = 0; i < s.targets.size(); ++i) {
      const std::size_t k = target_cols[i];
      if (k >= T.columns.size() || T.cells[r][k].empty()) {
        row.measured.push_back(std::nullopt);
        continue;
      }
      double x = 0;
      if (!parse_number(T.cells[r][k], x)) {
        c.report(T.cell_at[r][k], T.columns[k], "expected a number, found '" + T.cells[r][k] + "'");
        row.measured.push_back(std::nullopt);
      } else {
        row.measured.push_back(x * s.targets[i].scale);
      }
    }
    s.rows.push_back(std::move(row));
  }

  if (kind == study_kind::compare_case) {
    s.source = scalar(required("source"), "source");
    s.citation = scalar(required("citation"), "citation");
    if (const auto n = root["expect"]) {
      const std::string e = n.IsScalar() ? n.Scalar() : "";
      if (e == "pass" || e == "fail") s.expect = e == "pass" ? expectation::pass : expectation::fail;
      else c.report(n, "expect", "expected pass or fail, found " + found(n));
    }
    if (const auto n = root["quick"]) {
      if (!n.IsMap()) c.report(n, "quick", "expected { rows: [...], set: {...} }, found " + found(n));
      else {
        for (const auto& f : n)
          if (f.first.Scalar() != "rows" && f.first.Scalar() != "set")
            c.report(f.first, "quick." + f.first.Scalar(), "unknown key (expected rows, set)");
        if (n["rows"]) s.quick_rows = row_numbers(n["rows"], s.rows.size(), "quick.rows", c);
        if (n["set"]) read_set(n["set"], "quick.set", c, s.quick_set, s.quick_set_at);
      }
    }
    for (const auto& t : s.targets)
      if (!t.tolerance) c.report(t.at, "targets." + t.column, "a comparison case needs a tolerance for each target");
  } else {
    if (const auto n = required("parameters")) {
      s.parameters_at = c.at(n);
      if (!n.IsMap() || n.size() == 0)
        c.report(n, "parameters", "expected a mapping of dotted paths to { bounds: [LOW, HIGH], start: X }, found " + found(n));
      else
        for (const auto& e : n) {
          parameter p;
          p.path = e.first.Scalar();
          p.at = c.at(e.first);
          const std::string w = "parameters." + p.path;
          try {
            p.paths = expand_ranges(p.path);
          } catch (const std::invalid_argument& x) {
            c.report(e.first, w, x.what());
          }
          const YAML::Node& v = e.second;
          if (!v.IsMap() || !v["bounds"] || !v["bounds"].IsSequence() || v["bounds"].size() != 2) {
            c.report(v, w, "expected { bounds: [LOW, HIGH], start: X } (start optional), found " + found(v));
            continue;
          }
          for (const auto& f : v)
            if (f.first.Scalar() != "bounds" && f.first.Scalar() != "start")
              c.report(f.first, w + "." + f.first.Scalar(), "unknown key (expected bounds, start)");
          std::string u_lo, u_hi, u_start;
          const YAML::Node lo = v["bounds"][0], hi = v["bounds"][1];
          p.lo_at = c.at(lo);
          p.hi_at = c.at(hi);
          bool ok = true;
          if (!lo.IsScalar() || !split_quantity(lo.Scalar(), p.lo, u_lo))
            ok = false, c.report(lo, w + ".bounds", "expected a number with its unit (e.g. \"1.2 GHz\"), found " + found(lo));
          if (!hi.IsScalar() || !split_quantity(hi.Scalar(), p.hi, u_hi))
            ok = false, c.report(hi, w + ".bounds", "expected a number with its unit (e.g. \"1.8 GHz\"), found " + found(hi));
          if (ok && u_lo != u_hi)
            ok = false, c.report(hi, w + ".bounds", "expected both bounds in one unit, found '" + u_lo + "' and '" + u_hi + "'");
          if (ok && !(p.lo < p.hi)) ok = false, c.report(lo, w + ".bounds", "expected LOW < HIGH");
          p.unit = u_lo;
          p.start = (p.lo + p.hi) / 2;
          p.start_at = p.lo_at;
          if (v["start"]) {
            p.start_at = c.at(v["start"]);
            if (!v["start"].IsScalar() || !split_quantity(v["start"].Scalar(), p.start, u_start) || u_start != u_lo)
              c.report(v["start"], w + ".start", "expected a number in the bounds' unit '" + u_lo + "', found " + found(v["start"]));
            else if (ok && (p.start < p.lo || p.start > p.hi))
              c.report(v["start"], w + ".start", "expected a start within the bounds");
          }
          s.parameters.push_back(std::move(p));
        }
    }
    if (const auto n = root["holdout"]) {
      if (!n.IsMap() || (!n["rows"] && !n["fraction"]))
        c.report(n, "holdout", "expected { rows: [N, ...] } or { fraction: F, seed: S }, found " + found(n));
      else if (n["rows"]) {
        s.holdout_rows = row_numbers(n["rows"], s.rows.size(), "holdout.rows", c);
      } else {
        double f = 0, seed = 1;
        if (!n["fraction"].IsScalar() || !parse_fraction(n["fraction"].Scalar(), f) || f <= 0 || f >= 1)
          c.report(n["fraction"], "holdout.fraction", "expected a share between 0 and 1 (exclusive), found " + found(n["fraction"]));
        else if (n["seed"] && (!n["seed"].IsScalar() || !parse_number(n["seed"].Scalar(), seed) || seed < 0))
          c.report(n["seed"], "holdout.seed", "expected a seed >= 0, found " + found(n["seed"]));
        else {
          // A seeded shuffle of the row numbers; the first round(f * rows) are held out.
          std::vector<std::size_t> order(s.rows.size());
          for (std::size_t i = 0; i < order.size(); ++i) order[i] = i + 1;
          std::mt19937_64 rng(static_cast<std::uint64_t>(seed));
          for (std::size_t i = order.size(); i > 1; --i) std::swap(order[i - 1], order[rng() % i]);
          const auto k = static_cast<std::size_t>(std::lround(f * static_cast<double>(order.size())));
          s.holdout_rows.assign(order.begin(), order.begin() + static_cast<long>(std::max<std::size_t>(k, 1)));
          std::sort(s.holdout_rows.begin(), s.holdout_rows.end());
        }
      }
    }
    if (const auto n = root["optimizer"]) {
      if (!n.IsMap()) c.report(n, "optimizer", "expected { global_evals: N, local_evals: N, local: bobyqa|neldermead }");
      else
        for (const auto& f : n) {
          const std::string k = f.first.Scalar();
          double x = 0;
          if (k == "global_evals" || k == "local_evals") {
            if (!f.second.IsScalar() || !parse_number(f.second.Scalar(), x) || x < 0 || x != std::floor(x) || x > 100000)
              c.report(f.second, "optimizer." + k, "expected a count from 0 to 100000, found " + found(f.second));
            else (k == "global_evals" ? s.global_evals : s.local_evals) = static_cast<unsigned>(x);
          } else if (k == "local") {
            const std::string a = f.second.IsScalar() ? f.second.Scalar() : "";
            if (a == "bobyqa" || a == "neldermead") s.local_algorithm = a;
            else c.report(f.second, "optimizer.local", "expected bobyqa or neldermead, found " + found(f.second));
          } else {
            c.report(f.first, "optimizer." + k, "unknown key (expected global_evals, local_evals, local)");
          }
        }
    }
    // calibrated.yaml extends the scenario, and a derived scenario replaces a list whole: a
    // list item's path (stages.0.unit) cannot be written into it. Refused here, before any run.
    const auto through_list = [](const std::string& path) {
      for (std::size_t b = 0; b <= path.size();) {
        const std::size_t e = std::min(path.find('.', b), path.size());
        if (e > b && path.find_first_not_of("0123456789", b) >= e) return true;
        b = e + 1;
      }
      return false;
    };
    const std::string list_note =
        ": a list item cannot be written into calibrated.yaml (an overlay that extends the scenario replaces "
        "whole lists); set it in the scenario instead";
    for (std::size_t i = 0; i < s.set.size(); ++i)
      if (through_list(s.set[i].path)) c.report(s.set_at[i], "set." + s.set[i].path, "'" + s.set[i].path + "'" + list_note);
    for (const auto& p : s.parameters)
      for (const auto& path : p.paths)
        if (through_list(path)) c.report(p.at, "parameters." + p.path, "'" + path + "'" + list_note);
    // Fewer measured values to fit than parameters leaves the fit undetermined.
    std::size_t fitted_values = 0;
    for (const auto& r : s.rows)
      if (std::find(s.holdout_rows.begin(), s.holdout_rows.end(), r.number) == s.holdout_rows.end())
        for (const auto& m : r.measured) fitted_values += m ? 1 : 0;
    if (c.diags.empty() && fitted_values < s.parameters.size())
      c.report(s.parameters_at, "parameters",
               std::to_string(s.parameters.size()) + " parameters to fit but only " + std::to_string(fitted_values) +
                   " measured values in the fitted rows (" + T.file + "): give at least as many values as parameters");
  }
  if (!c.diags.empty()) throw scenario_error(c.diags);
  return s;
}

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
  // The parameters at their start, then each bound on its own (a bound in the wrong unit).
  std::vector<scenarios::sweep_value> params;
  std::vector<origin> params_at;
  for (const auto& p : s.parameters)
    for (const auto& path : p.paths) {
      params.push_back(value_of(path, p.value_text(p.start)));
      params_at.push_back({p.at, p.start_at});
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
  for (const auto& p : s.parameters)
    for (const double bound : {p.lo, p.hi}) {
      auto values = shared;
      auto at = shared_at;
      for (const auto& path : p.paths) {
        values.push_back(value_of(path, p.value_text(bound)));
        at.push_back({p.at, bound == p.lo ? p.lo_at : p.hi_at});
      }
      try_load(s, values, at, out, seen);
    }
  // Power targets name components of the platform.
  if (have_first)
    for (const auto& t : s.targets)
      for (const auto& comp : t.metric.components)
        if (std::none_of(first.components.begin(), first.components.end(),
                         [&](const scenarios::component_ref& r) { return r.name == comp; })) {
          std::string names;
          for (const auto& r : first.components) names += (names.empty() ? "" : ", ") + r.name;
          out.push_back({t.at.file, t.at.line, t.at.column, "targets." + t.column,
                         "metric '" + t.metric.text + "': no component '" + comp + "' in the platform (components: " + names + ")",
                         false});
        }
  if (!out.empty()) throw scenario_error(out);
}

}  // namespace ptsim::cosim::calibration
