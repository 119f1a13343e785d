// The declaration of every scenario key. Validation, --set path checks, `ptsim schema`
// and `ptsim list components` all read this one table.
#include "ptsim/power/governor.hpp"
#include "ptsim/power/thermal_governor.hpp"
#include "ptsim/scenarios/schema.hpp"
#include "ptsim/thermal/package.hpp"
#include "ptsim/tlm/model_zoo.hpp"

namespace ptsim::scenarios {
namespace {

schema_ptr leakage_schema() {
  return object("Leakage: P = power * (V/v_ref)^v_exponent * 2^((T - t_ref)/doubling)",
                {opt("power", quantity(dims::power(), "leakage power at v_ref and t_ref", "0 W", 0.0, false)),
                 opt("v_ref", quantity(dims::voltage(), "reference voltage", "1 V")),
                 opt("t_ref", temperature("reference temperature", "25 degC")),
                 opt("doubling", quantity(dims::temperature(), "temperature rise that doubles leakage", "20 K")),
                 opt("v_exponent", number("exponent of the voltage dependence", "2", 0.0))});
}

schema_ptr idle_state_schema() {
  return object("idle state: its power (or the share of leakage it keeps), latencies and target residency",
                {req("name", str("state name (e.g. clock_gated, retention, power_gated)")),
                 opt("power", quantity(dims::power(), "power while resident", std::nullopt, 0.0, false)),
                 opt("leakage_fraction", number("share of the unit's leakage drawn while resident (instead of power)",
                                                std::nullopt, 0.0, 1.0)),
                 opt("entry_latency", quantity(dims::time(), "time from going idle to being in the state", "0 s", 0.0,
                                               false)),
                 opt("exit_latency", quantity(dims::time(), "wake-up time, paid by the next operator", "0 s", 0.0, false)),
                 opt("target_residency", quantity(dims::time(), "shortest idle period worth entering the state for",
                                                  "0 s", 0.0, false))});
}

// --- components, by kind: `ptsim list components` prints these declarations ---------

std::vector<std::string> precision_names() { return {"fp32", "fp16", "bf16", "fp8", "int8"}; }

schema_ptr per_precision(const std::string& what) {
  return map_of(number(what, std::nullopt, 0.0), what + ", by precision (fp32, fp16, bf16, fp8, int8)");
}

/// Defaults that differ between compute kinds.
struct compute_defaults {
  const char* launch_overhead;
  const char* tile;
  const char* efficiency;
  const char* vector_efficiency;
};

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
                                  "share of peak per operator kind (gemm, conv, attention, elementwise, norm, "
                                  "embedding, pool, other), overriding efficiency and vector_efficiency")),
      opt("launch_overhead", quantity(dims::time(), "fixed cost per operator (kernel launch)", d.launch_overhead, 0.0,
                                      false)),
      opt("tile", ranged(quantity(dims::bytes(), "memory transaction size (large for GPUs: the kernel is not the "
                                  "bottleneck)", d.tile),
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
  };
  f.insert(f.end(), rest.begin(), rest.end());
  return f;
}

schema_ptr cpu_cluster_schema() {
  return object("CPU cluster: cores sharing one DVFS domain (per-core DVFS: one single-core cluster per domain)",
                compute_fields({"5 us", "256 KiB", "0.7", "0.25"},
                               {opt("cores", integer("cores sharing the work", "1", 1)),
                                req("ops_per_cycle", per_precision("SIMD operations per cycle per core (FMA = 2)"))}));
}

schema_ptr npu_schema() {
  return object("NPU: MAC arrays with a vector unit and on-chip SRAM, in their own DVFS domain",
                compute_fields({"5 us", "256 KiB", "0.7", "0.25"},
                               {opt("cores", integer("engines sharing the work", "1", 1)),
                                req("ops_per_cycle", per_precision("MAC-array operations per cycle per engine (MAC = 2)")),
                                opt("vector_ops_per_cycle", per_precision("vector-unit operations per cycle per engine")),
                                opt("sram", quantity(dims::bytes(), "on-chip SRAM holding activations between "
                                                     "operators (0: none)", "0 B", 0.0, false))}));
}

schema_ptr gpu_schema() {
  return object("GPU: streaming multiprocessors with tensor cores, in their own DVFS domain",
                compute_fields({"4 us", "64 MiB", "0.7", "0.5"},
                               {req("sms", integer("streaming multiprocessors", std::nullopt, 1)),
                                req("tensor_ops_per_cycle", per_precision("dense tensor-core operations per cycle per SM")),
                                req("vector_ops_per_cycle", per_precision("CUDA-core operations per cycle per SM")),
                                opt("l2_cache", quantity(dims::bytes(), "L2 holding activations between operators "
                                                         "(0: none)", "0 B", 0.0, false))}));
}

