#pragma once
// The pieces every part of a study file is read with: a diagnostics collector that knows
// the file, and checked readers of numbers, shares, quantities, row lists and `set` maps.
// Internal to the calibration module (study_load.cpp, study_conditions.cpp).
#include <yaml-cpp/yaml.h>

#include <cstddef>
#include <filesystem>
#include <string>
#include <vector>

#include "ptsim/scenarios/diagnostic.hpp"
#include "ptsim/scenarios/sweep.hpp"
#include "study.hpp"

namespace ptsim::cosim::calibration::reading {

/// Gathers every problem of one file, so that a study reports all of them at once.
struct collector {
  std::string file;
  std::vector<scenarios::diagnostic> diags;
  void report(const where& w, const std::string& path, const std::string& message) {
    diags.push_back({w.file, w.line, w.column, path, message, false});
  }
  void report(const YAML::Node& n, const std::string& path, const std::string& message) {
    report(at(n), path, message);
  }
  where at(const YAML::Node& n) const { return {file, n.Mark().line + 1, n.Mark().column + 1}; }
};

/// How a node reads in a message: 'text', a mapping, a list or nothing.
std::string found(const YAML::Node& n);
/// The file's bytes; std::runtime_error naming the file and the reason when unreadable.
std::string read_file(const fs::path& p);
/// A value for --set from text, read as --set reads it (YAML: a flow list, null, a scalar).
scenarios::sweep_value condition_value(const std::string& path, const std::string& text);
/// A whole finite number ("1e3", " 2 " refused past trailing spaces).
bool parse_number(const std::string& t, double& x);
/// "15 %" or 0.15 (a fraction >= 0).
bool parse_fraction(const std::string& t, double& x);
/// "1.5 GHz" -> 1.5 and "GHz"; "0.55" -> 0.55 and "".
bool split_quantity(const std::string& t, double& x, std::string& unit);
/// A condition column: a dotted path, or a top-level scenario key (duration, seed, ...).
bool looks_like_path(const std::string& column);
/// A list of 1-based row numbers, each within [1, n_rows].
std::vector<std::size_t> row_numbers(const YAML::Node& n, std::size_t n_rows, const std::string& key, collector& c);
/// A mapping of dotted paths to values (as --set takes them), with each value's place.
void read_set(const YAML::Node& n, const std::string& key, collector& c, std::vector<scenarios::sweep_value>& out,
              std::vector<where>& out_at);

}  // namespace ptsim::cosim::calibration::reading
