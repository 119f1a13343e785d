#pragma once
// A component kind describes itself: its name, its role in the platform, the keys a
// scenario gives it (schema) and how they become resolved structs and a power model
// (resolve). One descriptor per kind, in the kind's own file under kinds/; registry.cpp
// lists them all (one line per kind). On the TLM side a kind runs on its role's
// sc_module (compute_unit, interconnect or memory), its resolved config carrying the
// traits that module and the topology read, unless it registers a module of its own
// (tlm/include/ptsim/tlm_models/module_registry.hpp).
#include <cstdlib>
#include <functional>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

#include "../resolve.hpp"
#include "ptsim/scenarios/schema.hpp"

namespace ptsim::scenarios::detail {

struct component_kind {
  std::string name;
  tlm_config::component_role role;
  /// Its keys (each kind's object includes "kind").
  std::function<schema_ptr()> schema;
  /// Adds the component named `name` from its validated keys `c`: exactly one entry to
  /// the platform list of its role (units, interconnects, memories) and one to sc.power.
  /// `domains` is platform.domains, for the keys a unit takes from its DVFS domain.
  std::function<void(const std::string& name, const view& c, const view& domains, scenario& sc)> resolve;
  /// Its DVFS domain is a devfreq device's (a mobile GPU): the domain's governor defaults to
  /// policy.devfreq_governor.
  bool devfreq = false;
};

/// Every kind, in registration order (registry.cpp).
const std::vector<component_kind>& component_kinds();
/// The kind of that name; nullptr when there is none.
const component_kind* find_component_kind(const std::string& name);

// Shared by the kinds' files.
schema_ptr leakage_schema();
schema_ptr idle_state_schema();
schema_ptr per_precision_schema(const std::string& what);
std::map<tlm_config::precision, double> per_precision(const view& m);
/// A map of numbers keyed by names `parse` turns into keys (precisions, operator kinds); the
/// schema has checked each value, a name `parse` refuses (std::invalid_argument) fails at it.
template <class Key, class Parse>
std::map<Key, double> parsed_number_map(const view& m, Parse parse) {
  std::map<Key, double> out;
  for (const auto& [k, v] : m.entries()) {
    try {
      out[parse(k)] = std::strtod(v.scalar().c_str(), nullptr);
    } catch (const std::invalid_argument& e) {
      v.fail(e.what());
    }
  }
  return out;
}
power::leakage_params resolve_leakage(const view& v);
/// A memory-model power row (DRAM, link, device) for component `name`.
void add_memory_power(scenario& sc, const std::string& name, double background_W, double read_J, double write_J);

// What the compute kinds (compute_units.cpp, mobile_gpu.cpp) share: one sc_module
// (tlm_models::compute_unit) and one power model (C V^2 f a, leakage, idle states).
/// Defaults that differ between compute kinds.
struct compute_defaults {
  const char* launch_overhead;
  const char* tile;
  const char* efficiency;
  const char* vector_efficiency;
};
/// The keys every compute kind has, around its `own` (after domain, connect, fabric, io).
std::vector<field> compute_fields(const compute_defaults& d, std::vector<field> own);
/// Where the kinds of compute unit differ in their keys.
struct compute_keys {
  const char* cores;     // cores, engines, SMs or shader cores
  const char* table;     // the tensor/MAC peak per core
  const char* vector;    // the vector peak per core ("": none)
  const char* onchip;    // on-chip memory keeping activations ("": none)
  bool direct_memory;    // may connect straight to its memory
  const char* l2_rate;   // the L2's bytes per core clock ("": no such key)
  const char* capacity;  // the scheduler's capacity per MHz ("": no such key)
  const char* tiling;    // GEMM time from tiles and waves ("": no such key)
};
/// Adds compute unit `name` of kind `kind` and its compute power row.
void resolve_compute(const std::string& name, const std::string& kind, const compute_keys& keys, const view& c,
                     const view& domains, scenario& sc);

}  // namespace ptsim::scenarios::detail
