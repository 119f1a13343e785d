// The declaration of every scenario key. Validation, --set path checks, `ptsim schema`
// and `ptsim list components` all read this one table.
#include "ptsim/power/governor.hpp"
#include "ptsim/power/thermal_governor.hpp"
#include "ptsim/scenarios/schema.hpp"
#include "enum_tables.hpp"
#include "ptsim/thermal/package.hpp"
#include "ptsim/tlm_config/fusion.hpp"
#include "ptsim/tlm_config/layout.hpp"
#include "ptsim/tlm_config/model_zoo.hpp"
#include "kinds/component_kind.hpp"

namespace ptsim::scenarios {
namespace {

std::vector<std::string> precision_names() { return {"fp32", "fp16", "bf16", "fp8", "int8"}; }
// An LLM's weights may also be int4 (weight-only quantisation); operators never compute at it.
std::vector<std::string> weight_precision_names() {
  auto names = precision_names();
  names.push_back("int4");
  return names;
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
  auto vf_point = object("a point of a V-f curve",
                         {req("freq", ranged(quantity(dims::frequency(), "clock"), std::nullopt, 1e11, 1e6, 1e10,
                                             "no clock of a CPU, GPU or NPU reaches 100 GHz")),
                          req("volt", ranged(quantity(dims::voltage(), "voltage at that clock"), std::nullopt, 5.0, 0.2,
                                             2.0, "no CMOS logic supply reaches 5 V"))});
  auto domain = object(
      "DVFS domain",
      {req("opps", list_of(opp, "operating points (V-f table); a point with freq alone takes its volt from vf_curve")),
       opt("vf_curve", list_of(vf_point, "voltage by clock, linear between the points (clocks increasing) and flat "
                                         "outside them: the volt of every operating point that gives only its freq")),
       opt("transition_latency", quantity(dims::time(), "time for a frequency change to take effect", "500 us", 0.0,
                                          false)),
       opt("switch_stall", quantity(dims::time(), "units of the domain stall this long when the clock switches "
                                    "(PLL relock)", "0 s", 0.0, false)),
       opt("dynamic-power-coefficient", number("Linux energy-model coefficient in uW/(MHz*V^2) per core: units of "
                                               "the domain without c_eff get c_eff = cores x coefficient pF",
                                               std::nullopt, 0.0)),
       opt("min_power_limit", quantity(dims::power(), "lowest board power limit the device accepts (nvidia-smi "
                                       "--query-gpu=power.min_limit); policy.limits.<domain>.power below it is an error")),
       opt("max_power_limit", quantity(dims::power(), "highest board power limit the device accepts "
                                       "(power.max_limit); policy.limits.<domain>.power above it is an error"))});
  std::map<std::string, schema_ptr> kinds;  // one per registered component kind (kinds/registry.cpp)
  for (const auto& k : detail::component_kinds()) kinds[k.name] = k.schema();
  auto component = variant(std::move(kinds), "component by kind");
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
                 opt("base_power",
                     quantity(dims::power(),
                              "constant power of what the platform does not list as components (a server's "
                              "management controller, board logic, retimers, the fans' floor), drawn through the "
                              "supply: the row 'base' of power(time, component) when above 0",
                              "0 W", 0.0, false)),
                 req("domains", map_of(domain, "DVFS domains by name")),
                 req("components", map_of(component, "components by name"))});
}

schema_ptr token_range_schema(const std::string& what, const char* def) {
  return one_of(
      {integer(what + " (fixed)", def, 1),
       object(what + " drawn uniformly from {min, max}, or from a histogram {bins, counts}",
              {opt("min", integer("smallest", std::nullopt, 1)), opt("max", integer("largest", std::nullopt, 1)),
               // Edges as large as the 32-bit token counts they become; weights far from overflowing their sum.
               opt("bins", list_of(number("bin edge (tokens)", std::nullopt, 1.0, 2147483647.0),
                                   "bin edges, increasing (n + 1 for n bins)")),
               opt("counts", list_of(number("requests in the bin (any scale)", std::nullopt, 0.0, 1e15),
                                     "one weight per bin"))})},
      what + ": a number, {min, max}, or {bins, counts}");
}

