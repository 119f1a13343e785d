#pragma once
// A resolved scenario: plain structs in SI units, validated, defaults applied.
#include <cstdint>
#include <functional>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "ptsim/scenarios/diagnostic.hpp"
#include "ptsim/power/component_power_model.hpp"
#include "ptsim/power/compute_power.hpp"
#include "ptsim/power/idle_states.hpp"
#include "ptsim/power/supply_power.hpp"
#include "ptsim/power/memory_power.hpp"
#include "ptsim/power/policy_config.hpp"
#include "ptsim/thermal/thermal_config.hpp"
#include "ptsim/tlm_config/platform_config.hpp"
#include "ptsim/units/quantities.hpp"

namespace ptsim::scenarios {

/// Power parameters of one component, by name.
struct component_power {
  std::string component;
  /// compute and memory: the built-in models, from the parameters below; custom: a
  /// kind's own model, built by make_custom.
  enum class model { compute, memory, custom } kind = model::compute;
  power::compute_power_params compute;
  power::memory_power_params memory;
  std::vector<power::idle_state> idle_states;  ///< compute: shallow to deep
  double idle_latency_limit_s = 0;             ///< compute: PM QoS limit on exit latency (inf: none)
  std::function<std::unique_ptr<power::component_power_model>()> make_custom;
  /// A fresh model (models keep state, such as a memory's idle timer: one per run).
  std::unique_ptr<power::component_power_model> make_model() const;
};

/// One component of the platform as resolved, in the order of the scenario file: where
/// its parts are, so that nothing downstream joins them by name.
struct component_ref {
  static constexpr std::size_t none = std::numeric_limits<std::size_t>::max();
  std::string name, kind;
  tlm_config::component_role role = tlm_config::component_role::compute;
  std::size_t index = 0;     ///< in platform.units, .interconnects or .memories, by role
  std::size_t power = 0;     ///< in scenario::power
  std::size_t domain = none; ///< in scenario::domains (none: not in a DVFS domain)
  std::size_t block = 0;     ///< the floorplan block its heat goes to (thermal.power_map)
};

/// Bounds on a run's cost (the `limits` section), checked before it starts.
struct run_limits {
  double max_arrivals = 1e8;
  std::optional<double> max_file_bytes;    ///< none: the free disk space where the result goes
  std::optional<double> max_memory_bytes;  ///< none: the machine's physical memory
};

struct scenario {
  std::string name;
  std::string source;  ///< file it came from ("<built-in default>" for the compiled-in one)
  units::seconds_t duration = units::seconds(1.0);
  units::seconds_t control_period = units::seconds(1e-3);
  units::seconds_t record_period = units::seconds(10e-3);
  /// Start of the measurement window (`measure.from`): the summary covers [from, duration].
  units::seconds_t measure_from = units::seconds(0.0);
  std::uint64_t seed = 1;
  tlm_config::platform_config platform;
  tlm_config::workload_config workload;
  std::vector<power::dvfs_domain_config> domains;
  std::vector<component_power> power;
  /// Every component, in the file's order (which is also the order of `power`).
  std::vector<component_ref> components;
  power::supply_params supply;  ///< VR and PSU between the wall and the components
  /// platform.base_power: what the platform does not list as components (a server's
  /// management controller, board logic, the fans' floor), constant, through the supply.
  double base_power_W = 0;
  thermal::thermal_config thermal;
  power::policy_config policy;
  run_limits limits;
  /// Memory DVFS: the memory domain paired with domain d (a GPU's domain and its HBM's
  /// clock), component_ref::none when there is none. It is the domain of the memory that
  /// every unit of d sends its memory traffic to: the unit's `connect`, followed through
  /// interconnects with a single downstream component (a phone cluster's noc to its LPDDR);
  /// units of d that disagree, or reach no clocked memory, pair with none.
  std::size_t memory_domain_of(std::size_t d) const;
  std::string resolved_yaml;  ///< the scenario after overrides, as YAML: enough to rerun it
  /// Accepted but unusual values (outside a key's plausible range), and what the loader
  /// noticed could not work as asked (a power cap below the platform's floor): printed
  /// to stderr by `run` and `validate`, with their position.
  std::vector<diagnostic> warnings;
};

/// A command-line override "dotted.path=value" (value read as a YAML scalar).
struct override_kv {
  std::string path;
  std::string value;
};
/// Parses "KEY=VALUE"; throws scenario_error when there is no '='.
override_kv parse_override(const std::string& arg);

struct load_options {
  std::vector<override_kv> overrides;
  std::optional<std::uint64_t> seed;
  /// Fill scenario::resolved_yaml (emitting YAML costs about as much as parsing it;
  /// `ptsim validate` does without).
  bool emit_resolved_yaml = true;
};

/// Loads, overrides, validates and resolves. Every problem found is reported at once
/// in one scenario_error (file:line:column, key path, expected vs found).
scenario load_scenario_file(const std::string& path, const load_options& opts = {});
/// Same, from text; `origin` names it in messages.
scenario load_scenario_text(const std::string& yaml_text, const std::string& origin, const load_options& opts = {});

/// Why `name` (a scenario's or a sweep's) cannot become part of a file name: empty, "." or
/// "..", a '/' or '\\', a control character, more than 200 bytes. nullopt when it can.
std::optional<std::string> file_name_problem(const std::string& name);

/// The compiled-in copy of scenarios/default.yaml.
const std::string& builtin_default_scenario();

}  // namespace ptsim::scenarios