std::vector<field> link_power_fields() {
  return {opt("energy_per_byte", quantity(dims::energy_per_byte(), "energy per byte moved", "0 J/B", 0.0, false)),
          opt("background_power", quantity(dims::power(), "static power (PHYs, idle)", "0 W", 0.0, false))};
}

schema_ptr with_power(const std::string& doc, std::vector<field> f) {
  for (auto& x : link_power_fields()) f.push_back(x);
  return object(doc, f);
}

schema_ptr noc_schema() {
  return with_power("On-chip interconnect (NoC or bus) between units and one memory",
                    {req("kind", str("component kind")),
                     req("connect", str("memory (or interconnect) behind it")),
                     req("bandwidth", quantity(dims::bandwidth(), "aggregate bandwidth")),
                     opt("latency", quantity(dims::time(), "traversal latency", "30 ns", 0.0, false))});
}

schema_ptr pcie_schema() {
  return with_power(
      "PCIe link (point to point, full duplex): lanes x per-lane rate of its generation, per direction "
      "(gen3 0.985, gen4 1.969, gen5 3.938, gen6 7.563 GB/s per lane after encoding; PCI-SIG)",
      {req("kind", str("component kind")),
       opt("connect", str("component at its far end (none: the link itself ends transfers)")),
       opt("lanes", integer("lanes", "16", 1)),
       opt("generation", enumeration({"3", "4", "5", "6"}, "PCIe generation", "5")),
       opt("bandwidth", quantity(dims::bandwidth(), "per-direction bandwidth (overrides lanes x generation)")),
       opt("latency", quantity(dims::time(), "one-way latency (illustrative default)", "1 us", 0.0, false))});
}

schema_ptr nvlink_schema() {
  return with_power(
      "NVLink-class link (point to point, full duplex): links x per-link rate, per direction "
      "(NVLink 4: 18 links x 25 GB/s = 450 GB/s each way, 900 GB/s total per H100)",
      {req("kind", str("component kind")),
       opt("connect", str("component at its far end (none: the link itself ends transfers, e.g. between two GPUs)")),
       opt("links", integer("links", "18", 1)),
       opt("link_bandwidth", quantity(dims::bandwidth(), "per-direction bandwidth of one link", "25 GB/s")),
       opt("latency", quantity(dims::time(), "one-way latency per hop (illustrative default)", "1 us", 0.0, false))});
}

schema_ptr switch_schema() {
  return with_power(
      "Switch (NVSwitch, PCIe switch): many upstream links, routes to its ports by address; with no ports it is a "
      "terminal that collectives cross and end in",
      {req("kind", str("component kind")),
       opt("ports", list_of(str("component"), "downstream components (none: a terminal fabric)")),
       req("bandwidth", quantity(dims::bandwidth(), "aggregate switching bandwidth")),
       opt("latency", quantity(dims::time(), "traversal latency (illustrative default)", "500 ns", 0.0, false))});
}

schema_ptr memory_schema(const std::string& what, const char* latency, const char* efficiency) {
  return object(what,
                {req("kind", str("component kind")),
                 opt("bandwidth", ranged(quantity(dims::bandwidth(), "peak bandwidth shared by all initiators "
                                                  "(or give channels and channel_bandwidth)"),
                                         std::nullopt, std::nullopt, 1e6)),
                 opt("channels", integer("independent channels (HBM: pseudo-channels)", "1", 1)),
                 opt("channel_bandwidth", ranged(quantity(dims::bandwidth(), "peak bandwidth of one channel"),
                                                 std::nullopt, std::nullopt, 1e6)),
                 opt("latency", quantity(dims::time(), "access latency", latency, 0.0, false)),
                 opt("efficiency", share("share of peak bandwidth reachable under contention (refresh, turnarounds)",
                                         efficiency)),
                 opt("capacity", quantity(dims::bytes(), "capacity", "8 GiB")),
                 opt("preset", enumeration({"lpddr5", "lpddr5x", "ddr5", "hbm3", "hbm3e"},
                                           "power figures of a DRAM generation (README, Memory power), scaled by "
                                           "capacity; keys given here override them")),
                 opt("background_power", quantity(dims::power(), "standby power while active (preset, else 0 W)",
                                                   std::nullopt, 0.0, false)),
                 opt("refresh_power", quantity(dims::power(), "average auto-refresh power while active (preset, else "
                                               "0 W)", std::nullopt, 0.0, false)),
                 opt("self_refresh_power", quantity(dims::power(), "power in self-refresh, entered when idle (preset; "
                                                    "none: never enters it)", std::nullopt, 0.0, false)),
                 opt("self_refresh_after", quantity(dims::time(), "idle time before self-refresh (counted in whole "
                                                    "control periods)", "0 s", 0.0, false)),
                 opt("energy_per_byte_read", quantity(dims::energy_per_byte(), "read energy (preset, else 0 J/B)",
                                                      std::nullopt, 0.0, false)),
                 opt("energy_per_byte_write", quantity(dims::energy_per_byte(), "write energy (preset, else 0 J/B)",
                                                       std::nullopt, 0.0, false))});
}

