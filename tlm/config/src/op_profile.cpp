#include "ptsim/tlm_config/op_profile.hpp"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <map>
#include <tuple>

#include "ptsim/tlm_config/names.hpp"

namespace ptsim::tlm_config {

namespace {

bool exact_is_nk(op_kind k) { return settings_fallback(k) == op_kind::gemm || k == op_kind::conv; }

// The exact fields of a kind (see the header): n and k for gemm and conv, k otherwise.
std::pair<double, double> exact_fields(op_kind kind, double n, double k) {
  return exact_is_nk(kind) ? std::make_pair(n, k) : std::make_pair(k, 0.0);
}

bool same(double a, double b) { return std::fabs(a - b) <= 1e-9 * std::max(std::fabs(a), std::fabs(b)); }

// Linear between neighbours, proportional above the largest, flat below the smallest.
double interpolate(const std::vector<double>& x, const std::vector<double>& y, double at) {
  if (at <= x.front()) return y.front();
  if (at >= x.back()) return y.back() * at / x.back();
  const std::size_t i = static_cast<std::size_t>(std::upper_bound(x.begin(), x.end(), at) - x.begin());
  const double w = (at - x[i - 1]) / (x[i] - x[i - 1]);
  return y[i - 1] + w * (y[i] - y[i - 1]);
}

}  // namespace

double profile_size(op_kind k, double m, double n) { return attends(k) ? n : m; }

op_profile::op_profile(std::vector<profile_row> rows, std::string source) : rows_(rows.size()), source_(std::move(source)) {
  // Rows per key and clock, then per size: equal sizes are averaged (repeated measurements).
  using key = std::tuple<int, int, double, double, double>;
  std::map<key, std::map<double, std::vector<const profile_row*>>> by;
  for (const auto& r : rows) {
    const auto [e1, e2] = exact_fields(r.kind, r.n, r.k);
    by[{static_cast<int>(r.kind), static_cast<int>(r.prec), e1, e2, r.clock_hz}][profile_size(r.kind, r.m, r.n)]
        .push_back(&r);
  }
  for (const auto& [k, sizes] : by) {
    group g{static_cast<op_kind>(std::get<0>(k)), static_cast<precision>(std::get<1>(k)), std::get<2>(k),
            std::get<3>(k), std::get<4>(k), {}, {}, {}};
    for (const auto& [size, rs] : sizes) {
      double t = 0, c = 0;
      bool given = true;
      for (const profile_row* r : rs) {
        t += r->time_s;
        c += r->time_s * r->compute_fraction;
        given = given && r->compute_fraction >= 0;
      }
      const double n = static_cast<double>(rs.size());
      g.size.push_back(size);
      g.time_s.push_back(t / n);
      g.compute_s.push_back(given ? c / n : -1);
    }
    groups_.push_back(std::move(g));
  }
}

std::optional<profile_point> op_profile::lookup(const op& o, double hz) const {
  const double size = profile_size(o.kind, o.shape_m, o.shape_n);
  if (!(size > 0)) return std::nullopt;
  const auto [e1, e2] = exact_fields(o.kind, o.shape_n, o.shape_k);
  const group* best = nullptr;
  int best_specific = -1;
  for (const auto& g : groups_) {
    if (g.kind != o.kind || g.prec != o.prec) continue;
    if ((g.exact1 != 0 && !same(g.exact1, e1)) || (g.exact2 != 0 && !same(g.exact2, e2))) continue;
    // The most specific rows first (exact fields given), then the clock nearest hz.
    const int specific = (g.exact1 != 0) + (g.exact2 != 0);
    const bool better = !best || specific > best_specific ||
                        (specific == best_specific &&
                         (std::fabs(g.clock_hz - hz) < std::fabs(best->clock_hz - hz) ||
                          (std::fabs(g.clock_hz - hz) == std::fabs(best->clock_hz - hz) && g.clock_hz > best->clock_hz)));
    if (better) {
      best = &g;
      best_specific = specific;
    }
  }
  if (!best) return std::nullopt;
  profile_point p;
  p.ref_hz = best->clock_hz;
  p.time_s = interpolate(best->size, best->time_s, size);
  // The compute part interpolates like the time when both neighbours give it.
  const bool given = std::all_of(best->compute_s.begin(), best->compute_s.end(), [](double c) { return c >= 0; });
  if (given && p.time_s > 0) p.compute_fraction = std::clamp(interpolate(best->size, best->compute_s, size) / p.time_s, 0.0, 1.0);
  return p;
}

// --- the CSV reader -------------------------------------------------------------------

namespace {

struct cell {
  std::string text;
  int column;  // 1-based
};

// Comma-separated fields, blanks around them trimmed, '#' starts a comment.
std::vector<cell> split(std::string line) {
  if (auto h = line.find('#'); h != std::string::npos) line.erase(h);
  std::vector<cell> out;
  if (line.find_first_not_of(" \t\r") == std::string::npos) return out;
  std::size_t p = 0;
  for (;;) {
    const std::size_t e = std::min(line.find(',', p), line.size());
    std::size_t b = line.find_first_not_of(" \t\r", p);
    if (b == std::string::npos || b > e) b = e;
    std::size_t z = e;
    while (z > b && (line[z - 1] == ' ' || line[z - 1] == '\t' || line[z - 1] == '\r')) --z;
    out.push_back({line.substr(b, z - b), static_cast<int>(b) + 1});
    if (e >= line.size()) break;
    p = e + 1;
  }
  return out;
}

class csv_reader {
 public:
  csv_reader(const std::filesystem::path& file) : file_(file), in_(file) {
    if (!in_) throw profile_error(file.string() + ": cannot open the profile file");
  }
  /// The next non-empty row (false at the end).
  bool next(std::vector<cell>& row) {
    std::string line;
    while (std::getline(in_, line)) {
      ++line_;
      if (line_ == 1 && line.compare(0, 3, "\xEF\xBB\xBF") == 0) line.erase(0, 3);  // UTF-8 byte-order mark
      row = split(line);
      if (!row.empty()) return true;
    }
    return false;
  }
  [[noreturn]] void fail(int column, const std::string& message) const {
    throw profile_error(file_.string() + ":" + std::to_string(line_) + (column > 0 ? ":" + std::to_string(column) : "") +
                        ": " + message);
  }
  int line() const { return line_; }
  const std::filesystem::path& file() const { return file_; }

