#pragma once
// A study: a scenario run under the conditions of a table of measurements, and the report
// metrics compared with the measured columns. One file format serves both `ptsim compare`
// (validation/<case>/case.yaml) and `ptsim calibrate` (CALIB.yaml); each reads the keys it
// needs and refuses the others. Everything is checked, with file:line:column, before any
// run starts (check_study_conditions loads the scenario under every row's conditions).
//
//   scenario: ../../scenarios/server-llm-serving.yaml   # relative to this file
//   set: { duration: "10 s" }                          # conditions every row shares
//   measurements: measurements.csv                     # '#' lines: the source; columns:
//                                                      #   targets (below); dotted paths and
//                                                      #   top-level keys = conditions (--set);
//                                                      #   others (labels) ignored
//   targets:
//     tokens_per_s: { metric: throughput, tolerance: "15 %" }
//     median_itl_ms: { metric: itl_p50_s, scale: 0.001, weight: 1, error: relative }
//     time_ratio: { metric: latency_p50_s, ratio_to_row: 1 }   # a ratio to row 1's value
#include <cstddef>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "ptsim/scenarios/diagnostic.hpp"
#include "ptsim/scenarios/sweep.hpp"
#include "target_metric.hpp"

namespace ptsim::cosim::calibration {

namespace fs = std::filesystem;

/// One cell or key's place in a file.
struct where {
  std::string file;
  int line = 0, column = 0;
};

/// A measurement table as read: comment lines, header, rows of cells with their places.
struct measurement_table {
  std::string file;
  std::string text;                      ///< the file's bytes (its hash is the provenance)
  std::vector<std::string> comments;     ///< the '#' lines, '#' and one space removed
  std::vector<std::string> columns;
  std::vector<where> column_at;
  std::vector<std::vector<std::string>> cells;  ///< [row][column]
  std::vector<std::vector<where>> cell_at;
};

/// Parses CSV text ('#' comment lines anywhere, a header, then rows; fields may be quoted
/// with "..."). Throws scenario_error at the line:column of a malformed line.
measurement_table parse_measurement_table(const std::string& text, const std::string& file);

struct target {
  std::string column;           ///< the measured column
  where at;                     ///< the target's key in the study file
  metric_expr metric;
  double scale = 1;             ///< measured value x scale = the metric's units
  double weight = 1;
  bool relative = true;         ///< error = model/measured - 1; else model - measured (metric units)
  std::optional<double> tolerance;  ///< bound on |error| (a fraction when relative)
  /// Published ratios (a time or power relative to a baseline condition): the measured
  /// column is the metric's ratio to its value in this data row (1-based), and so is the
  /// simulated one. 0: the metric's own value. The row itself carries no error.
  std::size_t ratio_to_row = 0;
  /// The measured column is a rate whose simulated counterpart is a time (tokens/s of a
  /// static batch against its latency): the model's value is 1 / metric, so the tolerance
  /// bounds the rate as published. Applied before ratio_to_row.
  bool reciprocal = false;
  /// What is compared: the metric's text, or "1/" before it (reciprocal).
  std::string quantity() const;
  /// The compared values' units: the metric's (1/ them, reciprocal), or "ratio to row N".
  std::string units() const;
};

/// One measured row: its conditions (dotted path = value, as --set takes them) and values.
struct study_row {
  std::size_t number = 0;                       ///< 1-based among the table's data rows
  std::vector<scenarios::sweep_value> conditions;
  std::vector<where> condition_at;              ///< parallel to conditions
  std::vector<std::optional<double>> measured;  ///< per target (in the metric's units); empty cell: none
};

/// A fitted parameter (calibrate).
struct parameter {
  std::string path;                 ///< as written: may hold {a..b} ranges
  std::vector<std::string> paths;   ///< expanded
  where at;
  double lo = 0, hi = 0, start = 0;
  std::string unit;                 ///< text after the number in the bounds ("" for plain numbers)
  where lo_at, hi_at, start_at;
  /// The value as the scenario reads it, e.g. "1.5 GHz".
  std::string value_text(double x) const;
};

enum class expectation { pass, fail };

struct study {
  std::string file;            ///< the study file
  std::string name;
  std::string scenario;        ///< absolute path of the base scenario
  where scenario_at;
  std::vector<scenarios::sweep_value> set;  ///< the shared conditions
  std::vector<where> set_at;
  measurement_table table;
  std::vector<target> targets;
  std::vector<study_row> rows;
  std::vector<std::string> condition_columns;  ///< dotted-path columns, in the table's order
  // compare
  std::string source, citation;
  expectation expect = expectation::pass;
  std::vector<std::size_t> quick_rows;         ///< row numbers of the quick subset (empty: all)
  std::vector<scenarios::sweep_value> quick_set;
  std::vector<where> quick_set_at;
  // calibrate
  std::vector<parameter> parameters;
  where parameters_at;
  std::vector<std::size_t> holdout_rows;       ///< row numbers left out of the fit
  unsigned global_evals = 0, local_evals = 0;  ///< optimiser budget (0: the default)
  std::string local_algorithm = "bobyqa";
};

enum class study_kind { compare_case, calibration };

/// Reads and checks a study file (its own structure, the table, the targets, the
/// parameters' shape). Throws scenario_error with every problem found.
study load_study(const fs::path& file, study_kind kind);

/// Loads the scenario under the shared conditions and every row's (and, for a calibration,
/// every parameter at its start and both bounds); a problem is reported at the cell, key or
/// bound that caused it. Also checks that the components named by power targets exist.
/// Throws scenario_error.
void check_study_conditions(const study& s, bool quick);

/// "a.b{0..2}.c" -> a.b0.c, a.b1.c, a.b2.c; "a.{x,y}" -> a.x, a.y (a list of names: one
/// parameter for keys that must share a value, a memory's read and write energy); several
/// braces: every combination. Throws std::invalid_argument for malformed braces.
std::vector<std::string> expand_ranges(const std::string& text);

/// The shortest decimal text that reads back as x.
std::string number_text(double x);

}  // namespace ptsim::cosim::calibration