/// Host software around the accelerators (tlm/host_work.hpp): a serving engine's work per
/// iteration (llm streams) or a training loop's per step (stages).
schema_ptr host_work_schema(bool serving) {
  auto time = [](const std::string& doc) { return quantity(dims::time(), doc, "0 s", 0.0, false); };
  std::vector<field> f = {
      opt("unit", str("host CPU unit that runs it (default: the platform's first cpu_cluster)")),
      opt("scheduling", enumeration({"synchronous", "asynchronous"},
                                    serving ? "synchronous: the GPUs wait for the host's work before each iteration; "
                                              "asynchronous: it overlaps the previous iteration (the iteration takes "
                                              "the longer of the two)"
                                            : "synchronous: the step waits for the host's work; asynchronous: it "
                                              "overlaps the step",
                                    "synchronous")),
      opt("cores", integer("cores of the host unit it keeps busy (its share of the unit's power)", "1", 1))};
  if (serving) {
    f.push_back(opt("units", list_of(str("cpu_cluster"),
                                     "CPU clusters it runs on as a task placed by energy-aware scheduling at each "
                                     "iteration (instead of unit; turns the scheduler on): its times are then those "
                                     "of the biggest CPU at its top clock, taking x 1024 / capacity x f_max / f on the "
                                     "CPU and clock it lands on")));
    f.push_back(opt("per_iteration", time("fixed host time per iteration (scheduling, input preparation, sampling)")));
    f.push_back(opt("per_sequence", time("host time per sequence in the iteration")));
    f.push_back(opt("per_token", time("host time per token the iteration processes (prompt and decode)")));
    f.push_back(opt("cuda_graphs", boolean("decode-only iterations launch their kernels as one captured graph: "
                                           "graph_launch once instead of launch_overhead per kernel", "false")));
    f.push_back(opt("graph_launch", time("launch cost of a captured graph (cuda_graphs)")));
  } else {
    f.push_back(opt("per_step", time("host time per step (data loading, optimizer-step Python)")));
  }
  return object(serving ? "the serving engine's host software, run on a host CPU unit"
                        : "per-step host software, run on a host CPU unit",
                std::move(f));
}