 private:
  std::filesystem::path file_;
  std::ifstream in_;
  int line_ = 0;
};

// Header columns by name; a duplicate is an error.
std::map<std::string, std::size_t> columns_of(const std::vector<cell>& header, const csv_reader& r) {
  std::map<std::string, std::size_t> cols;
  for (std::size_t i = 0; i < header.size(); ++i)
    if (!cols.emplace(header[i].text, i).second)
      r.fail(header[i].column, "column '" + header[i].text + "' appears twice");
  return cols;
}

// The named column's number; `empty_ok`: an empty cell gives `fallback`.
double number(const std::vector<cell>& row, std::size_t i, const std::string& name, const csv_reader& r, double min,
              bool above, double fallback, bool empty_ok, const char* expected) {
  const cell& c = row[i];
  if (c.text.empty()) {
    if (empty_ok) return fallback;
    r.fail(c.column, "column '" + name + "': expected " + expected + ", found an empty field");
  }
  char* end = nullptr;
  const double v = std::strtod(c.text.c_str(), &end);
  if (end == c.text.c_str() || *end != '\0' || !std::isfinite(v) || (above ? !(v > min) : !(v >= min)))
    r.fail(c.column, "column '" + name + "': expected " + expected + ", found '" + c.text + "'");
  return v;
}

void check_width(const std::vector<cell>& row, std::size_t width, const csv_reader& r) {
  if (row.size() != width)
    r.fail(0, "expected " + std::to_string(width) + " fields (as the header), found " + std::to_string(row.size()));
}

void check_kind(const profile_row& p, const cell& c, const csv_reader& r) {
  if (p.kind == op_kind::collective || p.kind == op_kind::transfer)
    r.fail(c.column, "column 'kind': expected a kind a compute unit times (gemm, conv, attention, elementwise, norm, "
                     "embedding, pool, other), found '" + c.text + "' (collectives and transfers cross links)");
}

// ptsim's form: one kernel per row.
std::vector<profile_row> read_ptsim(csv_reader& r, const std::vector<cell>& header, const profile_defaults& d) {
  static const std::vector<std::string> known = {"kind", "precision", "m", "n", "k", "time_us", "time_ms",
                                                 "clock_mhz", "compute_fraction", "source"};
  const auto cols = columns_of(header, r);
  for (const auto& c : header)
    if (std::find(known.begin(), known.end(), c.text) == known.end())
      r.fail(c.column, "unknown column '" + c.text + "' (expected " + join_names(known) + ")");
  if (!cols.count("kind")) r.fail(0, "missing column 'kind' (columns: " + join_names(known) + ")");
  if (cols.count("time_us") == cols.count("time_ms"))
    r.fail(0, "expected one time column, time_us or time_ms, found " +
                  std::string(cols.count("time_us") ? "both" : "neither"));
  const bool us = cols.count("time_us") > 0;
  const auto col = [&](const char* n) { auto it = cols.find(n); return it == cols.end() ? SIZE_MAX : it->second; };
  std::vector<profile_row> rows;
  std::vector<cell> row;
  while (r.next(row)) {
    check_width(row, header.size(), r);
    profile_row p;
    const cell& kc = row[col("kind")];
    try {
      p.kind = parse_op_kind(kc.text);
    } catch (const std::invalid_argument& e) {
      r.fail(kc.column, "column 'kind': " + std::string(e.what()));
    }
    check_kind(p, kc, r);
    p.prec = d.prec;
    if (col("precision") != SIZE_MAX && !row[col("precision")].text.empty()) {
      try {
        p.prec = parse_precision(row[col("precision")].text);
      } catch (const std::invalid_argument& e) {
        r.fail(row[col("precision")].column, "column 'precision': " + std::string(e.what()));
      }
    }
    const char* shape = "a number > 0 (or empty: any)";
    for (const char* f : {"m", "n", "k"}) {
      if (col(f) == SIZE_MAX) continue;
      const double v = number(row, col(f), f, r, 0, true, 0, true, shape);
      (*f == 'm' ? p.m : *f == 'n' ? p.n : p.k) = v;
    }
    // The size the row is interpolated in must be given.
    const char* size_col = attends(p.kind) ? "n" : "m";
    if (!(profile_size(p.kind, p.m, p.n) > 0))
      r.fail(col(size_col) == SIZE_MAX ? 0 : row[col(size_col)].column,
             "column '" + std::string(size_col) + "': a " + to_string(p.kind) + " row needs its size " + size_col +
                 " (a number > 0), found " + (col(size_col) == SIZE_MAX ? "no such column" : "an empty field"));
    const char* tc = us ? "time_us" : "time_ms";
    p.time_s = number(row, col(tc), tc, r, 0, true, 0, false, "a time > 0") * (us ? 1e-6 : 1e-3);
    p.clock_hz = col("clock_mhz") == SIZE_MAX ? d.clock_hz
                                              : number(row, col("clock_mhz"), "clock_mhz", r, 0, true, d.clock_hz / 1e6,
                                                       true, "a clock in MHz > 0 (or empty: the profile's clock)") * 1e6;
    if (!(p.clock_hz > 0)) r.fail(0, "no clock: give the profile's clock, or clock_mhz on the row");
    p.compute_fraction = col("compute_fraction") == SIZE_MAX
                             ? d.compute_fraction
                             : number(row, col("compute_fraction"), "compute_fraction", r, 0, false,
                                      d.compute_fraction, true, "a share from 0 to 1 (or empty)");
    if (p.compute_fraction > 1)
      r.fail(row[col("compute_fraction")].column, "column 'compute_fraction': expected a share from 0 to 1, found '" +
                                                      row[col("compute_fraction")].text + "'");
    rows.push_back(p);
  }
  return rows;
}

// Vidur's MLP profile (microsoft/vidur, data/profiling/compute/<gpu>/<model>/mlp.csv): one
// row per token count and tensor-parallel degree, each of a decoder layer's operators
// timed per rank in ms (time_stats.<op>.median of several runs). Mapped onto the
// operators ptsim's decoder builds (models/decoder.cpp), with their per-rank shapes.
std::vector<profile_row> read_vidur(csv_reader& r, const std::vector<cell>& header, const profile_defaults& d) {
  const auto cols = columns_of(header, r);
  static const std::vector<std::string> needed = {"n_head", "n_kv_head", "n_embd", "n_expanded_embd",
                                                  "use_gated_mlp", "num_tokens", "num_tensor_parallel_workers"};
  for (const auto& n : needed)
    if (!cols.count(n)) r.fail(0, "missing column '" + n + "' (a Vidur MLP profile has " + join_names(needed) + ")");
  if (!(d.clock_hz > 0)) r.fail(0, "no clock: give the profile's clock (Vidur files do not say)");
  // Vidur operator -> ptsim kind; the shape comes from the model columns below.
  struct vop {
    const char* name;
    op_kind kind;
  };
  static const vop vops[] = {{"emb", op_kind::embedding},
                             {"input_layernorm", op_kind::norm},
                             {"attn_pre_proj", op_kind::gemm},
                             {"attn_post_proj", op_kind::gemm},
                             {"post_attention_layernorm", op_kind::norm},
                             {"mlp_up_proj", op_kind::gemm},
                             {"mlp_act", op_kind::elementwise},
                             {"mlp_down_proj", op_kind::gemm}};
  std::vector<std::pair<const vop*, std::size_t>> timed;
  for (const auto& v : vops) {
    auto it = cols.find(std::string("time_stats.") + v.name + ".median");
    if (it != cols.end()) timed.emplace_back(&v, it->second);
  }
  if (timed.empty()) r.fail(0, "no time_stats.<operator>.median column of an operator ptsim models");
  std::vector<profile_row> rows;
  std::vector<cell> row;
  while (r.next(row)) {
    check_width(row, header.size(), r);
    const auto get = [&](const char* n) {
      return number(row, cols.at(n), n, r, 0, true, 0, false, "a number > 0");
    };
    const double heads = get("n_head"), kv = get("n_kv_head"), h = get("n_embd"), ffn = get("n_expanded_embd");
    const double tokens = get("num_tokens"), tp = get("num_tensor_parallel_workers");
    const cell& gated = row[cols.at("use_gated_mlp")];
    if (gated.text != "True" && gated.text != "False")
      r.fail(gated.column, "column 'use_gated_mlp': expected True or False, found '" + gated.text + "'");
    const double hd = h / heads, hpr = heads / tp, kvpr = std::max(1.0, kv / tp);
    for (const auto& [v, i] : timed) {
      if (row[i].text.empty()) continue;  // not measured in this row
      profile_row p;
      p.kind = v->kind;
      p.prec = d.prec;
      p.clock_hz = d.clock_hz;
      p.compute_fraction = d.compute_fraction;
      const std::string name = std::string("time_stats.") + v->name + ".median";
      p.time_s = number(row, i, name, r, 0, true, 0, false, "a time in ms > 0") * 1e-3;
      const std::string op = v->name;
      p.m = tokens;
      if (op == "emb") p.k = h;
      else if (op == "input_layernorm" || op == "post_attention_layernorm") p.k = h;
      else if (op == "attn_pre_proj") p.n = (hpr + 2 * kvpr) * hd, p.k = h;
      else if (op == "attn_post_proj") p.n = h, p.k = hpr * hd;
      else if (op == "mlp_up_proj") p.n = (gated.text == "True" ? 2 : 1) * ffn / tp, p.k = h;
      else if (op == "mlp_act") p.m = tokens * ffn / tp, p.k = 1;  // elementwise: rows of one element
      else if (op == "mlp_down_proj") p.n = h, p.k = ffn / tp;
      rows.push_back(p);
    }
  }
  return rows;
}

}  // namespace

op_profile read_op_profile(const std::filesystem::path& file, const profile_defaults& d) {
  csv_reader r(file);
  std::vector<cell> header;
  if (!r.next(header)) throw profile_error(file.string() + ": empty profile (expected a header row, then rows)");
  const bool vidur = std::any_of(header.begin(), header.end(),
                                 [](const cell& c) { return c.text.compare(0, 11, "time_stats.") == 0; });
  std::vector<profile_row> rows = vidur ? read_vidur(r, header, d) : read_ptsim(r, header, d);
  if (rows.empty()) throw profile_error(file.string() + ": no rows after the header");
  return op_profile(std::move(rows), file.string());
}

}  // namespace ptsim::tlm_config