schema_ptr nvme_schema() {
  return object("NVMe storage: read and write bandwidth, latency, idle and active power, APST power states",
                {req("kind", str("component kind")),
                 req("read_bandwidth", quantity(dims::bandwidth(), "sequential read bandwidth")),
                 opt("write_bandwidth", quantity(dims::bandwidth(), "sequential write bandwidth (default: read)")),
                 opt("latency", quantity(dims::time(), "access latency (illustrative default)", "80 us", 0.0, false)),
                 opt("capacity", quantity(dims::bytes(), "capacity", "3.84 TB")),
                 opt("idle_power", quantity(dims::power(), "power when idle", "5 W", 0.0, false)),
                 opt("active_power", quantity(dims::power(), "power streaming at full bandwidth", "20 W", 0.0, false)),
                 opt("power_states",
                     list_of(object("non-operational power state (NVMe APST)",
                                    {req("name", str("state name (e.g. PS3, PS4)")),
                                     req("power", quantity(dims::power(), "power while resident", std::nullopt, 0.0,
                                                           false)),
                                     req("idle_after", quantity(dims::time(), "idle time since the last I/O completed "
                                                                "before the drive enters the state", std::nullopt,
                                                                0.0, false)),
                                     opt("entry_latency", quantity(dims::time(), "time to enter (ENLAT)", "0 s", 0.0,
                                                                   false)),
                                     opt("exit_latency", quantity(dims::time(), "time back to PS0 (EXLAT), paid by "
                                                                  "the next I/O", "0 s", 0.0, false))}),
                             "APST: non-operational states, shallow to deep, entered autonomously when idle (PS0, "
                             "the operational state, is idle_power and active_power)"))});
}

schema_ptr nic_schema() {
  return object("Network interface: link rate, latency, idle and active power",
                {req("kind", str("component kind")),
                 req("bandwidth", quantity(dims::bandwidth(), "link rate per direction (400 Gb/s = 50 GB/s)")),
                 opt("latency", quantity(dims::time(), "one-way latency (illustrative default)", "2 us", 0.0, false)),
                 opt("idle_power", quantity(dims::power(), "power when idle", "10 W", 0.0, false)),
                 opt("active_power", quantity(dims::power(), "power at full link rate", "20 W", 0.0, false))});
}

