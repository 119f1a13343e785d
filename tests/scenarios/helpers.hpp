#pragma once
// Shared helpers for the scenario tests: the default scenario's text, exact text edits
// (so that line numbers stay computable), and collecting the diagnostics of a failed load.
#include <doctest/doctest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>
#include <string>
#include <vector>

#include "ptsim/scenarios/diagnostic.hpp"
#include "ptsim/scenarios/scenario.hpp"

namespace scen_test {

namespace ps = ptsim::scenarios;

/// A scratch folder for scenario files (removed at the end of the test); `tag` names it.
struct temp_dir {
  std::filesystem::path dir;
  explicit temp_dir(const std::string& tag)
      : dir(std::filesystem::temp_directory_path() / ("ptsim-" + tag + "-" + std::to_string(::getpid()))) {
    std::filesystem::create_directories(dir);
  }
  ~temp_dir() { std::filesystem::remove_all(dir); }
  temp_dir(const temp_dir&) = delete;
  temp_dir& operator=(const temp_dir&) = delete;
  std::filesystem::path write(const std::string& name, const std::string& text) const {
    std::filesystem::create_directories((dir / name).parent_path());
    std::ofstream(dir / name) << text;
    return dir / name;
  }
};

inline std::string default_path() { return PTSIM_SOURCE_DIR "/scenarios/default.yaml"; }

inline std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  REQUIRE_MESSAGE(in.good(), "cannot open " << path);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

inline const std::string& default_text() {
  static const std::string t = read_file(default_path());
  return t;
}

inline std::size_t count_of(const std::string& text, const std::string& needle) {
  std::size_t n = 0;
  for (auto p = text.find(needle); p != std::string::npos; p = text.find(needle, p + 1)) ++n;
  return n;
}

/// Replaces `from` (which must occur exactly once) by `to`.
inline std::string replace_once(std::string text, const std::string& from, const std::string& to) {
  REQUIRE_MESSAGE(count_of(text, from) == 1, "'" << from << "' must occur exactly once");
  text.replace(text.find(from), from.size(), to);
  return text;
}

/// 1-based line and column of the first occurrence of `needle` (which must occur once).
struct position {
  int line = 0;
  int column = 0;
};
inline position position_of(const std::string& text, const std::string& needle) {
  REQUIRE_MESSAGE(count_of(text, needle) == 1, "'" << needle << "' must occur exactly once");
  const std::size_t at = text.find(needle);
  position p;
  p.line = 1;
  std::size_t line_start = 0;
  for (std::size_t i = 0; i < at; ++i)
    if (text[i] == '\n') ++p.line, line_start = i + 1;
  p.column = static_cast<int>(at - line_start) + 1;
  return p;
}

/// Runs `f`, which must throw scenario_error, and returns its diagnostics.
inline std::vector<ps::diagnostic> diagnostics_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const ps::scenario_error& e) {
    return e.diagnostics();
  }
  FAIL("expected a scenario_error, but the load succeeded");
  return {};
}

inline std::vector<ps::diagnostic> load_errors(const std::string& text, const ps::load_options& opts = {}) {
  return diagnostics_of([&] { ps::load_scenario_text(text, "test.yaml", opts); });
}

/// The one diagnostic whose path is `path` (fails when there is none or several).
inline ps::diagnostic only_at(const std::vector<ps::diagnostic>& ds, const std::string& path) {
  std::vector<ps::diagnostic> hits;
  for (const auto& d : ds)
    if (d.path == path) hits.push_back(d);
  std::string all;
  for (const auto& d : ds) all += d.to_string() + "\n";
  REQUIRE_MESSAGE(hits.size() == 1, "expected one diagnostic at '" << path << "', got " << hits.size() << ":\n" << all);
  return hits.front();
}

inline bool contains(const std::string& hay, const std::string& needle) { return hay.find(needle) != std::string::npos; }

inline ps::load_options with_sets(std::initializer_list<const char*> sets) {
  ps::load_options o;
  for (const char* s : sets) o.overrides.push_back(ps::parse_override(s));
  return o;
}

/// The power row of component `name` (fails the test when there is none).
inline const ps::component_power& power_of(const ps::scenario& sc, const std::string& name) {
  for (const auto& c : sc.power)
    if (c.component == name) return c;
  FAIL("no power row for " << name);
  return sc.power.front();
}

/// The index of DVFS domain `name` (fails the test when there is none).
inline std::size_t domain_named(const ps::scenario& sc, const std::string& name) {
  for (std::size_t d = 0; d < sc.domains.size(); ++d)
    if (sc.domains[d].name == name) return d;
  FAIL("no domain " << name);
  return 0;
}

}  // namespace scen_test
