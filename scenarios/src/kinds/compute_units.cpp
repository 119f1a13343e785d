// Compute units: CPU clusters, NPUs, GPUs. One sc_module (tlm_models::compute_unit), one
// power model (C V^2 f a, leakage, idle states); the kinds differ in keys and defaults.
#include "component_kind.hpp"

#include <algorithm>
#include <limits>
#include <map>

#include "../resolve_sections.hpp"
#include "ptsim/power/compute_power.hpp"
#include "ptsim/power/energy_model.hpp"
#include "ptsim/power/idle_states.hpp"
#include "ptsim/tlm_config/fusion.hpp"
#include "ptsim/tlm_config/gemm_tiling.hpp"
#include "ptsim/tlm_config/names.hpp"
#include "ptsim/tlm_config/op.hpp"
#include "ptsim/tlm_config/op_profile.hpp"

namespace ptsim::scenarios::detail {
namespace {

schema_ptr profile_schema() {
  return object(
      "measured operator times that replace the roofline for the operators they hold (README, \"Operators and their "
      "time\"); the others keep the roofline",
      {req("file", str("CSV of measured kernels, relative to the scenario: ptsim's form (kind, precision, m, n, k, "
                       "time_us, ...) or a Vidur MLP profile (time_stats.* columns)")),
       req("clock", quantity(dims::frequency(), "the unit's clock when the table was measured (rows may give their "
                             "own clock_mhz)")),
       opt("precision", enumeration({"fp32", "fp16", "bf16", "fp8", "int8"},
                                    "precision of rows that give none (Vidur files give none)", "bf16")),
       opt("compute_fraction",
           number("share of a table time that scales with the clock (the rest is memory time), for rows without "
                  "their own (default: the roofline's arithmetic time at the table's clock over the table time)",
                  std::nullopt, 0.0, 1.0))});
}

std::string default_tiles_text() {
  std::string s;
  for (const auto& t : tlm_config::default_gemm_tiles()) s += (s.empty() ? "" : ", ") + tlm_config::to_string(t);
  return s;
}

schema_ptr gemm_tiling_schema() {
  return object(
      "a GEMM's arithmetic time from its shape (README, \"Operators and their time\"): output tiles in waves of "
      "the SMs, split-K, the fastest of the tile shapes; absent: its operations at op_efficiency's share of peak",
      {opt("tiles", list_of(str("ROWSxCOLUMNS, e.g. 128x256"), "output tile shapes to choose among (default: " +
                                                                   default_tiles_text() + ")")),
       req("operand_bytes_per_cycle",
           ranged(number("operand bytes the L2 and shared memory feed one SM per cycle: a tile's K step takes the "
                         "longer of its arithmetic and (rows + columns) x element bytes over this"),
                  1e-9, std::nullopt, 4.0, 4096.0,
                  "the XLA H100 fit gives 50.9; below a few bytes a cycle a GEMM would take seconds")),
       opt("wave_cycles", ranged(number("cycles a tile takes besides its K loop, once per wave (its first operand "
                                        "stages loaded, its output written)",
                                        "0"),
                                 0.0, std::nullopt, std::nullopt, 1e6,
                                 "the XLA H100 fit gives 2755; a million cycles is ~0.5 ms a wave")),
       opt("max_split_k", integer("largest split of the reduction dimension (powers of two up to it)", "16", 1, 1024)),
       opt("min_split_depth", number("a split's share of K is at least this", "256", 1.0))});
}

}  // namespace

std::vector<field> compute_fields(const compute_defaults& d, std::vector<field> own) {
  std::vector<field> f = {
      req("kind", str("component kind")),
      req("domain", str("DVFS domain (a key of platform.domains) that clocks this unit")),
      req("connect", str("first hop of its memory traffic: an interconnect (noc) or a memory")),
      opt("fabric", str("first hop of its collectives: a link (nvlink, pcie) or switch ending in a terminal")),
      opt("io", list_of(str("interconnect or target"), "first hops towards io targets (storage, NICs, host memory)")),
  };
  f.insert(f.end(), own.begin(), own.end());
  std::vector<field> rest = {
      opt("efficiency", share("share of peak reached by tensor operators (GEMM, convolution, attention)",
                              d.efficiency)),
      opt("vector_efficiency", share("share of peak reached by vector/elementwise operators", d.vector_efficiency)),
      opt("op_efficiency", map_of(share("share of peak"),
                                  "share of peak per operator kind (" + tlm_config::op_kind_names() +
                                      "), overriding efficiency and vector_efficiency; "
                                  "KIND_PRECISION (e.g. gemm_fp8) for that kind at one precision only, "
                                  "KIND_RULES (e.g. conv_eager) for it under one fusion rule set")),
      opt("backward_efficiency",
          map_of(share("share of the forward kernel's efficiency"),
                 "per operator kind, the share of its forward kernel's efficiency (op_efficiency) that a training "
                 "step's backward kernel (input and weight gradients) reaches (default 1); KIND_PRECISION (e.g. "
                 "conv_fp32) for that kind at one precision only")),
      opt("memory_efficiency",
          map_of(share("share of the memory's reachable bandwidth"),
                 "share of the memory's reachable bandwidth per operator kind (e.g. attention: paged KV-cache "
                 "reads); the memory is held for bytes / share, its energy counts the bytes (default 1)")),
      opt("fusion", enumeration(tlm_config::fusion_rule_names(),
                                "operator fusion rule set its graphs run as (eager: attention fused, every other "
                                "operator one kernel; none: attention too as three kernels; tensorrt: conv/GEMM "
                                "epilogues take the elementwise operators after them)",
                                "eager")),
      opt("overlap", map_of(number("share of the shorter time hidden under the longer", std::nullopt, 0.0, 1.0),
                            "per operator kind, the share of the shorter of its arithmetic and memory times (per "
                            "tile) hidden under the longer: 1 (the default) is the roofline, the longer alone; 0 "
                            "the sum of both. Below 1, kernels near the ridge point (decode GEMMs of a few hundred "
                            "rows) take longer than either bound")),
      opt("op_activity",
          map_of(share("activity relative to c_eff's", std::nullopt, power::max_op_activity),
                 "per operator kind (or kind at one precision, e.g. conv_fp32, which wins, then kind under one fusion "
                 "rule set, e.g. gemm_tensorrt), the switching activity "
                 "of its kernels while computing, relative to the work the unit's c_eff describes (default 1): "
                 "kernels of different kinds draw different power at the same clock and busy time, below 1 less "
                 "(a share of c_eff), above 1 more (at most twice)")),
      opt("launch_overhead", quantity(dims::time(), "fixed cost per operator (kernel launch)", d.launch_overhead, 0.0,
                                      false)),
      opt("host_issue",
          quantity(dims::time(), "host CPU time to issue each kernel in an eager framework (Python dispatch and the "
                   "launch call), pipelined with the unit: a kernel starts no earlier than issued, so the cost "
                   "hides under longer kernels and starves the unit on shorter ones (small batches)", "0 s", 0.0,
                   false)),
      opt("collective_latency",
          quantity(dims::time(), "fixed latency of each collective call beyond its ring steps (the library's "
                   "set-up and synchronisation: NCCL's cost model charges a base latency per call)", "0 s", 0.0,
                   false)),
      opt("tile", ranged(quantity(dims::bytes(), "memory transaction size: how finely units sharing a memory "
                                  "interleave (an operator's tiles stream back to back; large for GPUs: the "
                                  "kernel is not the bottleneck)", d.tile),
                         1.0, 2147483648.0, 64.0, std::nullopt,
                         "a transaction is at least a byte and at most 2 GiB, TLM's 32-bit data length")),
      opt("idle_states", list_of(idle_state_schema(), "idle states, shallow to deep (Linux cpuidle); when the unit "
                                 "goes idle a menu-like governor picks the deepest whose target residency fits the "
                                 "predicted idle period")),
      opt("idle_latency_limit", quantity(dims::time(), "longest exit latency allowed (PM QoS; default: none)",
                                         std::nullopt, 0.0, false)),
      opt("idle_exit_latency", quantity(dims::time(), "shorthand for one idle state (leakage kept, entry 0) with this "
                                        "exit latency and target residency idle_residency", std::nullopt, 0.0, false)),
      opt("idle_residency", quantity(dims::time(), "target residency of the idle_exit_latency shorthand", "0 s", 0.0,
                                     false)),
      opt("c_eff", quantity(dims::capacitance(), "switched capacitance of the whole unit (P = C V^2 f a)")),
      opt("stall_activity", number("activity while stalled on memory", "0.3", 0.0, 1.0)),
      opt("leakage", leakage_schema()),
      opt("profile", profile_schema()),
  };
  f.insert(f.end(), rest.begin(), rest.end());
  return f;
}

namespace {

schema_ptr cpu_cluster_schema() {
  return object("CPU cluster: cores sharing one DVFS domain (per-core DVFS: one single-core cluster per domain)",
                compute_fields({"5 us", "256 KiB", "0.7", "0.25"},
                               {opt("cores", integer("cores sharing the work", "1", 1)),
                                req("ops_per_cycle", per_precision_schema("SIMD operations per cycle per core (FMA = 2)")),
                                opt("capacity-dmips-mhz",
                                    number("the device tree's capacity-dmips-mhz of its CPUs: with the top frequency, "
                                           "the scheduler's capacity (normalised to 1024 at the biggest CPU)",
                                           "1024", 1.0))}));
}

schema_ptr npu_schema() {
  return object("NPU: MAC arrays with a vector unit and on-chip SRAM, in their own DVFS domain",
                compute_fields({"5 us", "256 KiB", "0.7", "0.25"},
                               {opt("cores", integer("engines sharing the work", "1", 1)),
                                req("ops_per_cycle", per_precision_schema("MAC-array operations per cycle per engine (MAC = 2)")),
                                opt("vector_ops_per_cycle", per_precision_schema("vector-unit operations per cycle per engine")),
                                opt("sram", quantity(dims::bytes(), "on-chip SRAM holding activations between "
                                                     "operators (0: none)", "0 B", 0.0, false))}));
}

schema_ptr gpu_schema() {
  return object("GPU: streaming multiprocessors with tensor cores, in their own DVFS domain",
                compute_fields({"4 us", "64 MiB", "0.7", "0.5"},
                               {req("sms", integer("streaming multiprocessors", std::nullopt, 1)),
                                req("tensor_ops_per_cycle", per_precision_schema("dense tensor-core operations per cycle per SM")),
                                req("vector_ops_per_cycle", per_precision_schema("CUDA-core operations per cycle per SM")),
                                opt("l2_cache", quantity(dims::bytes(), "L2 holding activations between operators "
                                                         "(0: none)", "0 B", 0.0, false)),
                                opt("l2_bytes_per_cycle",
                                    number("bytes the L2 moves per core clock cycle, the whole chip: the DRAM traffic "
                                           "is at most that times the clock (0: no limit)",
                                           "0", 0.0)),
                                opt("gemm_tiling", gemm_tiling_schema())}));
}

// Idle states: the list, or the one-state shorthand idle_exit_latency/idle_residency.
void resolve_idle_states(const view& c, tlm_config::compute_unit_config& u, component_power& cp) {
  cp.idle_latency_limit_s = c.has("idle_latency_limit") ? c.si("idle_latency_limit")
                                                        : std::numeric_limits<double>::infinity();
  if (c.has("idle_exit_latency") && c.has("idle_states")) {
    c.fail("give idle_states or the idle_exit_latency shorthand, not both", "idle_exit_latency");
    return;
  }
  if (!c.has("idle_exit_latency") && c.has("idle_residency")) {
    c.fail("idle_residency goes with idle_exit_latency (or give idle_states)", "idle_residency");
    return;
  }
  if (c.has("idle_exit_latency")) {
    power::idle_state s;
    s.name = "idle";
    s.leakage_fraction = 1.0;
    s.exit_latency_s = c.si("idle_exit_latency");
    s.target_residency_s = c.si("idle_residency");
    cp.idle_states.push_back(s);
  }
  const auto items = c.at("idle_states").items();
  bool ok = true;
  for (const auto& it : items) {
    power::idle_state s;
    s.name = it.str("name");
    if (it.has("power") == it.has("leakage_fraction")) {
      it.fail("give the state's power or its leakage_fraction (one of them)", it.has("power") ? "leakage_fraction" : "");
      ok = false;
      continue;
    }
    if (it.has("power")) s.power_W = it.si("power");
    else s.leakage_fraction = it.num("leakage_fraction");
    s.entry_latency_s = it.si("entry_latency");
    s.exit_latency_s = it.si("exit_latency");
    s.target_residency_s = it.si("target_residency");
    cp.idle_states.push_back(s);
  }
  if (!ok) return;
  try {
    power::validate_idle_states(cp.idle_states);
  } catch (const std::invalid_argument& e) {
    c.fail(std::string("bad idle states: ") + e.what(), "idle_states");
    return;
  }
  for (const auto& s : cp.idle_states) u.idle_states.push_back({s.name, s.entry_latency_s, s.exit_latency_s});
}

// The unit's measured profile, read now so that a bad file stops the scenario before any
// run (its error names the CSV's line and column, through the key `file`).
std::shared_ptr<const tlm_config::op_profile> resolve_profile(const view& p, const scenario& sc) {
  tlm_config::profile_defaults d;
  d.clock_hz = p.si("clock");
  d.prec = tlm_config::parse_precision(p.str("precision"));
  if (p.has("compute_fraction")) d.compute_fraction = p.num("compute_fraction");
  try {
    return std::make_shared<const tlm_config::op_profile>(tlm_config::read_op_profile(relative_to_writer(sc, p, "file"), d));
  } catch (const tlm_config::profile_error& e) {
    p.fail(e.what(), "file");
    return nullptr;
  }
}

// A key of a per-kind map that may qualify its kind (op_efficiency's `gemm_fp8`, `conv_eager`;
// backward_efficiency's `conv_fp32`): the kind and the qualifier after it ("" for a kind alone).
// The qualifier follows the last underscore, as kind names have underscores of their own
// (per_head_attention_fp32). Throws std::invalid_argument when no kind starts the key.
std::pair<tlm_config::op_kind, std::string> kind_and_suffix(const std::string& key) {
  try {
    return {tlm_config::parse_op_kind(key), ""};
  } catch (const std::invalid_argument&) {
  }
  const auto cut = key.rfind('_');
  if (cut == std::string::npos) throw std::invalid_argument("no operator kind in '" + key + "'");
  return {tlm_config::parse_op_kind(key.substr(0, cut)), key.substr(cut + 1)};
}

// A map of per-operator-kind values (memory_efficiency, overlap).
std::map<tlm_config::op_kind, double> per_op_kind(const view& m) {
  return parsed_number_map<tlm_config::op_kind>(m, tlm_config::parse_op_kind);
}

// A map of values per operator kind, per kind at one precision (`gemm_fp8`, which wins) and,
// where `per_rules` is given, per kind under one fusion rule set (`conv_eager`):
// op_efficiency and op_activity take all three, backward_efficiency no rule sets.
void read_kind_suffix_map(const view& m, const std::string& key, const std::string& kinds,
                          const std::string& precisions, std::map<tlm_config::op_kind, double>& per_kind,
                          std::map<std::pair<tlm_config::op_kind, tlm_config::precision>, double>& per_precision,
                          std::map<std::pair<tlm_config::op_kind, tlm_config::fusion_rules>, double>* per_rules,
                          const std::string& precision_example) {
  const auto& rules = tlm_config::fusion_rule_names();
  for (const auto& [k, v] : m.entries()) {
    const double x = std::strtod(v.scalar().c_str(), nullptr);
    try {
      const auto [kind, suffix] = kind_and_suffix(k);
      if (suffix.empty())
        per_kind[kind] = x;
      else if (per_rules && std::find(rules.begin(), rules.end(), suffix) != rules.end())
        (*per_rules)[{kind, tlm_config::parse_fusion_rules(suffix)}] = x;
      else
        per_precision[{kind, tlm_config::parse_precision(suffix)}] = x;
    } catch (const std::invalid_argument&) {
      if (!per_rules)
        v.fail(key + ": expected " + kinds + " or one with a precision " + precisions + " such as " +
               precision_example + ", found '" + k + "'");
      else
        v.fail(key + ": expected " + kinds + ", one with a precision " + precisions + " such as " +
               precision_example + ", or one with a fusion rule set (" + tlm_config::join_names(rules) +
               ") such as conv_eager, found '" + k + "'");
    }
  }
}

tlm_config::gemm_tiling resolve_gemm_tiling(const view& g) {
  tlm_config::gemm_tiling t;
  if (!g.has("tiles")) {
    t.tiles = tlm_config::default_gemm_tiles();
  } else {
    const auto items = g.at("tiles").items();
    if (items.empty()) g.fail("give at least one tile shape (or leave the key out for the default set)", "tiles");
    for (const auto& item : items) {
      try {
        t.tiles.push_back(tlm_config::parse_gemm_tile(item.scalar()));
      } catch (const std::invalid_argument& e) {
        item.fail(e.what());
      }
    }
  }
  t.operand_bytes_per_cycle = g.num("operand_bytes_per_cycle");
  t.wave_cycles = g.num("wave_cycles");
  t.max_split_k = static_cast<int>(g.integer("max_split_k"));
  t.min_split_depth = g.num("min_split_depth");
  return t;
}

}  // namespace

void resolve_compute(const std::string& name, const std::string& kind, const compute_keys& keys, const view& c,
                     const view& domains, scenario& sc) {
  tlm_config::compute_unit_config u;
  u.name = name;
  u.kind = kind;
  u.domain = c.str("domain");
  u.connect = c.str("connect");
  if (c.has("fabric")) u.fabric = c.str("fabric");
  for (const auto& h : c.at("io").items()) u.io.push_back(h.scalar());
  u.direct_memory = keys.direct_memory;
  u.cores = static_cast<int>(c.integer(keys.cores));
  u.ops_per_cycle = per_precision(c.at(keys.table));
  if (*keys.vector) u.vector_ops_per_cycle = per_precision(c.at(keys.vector));
  if (*keys.onchip) u.onchip_bytes = c.si(keys.onchip);
  const std::string table = keys.table;
  if (u.ops_per_cycle.empty()) c.fail("a compute unit needs " + table + " for at least one precision", table);
  u.efficiency = c.num("efficiency");
  u.vector_efficiency = c.num("vector_efficiency");
  const std::string kinds = "an operator kind (" + tlm_config::op_kind_names() + ")";
  const std::string precisions = "(" + tlm_config::precision_names() + ")";
  read_kind_suffix_map(c.at("op_efficiency"), "op_efficiency", kinds, precisions, u.op_efficiency,
                       u.op_precision_efficiency, &u.op_rules_efficiency, "gemm_fp8");
  read_kind_suffix_map(c.at("backward_efficiency"), "backward_efficiency", kinds, precisions, u.backward_efficiency,
                       u.backward_precision_efficiency, nullptr, "conv_fp32");
  u.memory_efficiency = per_op_kind(c.at("memory_efficiency"));
  u.overlap = per_op_kind(c.at("overlap"));
  read_kind_suffix_map(c.at("op_activity"), "op_activity", kinds, precisions, u.op_activity,
                       u.op_precision_activity, &u.op_rules_activity, "conv_fp32");
  u.fusion = tlm_config::parse_fusion_rules(c.str("fusion"));
  u.launch_overhead = units::seconds(c.si("launch_overhead"));
  u.host_issue = units::seconds(c.si("host_issue"));
  u.collective_latency = units::seconds(c.si("collective_latency"));
  u.tile_bytes = c.si("tile");
  if (*keys.l2_rate) u.l2_bytes_per_cycle = c.num(keys.l2_rate);
  if (*keys.tiling && c.has(keys.tiling)) u.tiling = resolve_gemm_tiling(c.at(keys.tiling));
  if (*keys.capacity) u.capacity_dmips_mhz = c.num(keys.capacity);
  double dt_coefficient = -1;  // the domain's dynamic-power-coefficient, if it has one
  for (const auto& [dname, d] : domains.entries())
    if (dname == u.domain) {
      u.dvfs_stall = units::seconds(d.si("switch_stall"));
      if (d.has("dynamic-power-coefficient")) dt_coefficient = d.num("dynamic-power-coefficient");
    }

  component_power cp;
  cp.component = name;
  cp.kind = component_power::model::compute;
  if (c.has("c_eff")) cp.compute.c_eff = units::farads(c.si("c_eff"));
  else if (dt_coefficient >= 0) cp.compute.c_eff = power::em_c_eff(dt_coefficient, static_cast<unsigned>(u.cores));
  else c.fail("missing required key 'c_eff' (switched capacitance, e.g. \"300 pF\"; or give the domain a "
              "dynamic-power-coefficient)", "c_eff");
  resolve_idle_states(c, u, cp);
  if (c.has("profile")) u.profile = resolve_profile(c.at("profile"), sc);
  sc.platform.units.push_back(u);
  cp.compute.stall_activity = c.num("stall_activity");
  cp.compute.leakage = resolve_leakage(c.at("leakage"));
  sc.power.push_back(cp);
}

std::vector<component_kind> compute_unit_kinds() {
  auto kind = [](const char* name, schema_ptr (*schema)(), compute_keys keys) {
    return component_kind{name, tlm_config::component_role::compute, schema,
                          [name, keys](const std::string& n, const view& c, const view& domains, scenario& sc) {
                            resolve_compute(n, name, keys, c, domains, sc);
                          }};
  };
  return {kind("cpu_cluster", cpu_cluster_schema, {"cores", "ops_per_cycle", "", "", false, "", "capacity-dmips-mhz", ""}),
          kind("npu", npu_schema, {"cores", "ops_per_cycle", "vector_ops_per_cycle", "sram", false, "", "", ""}),
          kind("gpu", gpu_schema,
               {"sms", "tensor_ops_per_cycle", "vector_ops_per_cycle", "l2_cache", true, "l2_bytes_per_cycle", "",
                "gemm_tiling"})};
}

}  // namespace ptsim::scenarios::detail