schema_ptr platform_schema() {
  auto opp = object("operating point: freq and volt, or the Linux device-tree form opp-hz and opp-microvolt",
                    {opt("freq", ranged(quantity(dims::frequency(), "frequency"), std::nullopt, 1e11, 1e6, 1e10,
                                        "no clock of a CPU, GPU or NPU reaches 100 GHz")),
                     opt("volt", ranged(quantity(dims::voltage(), "voltage"), std::nullopt, 5.0, 0.2, 2.0,
                                        "no CMOS logic supply reaches 5 V")),
                     opt("opp-hz", ranged(integer("frequency in Hz (device-tree opp-hz)", std::nullopt, 1, 1e11),
                                          std::nullopt, std::nullopt, 1e6, 1e10)),
                     opt("opp-microvolt",
                         one_of({ranged(integer("voltage in microvolts (device-tree opp-microvolt)", std::nullopt, 1,
                                                5e6),
                                        std::nullopt, std::nullopt, 2e5, 2e6),
                                 list_of(integer("microvolts", std::nullopt, 1, 5e6),
                                         "<target min max> in microvolts, as device trees write it")},
                                "voltage in microvolts: target, or [target, min, max]"))});
  auto domain = object(
      "DVFS domain",
      {req("opps", list_of(opp, "operating points (V-f table)")),
       opt("transition_latency", quantity(dims::time(), "time for a frequency change to take effect", "500 us", 0.0,
                                          false)),
       opt("switch_stall", quantity(dims::time(), "units of the domain stall this long when the clock switches "
                                    "(PLL relock)", "0 s", 0.0, false)),
       opt("dynamic-power-coefficient", number("Linux energy-model coefficient in uW/(MHz*V^2) per core: units of "
                                               "the domain without c_eff get c_eff = cores x coefficient pF",
                                               std::nullopt, 0.0))});
  auto component = variant({{"cpu_cluster", cpu_cluster_schema()},
                            {"npu", npu_schema()},
                            {"gpu", gpu_schema()},
                            {"noc", noc_schema()},
                            {"pcie", pcie_schema()},
                            {"nvlink", nvlink_schema()},
                            {"switch", switch_schema()},
                            {"lpddr", memory_schema("LPDDR memory (LPDDR5)", "100 ns", "0.8")},
                            {"lpddr5x", memory_schema("LPDDR5X memory (mobile)", "110 ns", "0.8")},
                            {"ddr5", memory_schema("DDR5 memory (server DIMMs)", "90 ns", "0.75")},
                            {"hbm", memory_schema("HBM3/HBM3e stacks (GPU memory)", "120 ns", "0.85")},
                            {"nvme", nvme_schema()},
                            {"nic", nic_schema()}},
                           "component by kind");
  auto curve_point = object("a point of an efficiency curve",
                             {req("load", number("output power as a share of the rated power", std::nullopt, 0.0)),
                              req("efficiency", number("output / input power", std::nullopt, 0.0, 1.0))});
  auto stage = [&](const char* doc, const char* curve_doc) {
    return object(doc, {req("rated", quantity(dims::power(), "rated output power")),
                        opt("efficiency", list_of(curve_point, curve_doc))});
  };
  auto supply = object(
      "power delivery from the wall to the components (wall_power = platform power / eta_vr / eta_psu)",
      {opt("vr", stage("voltage regulators feeding the components",
                       "efficiency by load, piecewise linear, flat outside (default: 80 % at 5 %, 90 % at 20 %, "
                       "92 % at 50 %, 89 % at 100 % load)")),
       opt("psu", stage("power supply at the wall, feeding the regulators",
                        "efficiency by load (default: 80 PLUS Titanium 230 V internal: 90/94/96/91 % at "
                        "10/20/50/100 % load)"))});
  return object("hardware platform",
                {opt("quantum", ranged(quantity(dims::time(), "TLM global quantum (temporal decoupling)", "50 us"), 1e-9,
                                       std::nullopt)),
                 opt("supply", supply),
                 req("domains", map_of(domain, "DVFS domains by name")),
                 req("components", map_of(component, "components by name"))});
}

schema_ptr token_range_schema(const std::string& what, const char* def) {
  return one_of({integer(what + " (fixed)", def, 1),
                 object(what + " drawn uniformly", {req("min", integer("smallest", std::nullopt, 1)),
                                                    req("max", integer("largest", std::nullopt, 1))})},
                what + ": a number, or {min, max}");
}