schema_ptr workload_schema() {
  std::vector<std::string> models, decoders;
  for (const auto& m : tlm_config::model_zoo()) {
    models.push_back(m.name);
    if (m.decoder) decoders.push_back(m.name);
  }
  auto arrival = object(
      "request arrivals",
      {req("kind", enumeration(detail::names_of(detail::arrival_kinds),
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
      {opt("kind", enumeration(detail::names_of(detail::batching_kinds),
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
  auto uclamp = object(
      "Linux uclamp: clamps the utilisation its tasks present to placement and to schedutil (policy.scheduler: eas); "
      "a runqueue takes the largest clamps of its runnable tasks (an llm stream's: its host work's task, "
      "llm.host.units)",
      {opt("min", integer("utilisation floor, 0..1024 (1024: the biggest CPU at its top frequency)", "0", 0, 1024)),
       opt("max", integer("utilisation ceiling, 0..1024", "1024", 0, 1024))});
  auto stage = object(
      "pipeline stage: one model on one unit, on the least loaded of several, on a data-parallel group, or as a task "
      "placed by energy-aware scheduling on one of several CPU clusters",
      {opt("unit", str("compute unit (component name)")),
       opt("units", list_of(str("compute unit"), "units of the stage (see parallel)")),
       opt("parallel", enumeration(detail::names_of(detail::parallel_kinds),
                                   "replicas: each request on the least loaded unit; data: every unit runs it as one "
                                   "data-parallel group; energy_aware: each request's task placed on one of the CPU "
                                   "clusters by Linux EAS (turns on policy.scheduler: eas)", "single")),
       opt("model", enumeration(models, "model from the zoo (ptsim list workloads)")),
       opt("graph", str("custom operator graph file (YAML list of operators), relative to the scenario file")),
       opt("params", map_of(number("model parameter"), "model parameters")),
       opt("precision", enumeration(precision_names(), "arithmetic precision")),
       opt("fusion", enumeration(tlm_config::fusion_rule_names(), "operator fusion rule set (default: the unit's)")),
       opt("memory_format",
           enumeration(tlm_config::memory_format_names(),
                       "activation layout a framework keeps (nchw: PyTorch's default; nhwc: channels last); on a "
                       "GPU's tensor cores an nchw stage pays cuDNN's transposes around each convolution "
                       "(a zoo model's stage, not under tensorrt)",
                       "nchw")),
       opt("autocast", boolean("16-bit precision kept as a framework's mixed precision does (PyTorch autocast): fp32 "
                               "weights cast every forward pass, a kernel before each convolution and GEMM (a zoo model on a "
                               "GPU, not under tensorrt; false: the model itself in 16 bits)",
                               "true")),
       opt("training", training),
       opt("input", input),
       opt("host", host_work_schema(false)),
       opt("uclamp", uclamp)});
  auto llm = object(
      "LLM serving: a decoder from the zoo on instances of tensor_parallel units",
      {req("model", enumeration(decoders, "decoder model (shape presets; params override layers, hidden, ...)")),
       opt("params", map_of(number("shape parameter"), "shape overrides (layers, hidden, heads, kv_heads, head_dim, "
                                                        "ffn, vocab)")),
       req("units", list_of(str("compute unit"), "units; consecutive runs of tensor_parallel x pipeline_parallel form an "
                                                 "instance, stage by stage")),
       opt("tensor_parallel", integer("ranks per instance (heads and FFN split, two all-reduces per layer)", "1", 1)),
       opt("pipeline_parallel",
           integer("pipeline stages per instance, tensor_parallel units each (layers split; as many micro-batch "
                   "lanes as stages, each with batching.max_batch slots, share the KV cache)",
                   "1", 1)),
       opt("weights", enumeration(weight_precision_names(), "weight precision (GEMMs run at it; int4 is "
                                   "weight-only, w4a16: 4-bit weights, 16-bit arithmetic)", "bf16")),
       opt("kv_precision", enumeration(precision_names(), "KV-cache precision", "bf16")),
       opt("max_batched_tokens", integer("tokens per iteration: prefill chunks and decodes", "8192", 1)),
       opt("chunked_prefill", boolean("split prompts to fill each iteration's token budget", "true")),
       opt("kv_cache", quantity(dims::bytes(), "KV-cache bytes per rank (default: memory_utilization of the memory "
                                "less the weights, or kv_cache_free_fraction of what they leave)")),
       opt("reserved_memory",
           ranged(quantity(dims::bytes(), "memory per rank the serving engine holds beside weights and KV cache "
                                          "(its activation peak, communication buffers), left out of the KV cache",
                           "0 B"),
                  0.0, std::nullopt)),
       opt("memory_utilization", share("share of the memory the weights and KV cache may use (vLLM's "
                                       "gpu_memory_utilization)", "0.9")),
       opt("kv_cache_free_fraction",
           share("instead of memory_utilization: the KV cache's share of the memory the weights leave free "
                 "(TensorRT-LLM's kv_cache_free_gpu_mem_fraction)")),
       opt("kv_allocation",
           enumeration({"reserve", "paged"},
                       "reserve: a sequence is admitted only when its whole KV footprint (prompt + output) fits, "
                       "never evicted (TensorRT-LLM's guaranteed-no-evict); paged: KV blocks as tokens are written, "
                       "admitted when its next prompt chunk fits, the most recently admitted preempted and later "
                       "recomputed when a running sequence finds no free block (vLLM)",
                       "reserve")),
       opt("kv_block", integer("paged: tokens per KV-cache block (vLLM's default block_size)", "16", 1)),
       opt("layer_groups", integer("layers simulated as this many folded groups (1: fastest)", "1", 1)),
       opt("fusion", enumeration(tlm_config::fusion_rule_names(), "operator fusion rule set (default: its first unit's)")),
       opt("decode_attention",
           enumeration(tlm_config::decode_attention_names(),
                       "the decode steps' attention kernel: grouped (each K/V head read once for its query heads, "
                       "tensor cores: FlashDecoding, XQA) or per_head (one thread block per query head, fp32 dot "
                       "products on the CUDA cores: TensorRT-LLM's masked MHA before XQA)",
                       "grouped")),
       opt("prompt_tokens", token_range_schema("prompt tokens per request", "128")),
       opt("output_tokens", token_range_schema("output tokens per request", "128")),
       opt("host", host_work_schema(true))});
  auto stream = object("a request stream",
                       {req("arrival", arrival),
                        opt("precision", enumeration(precision_names(), "default precision", "int8")),
                        opt("stages", list_of(stage, "stages run in order for every request (or batch)")),
                        opt("llm", llm),
                        opt("batching", batching),
                        opt("uclamp", uclamp),
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

// The phone's secondary heat path: HotSpot's -model_secondary layers (their defaults, from
// HotSpot 7's hotspot.config) in block form, the board reaching the frame.
schema_ptr board_schema() {
  auto len = [](const char* doc, const char* def) { return quantity(dims::length(), doc, def); };
  return object(
      "the SoC's secondary heat path, down through its package into the board (HotSpot's -model_secondary layers "
      "in block form: metal, C4 bumps and underfill, substrate, solder balls, PCB); the board reaches the frame. "
      "Given (even empty) = modelled",
      {opt("r_board_frame", quantity(dims::thermal_resistance(),
                                     "whole board to frame (screws, shield cans, pads), shared by board area; "
                                     "illustrative", "1 K/W")),
       opt("c_board", quantity(dims::heat_capacity(), "extra heat capacity on the board's nodes, shared by area (the "
                                                      "PCB's own is counted from t_pcb)", "0 J/K", 0.0, false)),
       opt("t_metal", len("on-chip metal layers", "10 um")),
       opt("t_c4", len("C4 bumps and underfill", "0.1 mm")),
       opt("s_sub", len("package substrate side (square, larger than the die)", "21 mm")),
       opt("t_sub", len("package substrate thickness", "1 mm")),
       opt("s_solder", len("solder-ball field side (square, larger than the die)", "21 mm")),
       opt("t_solder", len("solder-ball layer thickness", "0.94 mm")),
       opt("s_pcb", len("board side (square, larger than the solder field); illustrative for a phone mainboard",
                        "60 mm")),
       opt("t_pcb", len("board thickness; illustrative for a phone mainboard (HotSpot: 2 mm)", "1 mm"))});
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
       opt("h_back", h("film coefficient of the back cover", "8 W/(m^2*K)")),
       opt("board", board_schema())});
}

// HotSpot's package model (-package_config_file), forced convection: its names and defaults.
schema_ptr sink_schema(const char* doc) {
  auto len = [](const char* d, const char* def) { return quantity(dims::length(), d, def); };
  return object(
      doc,
      {opt("type", enumeration({"fin_channel", "pin_fin"}, "fin-channel or pin-fin sink (HotSpot's sink_type 0, 1)",
                               "fin_channel")),
       opt("flow", enumeration({"side", "top"}, "air from a side through the channels, or impinging from the top "
                                                "(HotSpot's flow_type 0, 1)", "side")),
       opt("fin_height", len("fin height", "30 mm")), opt("fin_width", len("fin thickness", "1 mm")),
       opt("channel_width", len("gap between fins", "2 mm")), opt("pin_height", len("pin height", "20 mm")),
       opt("pin_diam", len("pin diameter", "2 mm")), opt("pin_dist", len("gap between pins", "5 mm")),
       opt("fan_radius", len("fan radius", "30 mm")),
       opt("motor_radius", len("fan motor (hub) radius, below fan_radius", "10 mm")),
       opt("rpm", number("fan rotation at fan speed 1 (rpm); at speed s it turns rpm * s", "1000", 1e-9))});
}

schema_ptr datacenter_schema() {
  auto die = object("a die with its own package and heat sink",
                    {opt("blocks", list_of(str("floorplan block"), "its floorplan blocks (default: the block named "
                                                                   "like the die)")),
                     opt("package", object("changes to thermal.package for this die (same keys; r_convec at the "
                                           "fans' reference speed)",
                                           package_schema()->fields)),
                     opt("sink", object("changes to datacenter.sink for this die (same keys); given alone, this "
                                        "die's sink and fan set its r_convec",
                                        sink_schema("")->fields))});
  auto fan = object(
      "the fans of each stream (affinity laws: flow ~ speed, power ~ speed^3)",
      {opt("flow", quantity(dims::volume_flow(), "air flow through one stream at speed 1", "0.02 m^3/s")),
       opt("power", quantity(dims::power(), "electrical power of one stream's fans at speed 1", "15 W", 0.0, false)),
       opt("speed", number("relative speed when no thermal zone cools the fans", "1", 0.01)),
       opt("min_speed", number("lowest speed when a zone cools the fans (cooling state 0)", "0.3", 0.01)),
       opt("max_speed", number("highest speed when a zone cools the fans", "1", 0.01)),
       opt("levels", integer("speeds from min_speed to max_speed evenly: the fans' cooling states", "8", 2, 1000))});
  return object(
      "datacenter air path (model: datacenter): every die under its own HotSpot package and heat sink; the sinks of a "
      "stream in series, each inlet preheated by the heat upstream (Q / (m_dot c_p)); the fans set every sink's "
      "convection resistance (r_convec * speed^-flow_exponent) and draw fan power (a `fans` row of power)",
      {req("dies", map_of(die, "dies by name")),
       req("streams", map_of(list_of(str("die"), "dies upstream first"), "air streams by name")),
       opt("fan", fan),
       opt("flow_exponent", number("n in r_convec ~ flow^-n (turbulent: 0.8)", "0.8", 0.0)),
       opt("sink", sink_schema("heat sink and fan of every die (HotSpot's -package_model_used 1, forced "
                               "convection): each die's r_convec from its sink's fins or pins (over s_sink, k_sink) "
                               "and the fan at rpm * speed, instead of r_convec * speed^-flow_exponent"))});
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
                 opt("model", enumeration(detail::names_of(detail::thermal_models),
                                          "package around the floorplan: HotSpot's block model, a phone (die under a "
                                          "frame, battery and case with skin nodes), or a datacenter air path (dies "
                                          "with own packages and heat sinks in series, fans)",
                                          "hotspot")),
                 opt("phone", phone_schema()),
                 opt("datacenter", datacenter_schema()),
                 opt("initial", enumeration(detail::names_of(detail::initial_states),
                                            "initial temperatures: the ambient, the steady state of the first control "
                                            "period's power, or initial_file",
                                            "ambient")),
                 opt("initial_file", str("HotSpot .steady / -init_file (name and kelvin per line, every node of the "
                                         "model), relative to the scenario file")),
                 opt("solver", solver)});
}

// policy.power_cap: one platform-wide cap.
schema_ptr power_cap_schema() {
  return object(
      "power capping on the platform's power (RAPL PL1/PL2 style, a board limit, or a two-threshold datacenter cap)",
      {req("limit", quantity(dims::power(), "limit on the average platform power over `window` (PL1; the hard threshold)")),
       opt("window", quantity(dims::time(), "averaging window of `limit` (at most 1e6 control periods)", "1 s")),
       opt("short_limit", quantity(dims::power(), "short-term limit (PL2)")),
       opt("short_window", quantity(dims::time(), "averaging window of `short_limit` (at most 1e6 control periods)", "10 ms")),
       opt("soft_limit", quantity(dims::power(), "first threshold: only `low_priority` domains are cut to meet it")),
       opt("settle", quantity(dims::time(), "time over which the average is brought back to the limit", "50 ms")),
       opt("domains", list_of(str("DVFS domain"), "capped domains (default: every domain but memory domains)")),
       opt("low_priority", list_of(str("DVFS domain"), "domains cut first at the soft limit"))});
}

// policy.limits.<domain>: what an operator sets on one DVFS domain.
schema_ptr domain_limits_schema() {
  return object(
      "limits an operator sets on a DVFS domain (Linux scaling_min/max_freq; nvidia-smi -lgc, -pl): the domain runs "
      "at the lowest of its governor's request and every ceiling (thermal, power_cap, power), kept within "
      "[min_freq, max_freq] except that a thermal or power ceiling below min_freq wins",
      {opt("min_freq", quantity(dims::frequency(), "lowest frequency any governor may request (an OPP of the domain; "
                                "a value between two rounds up, as the driver does)")),
       opt("max_freq", quantity(dims::frequency(), "highest frequency any governor may request (a value between two "
                                "OPPs rounds down); min_freq = max_freq locks the clock")),
       opt("power", quantity(dims::power(), "board power limit: the average power of `components` over `window` "
                             "(within the domain's min_power_limit .. max_power_limit when it states them)")),
       opt("window", quantity(dims::time(), "averaging window of `power` (default: the 100 ms update period of "
                              "A100/H100 board power sensors, Yang et al. SC'24; at most 1e6 control periods)",
                              "100 ms")),
       opt("settle", quantity(dims::time(), "time over which the limiter brings the average back to `power` "
                              "(illustrative)", "25 ms")),
       opt("recovery", quantity(dims::time(), "time the limiter takes to raise the clock back across the domain's "
                                "whole OPP table after a cut, a share of that per control period (cuts act at once); "
                                "0: at once", "0 s", 0.0, false)),
       opt("memory_freq", quantity(dims::frequency(), "locks the clock of this domain's memory (nvidia-smi -lmc): "
                                   "min_freq = max_freq of the memory DVFS domain its units' traffic goes to (an "
                                   "OPP of that domain; a value between two rounds down)")),
       opt("components", list_of(str("platform component"),
                                 "the board the limit covers (default: the domain's compute units and the components "
                                 "they name as connect, fabric or io that no unit of another domain names: for a "
                                 "GPU, its memory and links)"))});
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
  // One zone's keys: the main zone (policy.thermal) cools every DVFS domain unless it
  // names its devices; a zone of policy.thermal_zones names them and its trip point.
  auto zone = [&](bool main) {
    auto cooling = list_of(str("a DVFS domain (a key of platform.domains), or fans (thermal.model: datacenter)"),
                           main ? "cooling devices (default: every DVFS domain but memory domains)"
                                : "cooling devices: DVFS domains, or fans; a domain cooled by several zones runs at "
                                  "the lowest of their ceilings, the fans at the fastest speed asked");
    auto trip = ranged(temperature("temperature to regulate to (step_wise's passive trip, IPA's control)",
                                   main ? std::optional<std::string>("85 degC") : std::nullopt),
                       173.15, 773.15, 273.15, 423.15);
    return object(
        main ? "the main thermal zone (Linux thermal framework)" : "a thermal zone: sensor, governor, cooling devices",
        {opt("governor", enumeration(tgovs, "thermal governor", main ? "none" : "step_wise")),
         opt("tunables", map_of(number("tunable value"), "the governor's tunables by name (`ptsim list governors`)")),
         main ? opt("control_temp", trip) : req("control_temp", trip),
         opt("switch_on_temp", ranged(temperature("IPA switch-on temperature (default control_temp - 10 K)"), 173.15,
                                      773.15, 273.15, 423.15)),
         opt("hysteresis", quantity(dims::temperature(), "trip hysteresis", "2 K", 0.0, false)),
         opt("polling_period", quantity(dims::time(), "governor period (passive delay)", "100 ms")),
         opt("sustainable_power", quantity(dims::power(), "IPA sustainable power (default: estimated)")),
         opt("sensor", sensor), main ? opt("cooling", cooling) : req("cooling", cooling)});
  };
  auto thermal = retiring(zone(true), {{"domains", "'domains' is now 'cooling' (the same list of DVFS domains; "
                                                   "it may also name fans)"}});
  auto power_cap = power_cap_schema();
  auto limits = domain_limits_schema();
  return retiring(
      object("DVFS and thermal policy",
             {opt("governor", enumeration(govs, "cpufreq governor of every domain without its own", "schedutil")),
              opt("memory_governor", enumeration(govs, "governor of every memory DVFS domain (a domain clocking "
                                                       "memories) without its own in governors: simple_ondemand is "
                                                       "Linux devfreq's", "performance")),
              opt("devfreq_governor", enumeration(govs, "governor of every devfreq device domain (a domain clocking a "
                                                        "mobile_gpu) without its own in governors: simple_ondemand, as "
                                                        "Mali's kbase devfreq", "simple_ondemand")),
              opt("governors", map_of(one_of({gov_name, gov_obj}, "governor name, or {governor, tunables}"),
                                      "per-domain cpufreq governor overrides (a key with * ? or [...] sets every "
                                      "domain it matches, a domain's own entry winning)")),
              opt("thermal", thermal),
              opt("thermal_zones", map_of(zone(false), "more thermal zones by name (their name in the results' zone "
                                                       "labels), polled each at its own period")),
              opt("power_cap", power_cap),
              opt("limits", map_of(limits, "per-domain limits by DVFS domain name; a name with * ? or [...] (shell "
                                           "wildcards, as in `--set \"policy.limits.gpu*.power=300 W\"`) sets "
                                           "every domain it matches, a domain's own entry winning")),
              opt("scheduler",
                  enumeration({"auto", "busy_share", "eas"},
                              "what schedutil reads on CPU clusters: busy_share, the domain's busy time; eas, the PELT "
                              "utilisation of tasks (every stage on CPU clusters runs as a task, placed by energy-aware "
                              "scheduling when parallel: energy_aware; an llm stream's host work given llm.host.units too); auto: eas "
                              "when a stage is energy_aware, an llm.host.units or a uclamp is given",
                              "auto"))}),
      {{"fan_zone", "policy.fan_zone is now a zone of policy.thermal_zones that cools the fans: write "
                    "'thermal_zones: { fans: { control_temp: \"70 degC\", polling_period: \"1 s\", cooling: [fans] } }' "
                    "(its other keys as before; a zone's polling_period defaults to 100 ms, fan_zone's was 1 s)"}});
}

}  // namespace

schema_ptr scenario_schema() {
  // Rebuilt when a governor has been registered since (its name joins the enumeration).
  static std::size_t built_for = 0;
  // Never destroyed: freeing its nodes at exit was ~0.3 M instructions, 2 % of `ptsim
  // validate`. Reachable from this static, so no leak checker reports it.
  static schema_ptr& root = *new schema_ptr;
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
       // A platform preset (scenarios/presets/) has no workload of its own: say what to run.
       [] {
         field f = req("workload", workload_schema());
         f.missing_note = "a file without one describes a platform, as the presets do; run a scenario that "
                          "extends it with a workload, as scenarios/node-*.yaml and server-*.yaml do";
         return f;
       }(),
       req("thermal", thermal_schema()),
       opt("policy", policy_schema()),
       opt("measure",
           object("the measurement window: every summary figure covers it alone (warm-up excluded); the "
                  "timeseries, jobs and events keep the whole run",
                  {opt("from", ranged(quantity(dims::time(), "start of the window (a whole multiple of "
                                               "record_period, before the end of the run)", "0 s"),
                                      0.0, std::nullopt))})),
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
