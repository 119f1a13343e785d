// ptsim compare [CASE...] [--dir DIR] [--format table|csv|json|markdown] [-j N] [--quick]
// Runs the validation cases (validation/<case>/case.yaml: a scenario, the conditions of a
// published measurement, the metrics compared and their tolerances) and prints model vs
// measured. A case marked `expect: fail` (today's model is known to miss it) is reported
// but does not fail the command; flipping it to `expect: pass` makes it a gate.
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <sstream>

#include "../calibration/evaluation.hpp"
#include "../calibration/study.hpp"
#include "../sweep/machine.hpp"
#include "commands.hpp"

namespace ptsim::cosim::cli {

namespace {

namespace cal = calibration;
namespace fs = std::filesystem;

struct compare_args {
  std::vector<std::string> cases;
  std::string dir, format = "table";
  unsigned jobs = 0;
  bool quick = false;
};

struct case_outcome {
  const cal::study* s = nullptr;
  std::vector<std::size_t> rows;
  std::vector<cal::row_outcome> out;
  bool within = true, ran = true;
  std::string status() const {
    if (!ran) return "failed to run";
    const bool expect_pass = s->expect == cal::expectation::pass;
    if (within) return expect_pass ? "pass" : "pass (expected fail: set expect: pass)";
    return expect_pass ? "FAIL" : "fail (expected)";
  }
};

fs::path default_dir() {
  if (const char* env = std::getenv("PTSIM_VALIDATION_DIR")) return env;
  return PTSIM_SOURCE_VALIDATION_DIR;
}

std::string num(double x) {
  if (std::isnan(x)) return "-";
  char b[32];
  // Four significant digits; whole numbers from 1000 up ("24528", not "2.453e+04").
  if (std::fabs(x) >= 1000 && std::fabs(x) < 1e9) std::snprintf(b, sizeof b, "%.0f", x);
  else std::snprintf(b, sizeof b, "%.4g", x);
  return b;
}

std::string err_text(const cal::target& t, double e) {
  if (std::isnan(e)) return "-";
  char b[32];
  if (t.relative) std::snprintf(b, sizeof b, "%+.1f %%", 100 * e);
  else std::snprintf(b, sizeof b, "%+.4g", e);
  return b;
}

std::string tol_text(const cal::target& t) {
  if (!t.tolerance) return "-";
  char b[32];
  if (t.relative) std::snprintf(b, sizeof b, "%g %%", 100 * *t.tolerance);
  else std::snprintf(b, sizeof b, "%g", *t.tolerance);
  return b;
}

std::string conditions_text(const cal::study& s, std::size_t row) {
  std::string out;
  for (const auto& v : s.rows[row - 1].conditions) {
    // The last path element is enough to read the table; the case file has the whole path.
    const auto dot = v.path.rfind('.');
    out += (out.empty() ? "" : " ") + v.path.substr(dot == std::string::npos ? 0 : dot + 1) + "=" + v.text;
  }
  return out.empty() ? "-" : out;
}

std::string csv_field(const std::string& s) {
  if (s.find_first_of(",\"\n") == std::string::npos) return s;
  std::string q = "\"";
  for (char c : s) q += c == '"' ? std::string("\"\"") : std::string(1, c);
  return q + "\"";
}

std::string json_string(const std::string& s) {
  std::string q = "\"";
  for (unsigned char c : s) {
    if (c == '"' || c == '\\') q += '\\', q += static_cast<char>(c);
    else if (c < 0x20) {
      char b[8];
      std::snprintf(b, sizeof b, "\\u%04x", c);
      q += b;
    } else q += static_cast<char>(c);
  }
  return q + "\"";
}

std::string json_number(double x) { return std::isfinite(x) ? cal::number_text(x) : "null"; }

// One printed line per row and target with a measured value.
template <class F>
void each_point(const case_outcome& c, F f) {
  for (const auto& o : c.out)
    for (std::size_t k = 0; k < c.s->targets.size(); ++k) {
      const auto& m = c.s->rows[o.row - 1].measured[k];
      if (!m) continue;
      const auto& t = c.s->targets[k];
      const bool ok = o.failure.empty() && !std::isnan(o.error[k]) && (!t.tolerance || std::fabs(o.error[k]) <= *t.tolerance);
      f(o, t, *m, o.simulated[k], o.error[k], ok);
    }
}

void print_table(const std::vector<case_outcome>& cases) {
  std::vector<std::vector<std::string>> rows{
      {"case", "row", "conditions", "target", "metric", "measured", "model", "error", "tolerance", "within"}};
  for (const auto& c : cases)
    each_point(c, [&](const cal::row_outcome& o, const cal::target& t, double m, double sim, double e, bool ok) {
      rows.push_back({c.s->name, std::to_string(o.row), conditions_text(*c.s, o.row), t.column, t.quantity(), num(m),
                      num(sim), err_text(t, e), tol_text(t), ok ? "yes" : o.failure.empty() ? "no" : "run failed"});
    });
  std::vector<std::size_t> w(rows[0].size(), 0);
  for (const auto& r : rows)
    for (std::size_t i = 0; i < r.size(); ++i) w[i] = std::max(w[i], r[i].size());
  for (const auto& r : rows) {
    std::string line;
    for (std::size_t i = 0; i < r.size(); ++i) {
      std::string cell = r[i];
      if (i + 1 < r.size()) cell.resize(w[i] + 2, ' ');
      line += cell;
    }
    std::cout << line << "\n";
  }
  std::cout << "\n";
  for (const auto& c : cases) {
    std::cout << c.s->name << ": " << c.status();
    for (const auto& o : c.out)
      if (!o.failure.empty()) std::cout << "; row " << o.row << ": " << o.failure;
    std::cout << "\n";
  }
}

void print_csv(const std::vector<case_outcome>& cases) {
  std::cout << "case,row,conditions,target,metric,units,measured,model,error,error_kind,tolerance,within,case_status\n";
  for (const auto& c : cases)
    each_point(c, [&](const cal::row_outcome& o, const cal::target& t, double m, double sim, double e, bool ok) {
      std::cout << csv_field(c.s->name) << "," << o.row << "," << csv_field(conditions_text(*c.s, o.row)) << ","
                << csv_field(t.column) << "," << csv_field(t.quantity()) << "," << csv_field(t.units()) << ","
                << json_number(m) << "," << json_number(sim) << "," << json_number(e) << ","
                << (t.relative ? "relative" : "absolute") << "," << (t.tolerance ? json_number(*t.tolerance) : "") << ","
                << (ok ? "yes" : "no") << "," << csv_field(c.status()) << "\n";
    });
}

void print_json(const std::vector<case_outcome>& cases) {
  std::cout << "{\"cases\": [";
  bool first_case = true;
  for (const auto& c : cases) {
    std::cout << (first_case ? "\n" : ",\n") << "  {\"name\": " << json_string(c.s->name)
              << ", \"source\": " << json_string(c.s->source) << ", \"citation\": " << json_string(c.s->citation)
              << ", \"expect\": \"" << (c.s->expect == cal::expectation::pass ? "pass" : "fail") << "\""
              << ", \"within_tolerance\": " << (c.within && c.ran ? "true" : "false")
              << ", \"status\": " << json_string(c.status()) << ", \"points\": [";
    first_case = false;
    bool first = true;
    each_point(c, [&](const cal::row_outcome& o, const cal::target& t, double m, double sim, double e, bool ok) {
      std::cout << (first ? "\n" : ",\n") << "    {\"row\": " << o.row << ", \"conditions\": {";
      first = false;
      bool fc = true;
      for (const auto& v : c.s->rows[o.row - 1].conditions) {
        std::cout << (fc ? "" : ", ") << json_string(v.path) << ": " << json_string(v.text);
        fc = false;
      }
      std::cout << "}, \"target\": " << json_string(t.column) << ", \"metric\": " << json_string(t.quantity())
                << ", \"units\": " << json_string(t.units()) << ", \"measured\": " << json_number(m)
                << ", \"model\": " << json_number(sim) << ", \"error\": " << json_number(e) << ", \"error_kind\": \""
                << (t.relative ? "relative" : "absolute") << "\", \"tolerance\": "
                << (t.tolerance ? json_number(*t.tolerance) : "null") << ", \"within\": " << (ok ? "true" : "false");
      if (!o.failure.empty()) std::cout << ", \"failure\": " << json_string(o.failure);
      std::cout << "}";
    });
    std::cout << "\n  ]}";
  }
  std::cout << "\n]}\n";
}

// The README's table (README "Against public measurements").
void print_markdown(const std::vector<case_outcome>& cases) {
  std::cout << "| case | conditions | quantity | measured | ptsim | error | tolerance | within |\n"
            << "|---|---|---|---|---|---|---|---|\n";
  for (const auto& c : cases)
    each_point(c, [&](const cal::row_outcome& o, const cal::target& t, double m, double sim, double e, bool ok) {
      std::cout << "| " << c.s->name << " | " << conditions_text(*c.s, o.row) << " | " << t.column << " (" << t.quantity()
                << ", " << t.units() << ") | " << num(m) << " | " << num(sim) << " | " << err_text(t, e) << " | "
                << tol_text(t) << " | " << (ok ? "yes" : "no") << " |\n";
    });
  std::cout << "\n";
  for (const auto& c : cases)
    std::cout << "- `" << c.s->name << "` (" << c.status() << "): " << c.s->source << ". " << c.s->citation << "\n";
}

int compare(const compare_args& a) {
  if (sweep::launched_ranks() > 1) {
    // Each case is a sweep of its own, and MPI starts once per process.
    std::cerr << "ptsim compare: runs on one machine (-j N); under mpirun, run it without mpirun\n";
    return exit_bad_input;
  }
  const fs::path dir = a.dir.empty() ? default_dir() : fs::path(a.dir);
  if (!fs::is_directory(dir)) {
    std::cerr << "ptsim compare: no validation folder at " << dir.string() << " (give one with --dir)\n";
    return exit_bad_input;
  }
  std::vector<std::string> available;
  for (const auto& e : fs::directory_iterator(dir))
    if (fs::is_regular_file(e.path() / "case.yaml")) available.push_back(e.path().filename().string());
  std::sort(available.begin(), available.end());
  std::vector<std::string> chosen = a.cases.empty() ? available : a.cases;
  for (const auto& c : chosen)
    if (std::find(available.begin(), available.end(), c) == available.end()) {
      std::string list;
      for (const auto& x : available) list += (list.empty() ? "" : ", ") + x;
      std::cerr << "ptsim compare: no case '" << c << "' in " << dir.string() << " (cases: " << list << ")\n";
      return exit_bad_input;
    }
  if (chosen.empty()) {
    std::cerr << "ptsim compare: no case (a folder holding case.yaml) in " << dir.string() << "\n";
    return exit_bad_input;
  }
  // Every case is read and checked before anything runs.
  std::vector<cal::study> studies;
  bool bad = false;
  for (const auto& c : chosen) {
    try {
      studies.push_back(cal::load_study(dir / c / "case.yaml", cal::study_kind::compare_case));
      cal::check_study_conditions(studies.back(), a.quick);
    } catch (const scenarios::scenario_error& e) {
      std::cerr << e.what() << "\n";
      bad = true;
    }
  }
  if (bad) return exit_bad_input;

  // The runs go to a private folder under $TMPDIR (or /tmp), removed when compare ends.
  std::error_code tmp_ec;
  std::string tmpl = (fs::temp_directory_path(tmp_ec) / "ptsim-compare-XXXXXX").string();
  const char* tmp = tmp_ec ? nullptr : mkdtemp(tmpl.data());
  if (!tmp) {
    std::cerr << "ptsim compare: cannot make a folder for the runs in " << tmpl << "\n";
    return exit_failed;
  }
  struct remove_at_exit {
    fs::path p;
    ~remove_at_exit() {
      std::error_code ec;
      fs::remove_all(p, ec);
    }
  } cleanup{tmp};
  cal::batch_options bo;
  bo.cache = tmp;
  bo.jobs = a.jobs;

  std::vector<case_outcome> outcomes;
  int rc = exit_ok;
  for (const auto& s : studies) {
    case_outcome c;
    c.s = &s;
    if (a.quick && !s.quick_rows.empty()) c.rows = s.quick_rows;
    else
      for (const auto& r : s.rows) c.rows.push_back(r.number);
    std::cerr << "ptsim compare: " << s.name << ": " << c.rows.size() << " row(s)\n";
    cal::batch_result b;
    c.out = cal::evaluate_rows(s, c.rows, a.quick ? s.quick_set : std::vector<scenarios::sweep_value>{}, {}, bo, &b);
    if (b.status != 0 && b.status != 1) return b.status;  // interrupted, or the folder refused
    for (const auto& o : c.out) c.ran = c.ran && o.failure.empty();
    each_point(c, [&](const cal::row_outcome&, const cal::target&, double, double, double, bool ok) { c.within = c.within && ok; });
    if (!c.ran || (!c.within && s.expect == cal::expectation::pass)) rc = exit_failed;
    outcomes.push_back(std::move(c));
  }
  if (a.format == "csv") print_csv(outcomes);
  else if (a.format == "json") print_json(outcomes);
  else if (a.format == "markdown") print_markdown(outcomes);
  else print_table(outcomes);
  return rc;
}

}  // namespace

void add_compare(CLI::App& app) {
  auto a = std::make_shared<compare_args>();
  CLI::App* cmd = app.add_subcommand("compare", "Run the validation cases and print model vs measured");
  cmd->footer(
      "Cases are the folders of DIR (default: validation/ of the source tree, or $PTSIM_VALIDATION_DIR) that\n"
      "hold a case.yaml. Exit status: 0 every case within its tolerance or marked `expect: fail`; 1 a case\n"
      "expected to pass is outside its tolerance, or a run failed; 2 bad input (nothing was run).");
  cmd->add_option("cases", a->cases, "Cases to run (default: all)");
  cmd->add_option("--dir", a->dir, "Folder of cases")->type_name("DIR");
  cmd->add_option("--format", a->format, "Output format")->check(CLI::IsMember({"table", "csv", "json", "markdown"}));
  cmd->add_option("-j,--jobs", a->jobs, "Runs at a time (default: the usable cores)")->type_name("N")->check(CLI::Range(1u, 4096u));
  cmd->add_flag("--quick", a->quick, "Each case's quick subset (its quick: rows and set), for CI");
  cmd->callback([a] {
    const int rc = compare(*a);
    if (rc != exit_ok) throw CLI::RuntimeError(rc);
  });
}

}  // namespace ptsim::cosim::cli