schema_ptr workload_schema() {
  std::vector<std::string> models, decoders;
  for (const auto& m : tlm::model_zoo()) {
    models.push_back(m.name);
    if (m.decoder) decoders.push_back(m.name);
  }
  auto arrival = object(
      "request arrivals",
      {req("kind", enumeration({"fixed_rate", "poisson", "closed_loop", "trace"},
                               "fixed_rate and poisson need rate; closed_loop: users who each wait for an answer, "
                               "think, and ask again (offline throughput: think_time 0); trace: a CSV file")),
       opt("rate", quantity(dims::frequency(), "mean arrival rate (fixed_rate, poisson)")),
       opt("start", quantity(dims::time(), "first arrival", "0 s", 0.0, false)),
       opt("users", integer("closed_loop: concurrent users (outstanding requests)", "1", 1)),
       opt("think_time", quantity(dims::time(), "closed_loop: mean think time between answer and next request", "0 s",
                                  0.0, false)),
       opt("think", enumeration({"fixed", "exponential"}, "closed_loop: think-time distribution", "fixed")),
       opt("file", str("trace: CSV of arrival_s,prompt_tokens,output_tokens, relative to the scenario file (a "
                       "first line with no number in it is a header; '#' starts a comment)"))});
  auto batching = object(
      "batching of requests",
      {opt("kind", enumeration({"none", "static", "dynamic", "continuous"},
                               "none: each request alone; static: full batches; dynamic: up to max_batch or the "
                               "timeout; continuous: iteration-level (llm streams)", "none")),
       opt("max_batch", integer("requests per batch (llm: sequences in flight per instance)", "1", 1)),
       opt("timeout", quantity(dims::time(), "dynamic: longest wait of a batch's first request; static: 0 waits for "
                               "a full batch", "0 s", 0.0, false))});
  auto training = object(
      "run the stage's model as a training step: forward, backward (~2x), gradient all-reduce over the stage's "
      "data-parallel units, mixed-precision Adam",
      {opt("gradients", enumeration(precision_names(), "precision of the gradients exchanged", "bf16")),
       opt("bucket", quantity(dims::bytes(), "gradient all-reduce bucket (PyTorch DDP default 25 MiB)", "25 MiB")),
       opt("accumulation", integer("micro-batches per step (gradient accumulation)", "1", 1))});
  auto input = object("bytes each request brings in before the stage runs",
                      {req("from", str("component the unit reads them from (host memory, storage, NIC)")),
                       req("bytes", quantity(dims::bytes(), "bytes per request"))});
  auto stage = object(
      "pipeline stage: one model on one unit, on the least loaded of several, or on a data-parallel group",
      {opt("unit", str("compute unit (component name)")),
       opt("units", list_of(str("compute unit"), "units of the stage (see parallel)")),
       opt("parallel", enumeration({"single", "replicas", "data"},
                                   "replicas: each request on the least loaded unit; data: every unit runs it as one "
                                   "data-parallel group", "single")),
       opt("model", enumeration(models, "model from the zoo (ptsim list workloads)")),
       opt("graph", str("custom operator graph file (YAML list of operators), relative to the scenario file")),
       opt("params", map_of(number("model parameter"), "model parameters")),
       opt("precision", enumeration(precision_names(), "arithmetic precision")),
       opt("training", training),
       opt("input", input)});
  auto llm = object(
      "LLM serving: a decoder from the zoo on instances of tensor_parallel units",
      {req("model", enumeration(decoders, "decoder model (shape presets; params override layers, hidden, ...)")),
       opt("params", map_of(number("shape parameter"), "shape overrides (layers, hidden, heads, kv_heads, head_dim, "
                                                        "ffn, vocab)")),
       req("units", list_of(str("compute unit"), "units; consecutive runs of tensor_parallel form an instance")),
       opt("tensor_parallel", integer("ranks per instance (heads and FFN split, two all-reduces per layer)", "1", 1)),
       opt("weights", enumeration(precision_names(), "weight precision (GEMMs run at it)", "bf16")),
       opt("kv_precision", enumeration(precision_names(), "KV-cache precision", "bf16")),
       opt("max_batched_tokens", integer("tokens per iteration: prefill chunks and decodes", "8192", 1)),
       opt("chunked_prefill", boolean("split prompts to fill each iteration's token budget", "true")),
       opt("kv_cache", quantity(dims::bytes(), "KV-cache bytes per rank (default: memory_utilization of the memory "
                                "less the weights)")),
       opt("memory_utilization", share("share of the memory the weights and KV cache may use", "0.9")),
       opt("layer_groups", integer("layers simulated as this many folded groups (1: fastest)", "1", 1)),
       opt("prompt_tokens", token_range_schema("prompt tokens per request", "128")),
       opt("output_tokens", token_range_schema("output tokens per request", "128"))});
  auto stream = object("a request stream",
                       {req("arrival", arrival),
                        opt("precision", enumeration(precision_names(), "default precision", "int8")),
                        opt("stages", list_of(stage, "stages run in order for every request (or batch)")),
                        opt("llm", llm),
                        opt("batching", batching),
                        opt("queue_limit", integer("open-loop requests waiting or running before new arrivals are "
                                                   "dropped", "64", 1))});
  return object("ML workload", {req("streams", map_of(stream, "request streams by name"))});
}

schema_ptr package_schema() {
  std::vector<field> fields;
  for (const thermal::package_field& f : thermal::package_fields()) {
    const auto dim = [&] {
      switch (f.quantity) {
        case thermal::package_quantity::length: return dims::length();
        case thermal::package_quantity::conductivity: return dims::thermal_conductivity();
        case thermal::package_quantity::volumetric_heat_capacity: return dims::volumetric_heat_capacity();
        case thermal::package_quantity::thermal_resistance: return dims::thermal_resistance();
        case thermal::package_quantity::heat_capacity: break;
      }
      return dims::heat_capacity();
    }();
    fields.push_back(opt(f.key, quantity(dim, f.doc, f.default_text)));
  }
  return object("HotSpot block-model package (HotSpot's parameter names and defaults)", std::move(fields));
}

