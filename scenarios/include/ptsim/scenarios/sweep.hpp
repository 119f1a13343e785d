#pragma once
// Sweep files: a base scenario plus the dotted paths to vary (a grid product, lists varied
// together, replicate seeds). Loading checks the file's own structure, with line:column;
// expansion gives the runs in a fixed order, each with a stable id derived from its
// parameters alone. Every run is the base scenario with overrides, loaded and validated
// by load_scenario_file like any other scenario.
//
//   base: ../default.yaml            # relative to the sweep file
//   set: { duration: "2 s" }         # fixed overrides, applied to every run
//   grid:                            # cartesian product, first key outermost
//     policy.governor: [performance, powersave]
//     thermal.ambient: ["25 degC", "35 degC"]
//   zip:                             # lists varied together (same length); or a list of such groups
//     policy.thermal.control_temp: ["75 degC", "85 degC"]
//     policy.thermal.governor: [step_wise, power_allocator]
//   replicates: 3                    # seeds base_seed .. base_seed+2 (base_seed: default 1)
//   # or seeds: [1, 7, 42]
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "ptsim/scenarios/scenario.hpp"

namespace YAML {
class Node;
}

namespace ptsim::scenarios {

/// A position in the sweep file (1-based; 0 when unknown).
struct source_pos {
  int line = 0;
  int column = 0;
};

/// One overridden value: a dotted scenario path and the value given for it.
struct sweep_value {
  std::string path;  ///< dotted scenario path, e.g. "thermal.ambient"
  std::string text;  ///< the value as the user reads it ("35 degC"; flow YAML for a mapping or list)
  std::string yaml;  ///< the value as YAML that loads back to the same node (what --set receives)
  source_pos key_at, value_at;
};

/// One run of a sweep.
struct sweep_run {
  std::size_t index = 0;                ///< position in expansion order: the summary's row order
  std::string id;                       ///< stable id, e.g. "performance_25degC-3f09a1c2b4"
  std::vector<sweep_value> values;      ///< one per sweep_spec::parameters entry, in that order
  std::optional<std::uint64_t> seed;    ///< replicate seed (when the sweep is replicated)
};

struct sweep_spec {
  std::string file;                     ///< the sweep file, as named to the loader
  std::string name;                     ///< `name:`, or the file's stem
  std::string base;                     ///< base scenario, resolved against the sweep file's folder
  source_pos base_at;
  std::vector<sweep_value> set;         ///< fixed overrides, applied before each run's own values
  std::vector<std::string> parameters;  ///< varied paths in column order: grid keys, then zip keys
  bool replicated = false;              ///< runs carry seeds: a "seed" column
  std::vector<sweep_run> runs;          ///< in expansion order (runs[i].index == i)
  std::string text;                     ///< the sweep file's text, as read
};

/// True when the YAML text is a mapping with a top-level `base:` key (a sweep, not a scenario).
/// A YAML value in flow style on one line (`{a: 1, b: [2, 3]}`): how a sweep value or a
/// study's condition is written into a --set and into run manifests.
std::string flow_yaml(const YAML::Node& n);

bool is_sweep_text(const std::string& yaml_text);
/// Same for a file; false when it cannot be read or parsed.
bool is_sweep_file(const std::string& path);

/// Parses, checks and expands. Every structural problem is reported at once in one
/// scenario_error (file:line:column, key, expected vs found). The base scenario is not read.
sweep_spec load_sweep_text(const std::string& yaml_text, const std::string& file);
/// Same, from a file; also checks that the base scenario file exists.
sweep_spec load_sweep_file(const std::string& path);

/// The overrides of one run: the sweep's `set`, then the run's values; and its seed.
load_options run_load_options(const sweep_spec& sweep, const sweep_run& run);

/// Loads and validates one run's scenario. A problem with an overridden value is reported
/// at that value's position in the sweep file (an unknown path at its key), not as "--set".
scenario load_sweep_run(const sweep_spec& sweep, const sweep_run& run);

/// Loads every run (load_sweep_run) and returns the distinct problems found, in run order;
/// `invalid_runs` receives how many runs have one.
std::vector<diagnostic> check_sweep_runs(const sweep_spec& sweep, std::size_t* invalid_runs = nullptr);

/// "path=value" lines sorted by path, plus "seed=N" when replicated: what a run id is
/// derived from, so that the id does not depend on the order of keys or of expansion.
std::string canonical_parameters(const sweep_run& run);

/// The id of a run with these values: a readable prefix of the values in path order (at
/// most 40 characters of [A-Za-z0-9.+-], joined by '_') then '-' and 10 hex digits of a
/// hash of canonical_parameters.
std::string make_run_id(const std::vector<sweep_value>& values, std::optional<std::uint64_t> seed);

/// 64-bit FNV-1a of the bytes, as 16 hex digits: stable across machines and builds.
std::string content_hash(const std::string& bytes);

/// Identifies a sweep: the hash of the sweep file's text and the base scenario's text.
/// Throws scenario_error when the base cannot be read.
std::string sweep_identity(const sweep_spec& sweep);

}  // namespace ptsim::scenarios
