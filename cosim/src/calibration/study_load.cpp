// Reading and checking a study file, in the order of its sections: the keys every study has
// (scenario, set, measurements, targets), the rows of the table, then the keys of a
// comparison case or of a calibration.
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <random>

#include "study.hpp"
#include "study_reading.hpp"

namespace ptsim::cosim::calibration {

using scenarios::scenario_error;
using namespace reading;

namespace {

/// The file's root node and the place of its keys. Throws for unparsable YAML.
struct study_file {
  const YAML::Node root;
  const fs::path dir;
  collector& c;

  YAML::Node required(const std::string& k) const {
    YAML::Node n = root[k];
    if (!n) c.report(where{c.file, 1, 1}, k, "missing required key '" + k + "'");
    return n;
  }
  std::string scalar(const YAML::Node& n, const std::string& k) const {
    if (!n) return "";
    if (!n.IsScalar() || n.Scalar().empty()) {
      c.report(n, k, "expected a non-empty string, found " + found(n));
      return "";
    }
    return n.Scalar();
  }
  fs::path relative(const std::string& t) const { return fs::path(t).is_absolute() ? fs::path(t) : dir / t; }
};

YAML::Node parse_root(const fs::path& path, const std::string& file) {
  YAML::Node root;
  try {
    root = YAML::Load(read_file(path));
  } catch (const YAML::Exception& e) {
    throw scenario_error({{file, e.mark.line + 1, e.mark.column + 1, "", e.msg, false}});
  } catch (const std::runtime_error& e) {
    throw scenario_error({{file, 0, 0, "", e.what(), false}});
  }
  if (!root.IsMap()) throw scenario_error({{file, 1, 1, "", "expected a mapping of study keys, found " + found(root), false}});
  return root;
}

void check_keys(const study_file& f, study_kind kind) {
  std::vector<std::string> keys{"name", "description", "scenario", "set", "measurements", "targets"};
  if (kind == study_kind::compare_case) keys.insert(keys.end(), {"source", "citation", "expect", "quick"});
  else keys.insert(keys.end(), {"parameters", "holdout", "optimizer"});
  for (const auto& e : f.root) {
    const std::string k = e.first.Scalar();
    if (std::find(keys.begin(), keys.end(), k) == keys.end()) {
      std::string list;
      for (const auto& x : keys) list += (list.empty() ? "" : ", ") + x;
      f.c.report(e.first, k, "unknown key '" + k + "' (expected one of: " + list + ")");
    }
  }
}

// name, scenario, set, measurements.
void read_common(const study_file& f, const fs::path& path, study_kind kind, study& s) {
  const auto& root = f.root;
  s.name = root["name"] ? f.scalar(root["name"], "name") : path.parent_path().filename().string();
  if (kind == study_kind::calibration && !root["name"]) s.name = path.stem().string();
  if (const auto n = f.required("scenario")) {
    s.scenario_at = f.c.at(n);
    const std::string t = f.scalar(n, "scenario");
    if (!t.empty()) {
      const fs::path p = f.relative(t);
      if (!fs::is_regular_file(p)) f.c.report(n, "scenario", "no scenario file at " + p.string());
      else s.scenario = fs::absolute(p).lexically_normal().string();
    }
  }
  if (const auto n = root["set"]) read_set(n, "set", f.c, s.set, s.set_at);
  if (const auto n = f.required("measurements")) {
    const std::string t = f.scalar(n, "measurements");
    if (t.empty()) return;
    const fs::path p = f.relative(t);
    try {
      s.table = parse_measurement_table(read_file(p), p.string());
    } catch (const scenario_error& e) {
      for (const auto& d : e.diagnostics()) f.c.diags.push_back(d);
    } catch (const std::runtime_error& e) {
      f.c.report(n, "measurements", e.what());
    }
  }
}

// One entry of targets: { metric, scale, weight, error, tolerance, ratio_to_row, reciprocal }.
void read_target(const study_file& f, const YAML::Node& key, const YAML::Node& v, study& s) {
  collector& c = f.c;
  const auto& T = s.table;
  target t;
  t.column = key.Scalar();
  t.at = c.at(key);
  const std::string where_ = "targets." + t.column;
  if (!T.columns.empty() && std::find(T.columns.begin(), T.columns.end(), t.column) == T.columns.end())
    c.report(key, where_, "no column '" + t.column + "' in " + T.file);
  if (!v.IsMap() || !v["metric"]) return c.report(v, where_, "expected { metric: NAME, ... }, found " + found(v));
  for (const auto& e : v) {
    const std::string k = e.first.Scalar();
    if (k != "metric" && k != "scale" && k != "weight" && k != "error" && k != "tolerance" && k != "ratio_to_row" &&
        k != "reciprocal")
      c.report(e.first, where_ + "." + k,
               "unknown key '" + k + "' (expected metric, scale, weight, error, tolerance, ratio_to_row, reciprocal)");
  }
  try {
    t.metric = parse_metric(f.scalar(v["metric"], where_ + ".metric"));
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
  if (const auto r = v["reciprocal"]) {
    const std::string b = r.IsScalar() ? r.Scalar() : "";
    if (b == "true" || b == "false") t.reciprocal = b == "true";
    else c.report(r, where_ + ".reciprocal", "expected true or false, found " + found(r));
  }
  if (const auto r = v["ratio_to_row"]) {
    double x = 0;
    const std::size_t rows = T.cells.size();
    // Range first: converting a NaN or a huge number to an integer is undefined.
    if (!r.IsScalar() || !parse_number(r.Scalar(), x) || !(x >= 1 && x <= static_cast<double>(rows)) || x != std::floor(x))
      c.report(r, where_ + ".ratio_to_row",
               "expected a data row number 1.." + std::to_string(rows) + " of " + T.file + ", found " + found(r));
    else
      t.ratio_to_row = static_cast<std::size_t>(x);
  }
  s.targets.push_back(std::move(t));
}

void read_targets(const study_file& f, study& s) {
  const auto n = f.required("targets");
  if (!n) return;
  if (!n.IsMap() || n.size() == 0)
    return f.c.report(n, "targets", "expected a mapping of measured columns to metrics, found " + found(n));
  for (const auto& e : n) read_target(f, e.first, e.second, s);
}

// Rows: conditions from the dotted-path columns, measured values from the target columns.
void build_rows(collector& c, study& s) {
  const auto& T = s.table;
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
      row.conditions.push_back(condition_value(T.columns[k], T.cells[r][k]));
      row.condition_at.push_back(T.cell_at[r][k]);
    }
    for (std::size_t i = 0; i < s.targets.size(); ++i) {
      const std::size_t k = target_cols[i];
      double x = 0;
      if (k >= T.columns.size() || T.cells[r][k].empty()) {
        row.measured.push_back(std::nullopt);
      } else if (!parse_number(T.cells[r][k], x)) {
        c.report(T.cell_at[r][k], T.columns[k], "expected a number, found '" + T.cells[r][k] + "'");
        row.measured.push_back(std::nullopt);
      } else if (s.targets[i].ratio_to_row == r + 1) {
        // The baseline of a ratio: 1 by definition, nothing to compare.
        if (x != 1)
          c.report(T.cell_at[r][k], T.columns[k],
                   "this row is the baseline of the ratios in this column (ratio_to_row: " + std::to_string(r + 1) +
                       "): expected 1 or an empty cell, found '" + T.cells[r][k] + "'");
        row.measured.push_back(std::nullopt);
      } else {
        row.measured.push_back(x * s.targets[i].scale);
      }
    }
    s.rows.push_back(std::move(row));
  }
}

// source, citation, expect, quick; every target needs a tolerance.
void read_compare_keys(const study_file& f, study& s) {
  collector& c = f.c;
  s.source = f.scalar(f.required("source"), "source");
  s.citation = f.scalar(f.required("citation"), "citation");
  if (const auto n = f.root["expect"]) {
    const std::string e = n.IsScalar() ? n.Scalar() : "";
    if (e == "pass" || e == "fail") s.expect = e == "pass" ? expectation::pass : expectation::fail;
    else c.report(n, "expect", "expected pass or fail, found " + found(n));
  }
  if (const auto n = f.root["quick"]) {
    if (!n.IsMap()) {
      c.report(n, "quick", "expected { rows: [...], set: {...} }, found " + found(n));
    } else {
      for (const auto& e : n)
        if (e.first.Scalar() != "rows" && e.first.Scalar() != "set")
          c.report(e.first, "quick." + e.first.Scalar(), "unknown key (expected rows, set)");
      if (n["rows"]) s.quick_rows = row_numbers(n["rows"], s.rows.size(), "quick.rows", c);
      if (n["set"]) read_set(n["set"], "quick.set", c, s.quick_set, s.quick_set_at);
    }
  }
  for (const auto& t : s.targets)
    if (!t.tolerance) c.report(t.at, "targets." + t.column, "a comparison case needs a tolerance for each target");
}

// One entry of parameters: { bounds: [LOW, HIGH], start: X }, both bounds in one unit.
void read_parameter(collector& c, const YAML::Node& key, const YAML::Node& v, study& s) {
  parameter p;
  p.path = key.Scalar();
  p.at = c.at(key);
  const std::string w = "parameters." + p.path;
  try {
    p.paths = expand_ranges(p.path);
  } catch (const std::invalid_argument& x) {
    c.report(key, w, x.what());
  }
  if (!v.IsMap() || !v["bounds"] || !v["bounds"].IsSequence() || v["bounds"].size() != 2)
    return c.report(v, w, "expected { bounds: [LOW, HIGH], start: X } (start optional), found " + found(v));
  for (const auto& e : v)
    if (e.first.Scalar() != "bounds" && e.first.Scalar() != "start")
      c.report(e.first, w + "." + e.first.Scalar(), "unknown key (expected bounds, start)");
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

void read_parameters(const study_file& f, study& s) {
  const auto n = f.required("parameters");
  if (!n) return;
  s.parameters_at = f.c.at(n);
  if (!n.IsMap() || n.size() == 0)
    return f.c.report(n, "parameters",
                      "expected a mapping of dotted paths to { bounds: [LOW, HIGH], start: X }, found " + found(n));
  for (const auto& e : n) read_parameter(f.c, e.first, e.second, s);
}

// holdout: { rows: [N, ...] } or { fraction: F, seed: S }.
void read_holdout(collector& c, const YAML::Node& n, study& s) {
  if (!n.IsMap() || (!n["rows"] && !n["fraction"]))
    return c.report(n, "holdout", "expected { rows: [N, ...] } or { fraction: F, seed: S }, found " + found(n));
  if (n["rows"]) {
    s.holdout_rows = row_numbers(n["rows"], s.rows.size(), "holdout.rows", c);
    return;
  }
  double f = 0, seed = 1;
  if (!n["fraction"].IsScalar() || !parse_fraction(n["fraction"].Scalar(), f) || f <= 0 || f >= 1)
    return c.report(n["fraction"], "holdout.fraction", "expected a share between 0 and 1 (exclusive), found " + found(n["fraction"]));
  if (n["seed"] && (!n["seed"].IsScalar() || !parse_number(n["seed"].Scalar(), seed) || seed < 0))
    return c.report(n["seed"], "holdout.seed", "expected a seed >= 0, found " + found(n["seed"]));
  // A seeded shuffle of the row numbers; the first round(f * rows) are held out.
  std::vector<std::size_t> order(s.rows.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i + 1;
  std::mt19937_64 rng(static_cast<std::uint64_t>(seed));
  for (std::size_t i = order.size(); i > 1; --i) std::swap(order[i - 1], order[rng() % i]);
  const auto k = static_cast<std::size_t>(std::lround(f * static_cast<double>(order.size())));
  s.holdout_rows.assign(order.begin(), order.begin() + static_cast<long>(std::max<std::size_t>(k, 1)));
  std::sort(s.holdout_rows.begin(), s.holdout_rows.end());
}

// optimizer: { global_evals: N, local_evals: N, local: bobyqa|neldermead }.
void read_optimizer(collector& c, const YAML::Node& n, study& s) {
  if (!n.IsMap()) return c.report(n, "optimizer", "expected { global_evals: N, local_evals: N, local: bobyqa|neldermead }");
  for (const auto& e : n) {
    const std::string k = e.first.Scalar();
    double x = 0;
    if (k == "global_evals" || k == "local_evals") {
      if (!e.second.IsScalar() || !parse_number(e.second.Scalar(), x) || x < 0 || x != std::floor(x) || x > 100000)
        c.report(e.second, "optimizer." + k, "expected a count from 0 to 100000, found " + found(e.second));
      else (k == "global_evals" ? s.global_evals : s.local_evals) = static_cast<unsigned>(x);
    } else if (k == "local") {
      const std::string a = e.second.IsScalar() ? e.second.Scalar() : "";
      if (a == "bobyqa" || a == "neldermead") s.local_algorithm = a;
      else c.report(e.second, "optimizer.local", "expected bobyqa or neldermead, found " + found(e.second));
    } else {
      c.report(e.first, "optimizer." + k, "unknown key (expected global_evals, local_evals, local)");
    }
  }
}

// Each key is fitted by one parameter, once, and is not also a fixed condition: two values
// for one key (a list naming it twice, overlapping ranges, a key both fitted and in `set` or
// the table) would leave which one a run takes to the order of overrides.
void check_parameter_paths(collector& c, const study& s) {
  std::map<std::string, std::string> fitted_by;  // expanded key -> the parameter as written
  for (const auto& p : s.parameters)
    for (const auto& key : p.paths) {
      const std::string w = "parameters." + p.path;
      if (auto [it, fresh] = fitted_by.emplace(key, p.path); !fresh)
        c.report(p.at, w,
                 it->second == p.path ? "'" + key + "' is listed twice: each key is fitted once"
                                      : "'" + key + "' is fitted by parameters." + it->second + " too: each key is fitted once");
      else if (std::any_of(s.set.begin(), s.set.end(), [&](const auto& v) { return v.path == key; }))
        c.report(p.at, w, "'" + key + "' is also fixed in set: a key is fitted or fixed, not both");
      else if (std::find(s.condition_columns.begin(), s.condition_columns.end(), key) != s.condition_columns.end())
        c.report(p.at, w, "'" + key + "' is also a condition column of " + s.table.file + ": a key is fitted or fixed, not both");
    }
}

// Fewer measured values to fit than parameters leaves the fit undetermined.
void check_determined(collector& c, const study& s) {
  std::size_t fitted_values = 0;
  for (const auto& r : s.rows)
    if (std::find(s.holdout_rows.begin(), s.holdout_rows.end(), r.number) == s.holdout_rows.end())
      for (const auto& m : r.measured) fitted_values += m ? 1 : 0;
  if (c.diags.empty() && fitted_values < s.parameters.size())
    c.report(s.parameters_at, "parameters",
             std::to_string(s.parameters.size()) + " parameters to fit but only " + std::to_string(fitted_values) +
                 " measured values in the fitted rows (" + s.table.file + "): give at least as many values as parameters");
}

}  // namespace

study load_study(const fs::path& path, study_kind kind) {
  study s;
  s.file = path.string();
  collector c{s.file, {}};
  const study_file f{parse_root(path, s.file), path.parent_path(), c};
  check_keys(f, kind);
  read_common(f, path, kind, s);
  read_targets(f, s);
  build_rows(c, s);
  if (kind == study_kind::compare_case) {
    read_compare_keys(f, s);
  } else {
    read_parameters(f, s);
    check_parameter_paths(c, s);
    if (const auto n = f.root["holdout"]) read_holdout(c, n, s);
    if (const auto n = f.root["optimizer"]) read_optimizer(c, n, s);
    check_determined(c, s);
  }
  if (!c.diags.empty()) throw scenario_error(c.diags);
  return s;
}

}  // namespace ptsim::cosim::calibration