schema_ptr phone_schema() {
  auto r = [](const char* doc, const char* def) { return quantity(dims::thermal_resistance(), doc, def); };
  auto c = [](const char* doc, const char* def) { return quantity(dims::heat_capacity(), doc, def); };
  auto a = [](const char* doc, const char* def) { return quantity(dims::area(), doc, def); };
  auto h = [](const char* doc, const char* def) { return quantity(dims::heat_transfer_coefficient(), doc, def); };
  return object(
      "phone package (model: phone): the floorplan's blocks under a frame, battery, display (skin_front) and back "
      "cover (skin_back); illustrative defaults for a 150 x 70 mm phone",
      {opt("r_soc_frame", r("die to frame through TIM and shield, shared by block area", "2.5 K/W")),
       opt("r_frame_front", r("frame to display glass", "4 K/W")),
       opt("r_frame_back", r("frame to back cover", "3 K/W")),
       opt("r_frame_battery", r("frame to battery", "1.5 K/W")),
       opt("r_battery_back", r("battery to back cover", "2 K/W")),
       opt("c_frame", c("frame", "27 J/K")), opt("c_battery", c("battery", "45 J/K")),
       opt("c_front", c("display glass and panel", "16 J/K")), opt("c_back", c("back cover", "12 J/K")),
       opt("area_front", a("display area losing heat", "0.0105 m^2")),
       opt("area_back", a("back-cover area losing heat", "0.0105 m^2")),
       opt("h_front", h("film coefficient of the display (convection and radiation)", "10 W/(m^2*K)")),
       opt("h_back", h("film coefficient of the back cover", "8 W/(m^2*K)"))});
}

schema_ptr datacenter_schema() {
  auto die = object("a die with its own package and heat sink",
                    {opt("blocks", list_of(str("floorplan block"), "its floorplan blocks (default: the block named "
                                                                   "like the die)")),
                     opt("package", object("changes to thermal.package for this die (same keys; r_convec at the "
                                           "fans' reference speed)",
                                           package_schema()->fields))});
  auto fan = object(
      "the fans of each stream (affinity laws: flow ~ speed, power ~ speed^3)",
      {opt("flow", quantity(dims::volume_flow(), "air flow through one stream at speed 1", "0.02 m^3/s")),
       opt("power", quantity(dims::power(), "electrical power of one stream's fans at speed 1", "15 W", 0.0, false)),
       opt("speed", number("relative speed without a fan zone", "1", 0.01)),
       opt("min_speed", number("a fan zone's lowest speed", "0.3", 0.01)),
       opt("max_speed", number("a fan zone's highest speed", "1", 0.01)),
       opt("levels", integer("a fan zone's speeds, min_speed to max_speed evenly (its cooling states)", "8", 2, 1000))});
  return object(
      "datacenter air path (model: datacenter): every die under its own HotSpot package and heat sink; the sinks of a "
      "stream in series, each inlet preheated by the heat upstream (Q / (m_dot c_p)); the fans set every sink's "
      "convection resistance (r_convec * speed^-flow_exponent) and draw fan power (a `fans` row of power)",
      {req("dies", map_of(die, "dies by name")),
       req("streams", map_of(list_of(str("die"), "dies upstream first"), "air streams by name")),
       opt("fan", fan),
       opt("flow_exponent", number("n in r_convec ~ flow^-n (turbulent: 0.8)", "0.8", 0.0))});
}

schema_ptr thermal_schema() {
  auto blk = object("floorplan block (origin bottom-left)",
                    {req("name", str("block name")),
                     req("x", quantity(dims::length(), "left edge", std::nullopt, 0.0, false)),
                     req("y", quantity(dims::length(), "bottom edge", std::nullopt, 0.0, false)),
                     req("width", quantity(dims::length(), "width")),
                     req("height", quantity(dims::length(), "height"))});
  auto part = object("component to place",
                     {req("name", str("block name (a platform component's name receives its power)")),
                      req("area", quantity(dims::area(), "silicon area, kept exactly")),
                      opt("aspect", ranged(number("preferred width / height", "1", 1e-3, 1e3), std::nullopt, std::nullopt, 0.05, 20.0)),
                      opt("next_to", list_of(str("component of this list"),
                                             "components that should share an edge with this one (heat or data "
                                             "exchange); refused if the layout cannot honour it"))});
  auto layout = object(
      "floorplan generated from components: recursive slicing that keeps areas exact and tiles the die, honours "
      "next_to, and keeps each block near its aspect (see README, Floorplans from components)",
      {req("components", list_of(part, "components to place")),
       opt("die_aspect", ranged(number("die width / height", "1", 1e-3, 1e3), std::nullopt, std::nullopt, 0.05, 20.0)),
       opt("whitespace", number("share of the die left empty, as blocks whitespace_<k>", "0", 0.0, 0.95))});
  auto package = package_schema();
  auto solver = object("transient solver",
                       {opt("method", enumeration({"auto", "exponential", "backward_euler"},
                                                  "exact exponential stepping (dense), implicit Euler sub-steps "
                                                  "(sparse), or auto: exponential up to 500 nodes",
                                                  "auto")),
                        opt("substeps", integer("backward-Euler sub-steps per control period", "8", 1, 10000))});
  return object("thermal model",
                {req("ambient", ranged(temperature("ambient temperature (air or coolant at the inlet)"), 173.15,
                                       473.15, 233.15, 343.15,
                                       "an ambient outside -100 .. 200 degC is a typo or a wrong unit")),
                 req("floorplan", one_of({list_of(blk, "die floorplan as rectangles"), layout},
                                         "die floorplan: a list of rectangles, or {components, die_aspect, "
                                         "whitespace} to generate one (`ptsim floorplan` writes it as .flp)")),
                 opt("package", package),
                 opt("power_map", map_of(str("floorplan block"), "component -> block receiving its power "
                                                               "(default: the block of the same name)")),
                 opt("model", enumeration({"hotspot", "phone", "datacenter"},
                                          "package around the floorplan: HotSpot's block model, a phone (die under a "
                                          "frame, battery and case with skin nodes), or a datacenter air path (dies "
                                          "with own packages and heat sinks in series, fans)",
                                          "hotspot")),
                 opt("phone", phone_schema()),
                 opt("datacenter", datacenter_schema()),
                 opt("initial", enumeration({"ambient", "steady", "file"},
                                            "initial temperatures: the ambient, the steady state of the first control "
                                            "period's power, or initial_file",
                                            "ambient")),
                 opt("initial_file", str("HotSpot .steady / -init_file (name and kelvin per line, every node of the "
                                         "model), relative to the scenario file")),
                 opt("solver", solver)});
}

schema_ptr policy_schema() {
  std::vector<std::string> govs;
  for (const auto& g : power::governor_registry::instance().list()) govs.push_back(g.name);
  auto gov_name = enumeration(govs, "cpufreq governor");
  auto gov_obj = object("cpufreq governor with tunables",
                        {req("governor", gov_name), opt("tunables", map_of(number("tunable value"), "tunables by name"))});
  auto sensor = one_of(
      {str("block or package node (phone: skin_front, skin_back, frame, battery; datacenter: <die>.inlet)"),
       object("sensor with lag and noise",
              {opt("node", str("block or package node (default: the hottest block)")),
               opt("time_constant", quantity(dims::time(), "first-order lag", "0 s", 0.0, false)),
               opt("noise", quantity(dims::temperature(), "standard deviation of Gaussian noise (seeded)", "0 K", 0.0,
                                     false))})},
      "the zone's sensor: a node name, or {node, time_constant, noise} (default: the hottest block, exact)");
  std::vector<std::string> tgovs = {"none"};
  for (const auto& n : power::thermal_governor_registry::instance().names()) tgovs.push_back(n);
  auto thermal = object(
      "thermal governor (Linux thermal framework)",
      {opt("governor", enumeration(tgovs, "thermal governor", "none")),
       opt("tunables", map_of(number("tunable value"), "the governor's tunables by name (`ptsim list governors`)")),
       opt("control_temp", ranged(temperature("temperature to regulate to (step_wise's passive trip, IPA's control)",
                                              "85 degC"),
                                  173.15, 773.15, 273.15, 423.15)),
       opt("switch_on_temp", ranged(temperature("IPA switch-on temperature (default control_temp - 10 K)"), 173.15,
                                    773.15, 273.15, 423.15)),
       opt("hysteresis", quantity(dims::temperature(), "trip hysteresis", "2 K", 0.0, false)),
       opt("polling_period", quantity(dims::time(), "governor period (passive delay)", "100 ms")),
       opt("sustainable_power", quantity(dims::power(), "IPA sustainable power (default: estimated)")),
       opt("sensor", sensor),
       opt("domains", list_of(str("DVFS domain"), "cooling devices (default: every domain)"))});
  auto fan_zone = object(
      "a thermal zone whose cooling device is the fans (thermal.model: datacenter): step_wise raises the speed one "
      "level per polling period while hot and rising",
      {opt("governor", enumeration({"step_wise"}, "thermal governor", "step_wise")),
       req("control_temp", ranged(temperature("trip temperature"), 173.15, 773.15, 273.15, 423.15)),
       opt("hysteresis", quantity(dims::temperature(), "trip hysteresis", "2 K", 0.0, false)),
       opt("polling_period", quantity(dims::time(), "governor period", "1 s")),
       opt("sensor", sensor)});
  auto power_cap = object(
      "power capping on the platform's power (RAPL PL1/PL2 style, a board limit, or a two-threshold datacenter cap)",
      {req("limit", quantity(dims::power(), "limit on the average platform power over `window` (PL1; the hard threshold)")),
       opt("window", quantity(dims::time(), "averaging window of `limit` (at most 1e6 control periods)", "1 s")),
       opt("short_limit", quantity(dims::power(), "short-term limit (PL2)")),
       opt("short_window", quantity(dims::time(), "averaging window of `short_limit` (at most 1e6 control periods)", "10 ms")),
       opt("soft_limit", quantity(dims::power(), "first threshold: only `low_priority` domains are cut to meet it")),
       opt("settle", quantity(dims::time(), "time over which the average is brought back to the limit", "50 ms")),
       opt("domains", list_of(str("DVFS domain"), "capped domains (default: every domain)")),
       opt("low_priority", list_of(str("DVFS domain"), "domains cut first at the soft limit"))});
  return object("DVFS and thermal policy",
                {opt("governor", enumeration(govs, "cpufreq governor of every domain without its own", "schedutil")),
                 opt("governors", map_of(one_of({gov_name, gov_obj}, "governor name, or {governor, tunables}"),
                                         "per-domain cpufreq governor overrides")),
                 opt("thermal", thermal),
                 opt("fan_zone", fan_zone),
                 opt("power_cap", power_cap)});
}

}  // namespace

schema_ptr scenario_schema() {
  // Rebuilt when a governor has been registered since (its name joins the enumeration).
  static std::size_t built_for = 0;
  static schema_ptr root;
  const std::size_t gen = power::governor_registry::instance().generation() +
                          power::thermal_governor_registry::instance().generation();
  if (root && built_for == gen) return root;
  built_for = gen;
  root = object(
      "ptsim scenario",
      {req("name", str("scenario name (used in result file names)")),
       req("duration", ranged(quantity(dims::time(), "simulated time (a whole multiple of record_period)"),
                              std::nullopt, 9.2e6, std::nullopt, std::nullopt,
                              "the simulation kernel's 64-bit clock at its 1 ps resolution ends at 2^63 ps = "
                              "9.22e6 s, 107 days")),
       opt("control_period", ranged(quantity(dims::time(), "closed-loop tick: power, thermal and governors", "1 ms"),
                                    1e-6, std::nullopt, 1e-5, 1.0)),
       opt("record_period", ranged(quantity(dims::time(), "timeseries sampling period (a whole multiple of "
                                            "control_period)", "10 ms"),
                                   1e-6, std::nullopt)),
       opt("seed", integer("random seed", "1", 0, 9.0e15)),
       opt("description", str("free text")),
       opt("extends", str("base scenario file (relative to this one) that this file changes; mappings merge, "
                          "other values replace")),
       req("platform", platform_schema()),
       req("workload", workload_schema()),
       req("thermal", thermal_schema()),
       opt("policy", policy_schema()),
       opt("limits",
           object("bounds on what a run may cost, checked before it starts against an estimate (`ptsim validate` "
                  "prints it); raise one with --set when the estimate is what you want",
                  {opt("max_arrivals", number("requests the workload may generate over the run (every stream "
                                              "together)", "1e8", 0.0)),
                   opt("max_file_size", quantity(dims::bytes(), "estimated result file size (default: the free "
                                                 "space of the file system the result goes to)")),
                   opt("max_memory", quantity(dims::bytes(), "estimated peak memory (default: the machine's "
                                              "physical memory)"))}))});
  return root;
}

}  // namespace ptsim::scenarios
