// Scenario reader: the workload (streams, stages, models, graph and trace files).
#include "enum_tables.hpp"
#include "graph_file.hpp"
#include "resolve_sections.hpp"
#include "ptsim/tlm_config/autocast.hpp"
#include "ptsim/tlm_config/layout.hpp"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cstdio>
#include <cmath>
#include <filesystem>
#include <limits>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "ptsim/power/compute_power.hpp"
#include "ptsim/power/dt_opp.hpp"
#include "ptsim/power/energy_model.hpp"
#include "ptsim/text/input_file.hpp"
#include "ptsim/thermal/floorplan_builder.hpp"
#include "ptsim/thermal/plant.hpp"
#include "ptsim/tlm_config/fusion.hpp"
#include "ptsim/tlm_config/model_zoo.hpp"
#include "ptsim/tlm_config/operators.hpp"
#include "ptsim/tlm_config/topology.hpp"
#include "ptsim/tlm_config/training.hpp"

namespace ptsim::scenarios::detail {

namespace fs = std::filesystem;

namespace {

// The platform's compute unit of this name, or null.
const tlm_config::compute_unit_config* unit_named(const scenario& sc, const std::string& name) {
  for (const auto& u : sc.platform.units)
    if (u.name == name) return &u;
  return nullptr;
}

// arrival_s,prompt_tokens,output_tokens per line (commas or blanks between); '#' comments.
// The first line is a header only when none of its fields is a number: a first line of
// data is data, and a first line that is half numbers is an error like any other.
bool read_trace(const fs::path& path, std::vector<tlm_config::trace_entry>& out, std::string& error) {
  if (auto problem = text::input_file_problem(path))
    return error = "cannot open the trace file '" + path.string() + "': " + *problem, false;
  std::ifstream in(path);
  if (!in) return error = "cannot open the trace file '" + path.string() + "'", false;
  std::string line;
  int n = 0;
  bool seen_content = false;
  double last = 0;
  const auto where = [&](int col) {
    return path.string() + ":" + std::to_string(n) + (col > 0 ? ":" + std::to_string(col) : std::string()) + ": ";
  };
  while (std::getline(in, line)) {
    ++n;
    if (n == 1 && line.compare(0, 3, "\xEF\xBB\xBF") == 0) line.erase(0, 3);  // UTF-8 byte-order mark
    if (auto h = line.find('#'); h != std::string::npos) line.erase(h);
    // Fields and their columns (1-based).
    std::vector<std::pair<std::string, int>> fields;
    for (std::size_t p = 0; p < line.size();) {
      const std::size_t b = line.find_first_not_of(" \t\r,", p);
      if (b == std::string::npos) break;
      std::size_t e = line.find_first_of(" \t\r,", b);
      if (e == std::string::npos) e = line.size();
      fields.emplace_back(line.substr(b, e - b), static_cast<int>(b) + 1);
      p = e;
    }
    if (fields.empty()) continue;
    const auto number = [](const std::string& t, double& v) {
      char* end = nullptr;
      v = std::strtod(t.c_str(), &end);
      return end != t.c_str() && *end == '\0' && std::isfinite(v);
    };
    double v[3] = {0, 0, 0};
    int numeric = 0;
    for (std::size_t f = 0; f < fields.size() && f < 3; ++f) numeric += number(fields[f].first, v[f]) ? 1 : 0;
    if (!seen_content && numeric == 0) {  // a header: names, no numbers
      seen_content = true;
      continue;
    }
    seen_content = true;
    if (fields.size() != 3)
      return error = where(0) + "expected 3 fields arrival_s,prompt_tokens,output_tokens, found " +
                     std::to_string(fields.size()),
             false;
    for (int f = 0; f < 3; ++f) {
      double x;
      if (!number(fields[f].first, x))
        return error = where(fields[f].second) + "expected a number, found '" + fields[f].first + "'", false;
    }
    if (!(v[0] >= 0))
      return error = where(fields[0].second) + "an arrival time must be >= 0 s, found '" + fields[0].first + "'",
             false;
    for (int f = 1; f < 3; ++f)
      if (!(v[f] >= 1 && v[f] <= 2147483647.0 && v[f] == std::floor(v[f])))
        return error = where(fields[f].second) + "a token count must be a whole number from 1 to 2147483647, found '" +
                       fields[f].first + "'",
               false;
    if (v[0] < last)
      return error = where(fields[0].second) + "arrivals must not go back in time (" + fields[0].first +
                     " s after " + fmt_g(last) + " s)",
             false;
    tlm_config::trace_entry e;
    e.arrival_s = v[0];
    e.prompt_tokens = static_cast<int>(v[1]);
    e.output_tokens = static_cast<int>(v[2]);
    last = e.arrival_s;
    out.push_back(e);
  }
  if (out.empty()) return error = "the trace file '" + path.string() + "' holds no requests", false;
  return true;
}

// {bins, counts}: a published length distribution (ML.ENERGY's output_length_distribution).
// Problems are reported (the loader collects them) and a fixed count of 1 stands in.
tlm_config::token_range resolve_histogram(const view& v) {
  const tlm_config::token_range bad{1, 1};
  const auto bins = v.at("bins").items(), counts = v.at("counts").items();
  if (bins.size() < 2) {
    v.fail("expected at least 2 bin edges (one bin), found " + std::to_string(bins.size()), "bins");
    return bad;
  }
  if (counts.size() + 1 != bins.size()) {
    v.fail("expected " + std::to_string(bins.size() - 1) + " counts (one per bin between " +
               std::to_string(bins.size()) + " edges), found " + std::to_string(counts.size()),
           "counts");
    return bad;
  }
  tlm_config::token_range r;
  for (std::size_t i = 0; i < bins.size(); ++i) {
    r.edges.push_back(std::strtod(bins[i].scalar().c_str(), nullptr));
    if (i > 0 && !(r.edges[i] > r.edges[i - 1])) {
      bins[i].fail("bin edges must increase: " + bins[i].scalar() + " follows " + bins[i - 1].scalar());
      return bad;
    }
  }
  std::vector<double> w;
  for (const auto& c : counts) w.push_back(std::strtod(c.scalar().c_str(), nullptr));
  double sum = 0;
  for (double x : w) sum += x;
  if (!(sum > 0)) {
    v.fail("expected counts with a positive sum, found all zero", "counts");
    return bad;
  }
  double run = 0;
  for (double x : w) r.cumulative.push_back((run += x) / sum);
  r.cumulative.back() = 1.0;
  // The smallest and largest integers it can draw, from the first and last bins with a
  // count (the KV-cache check sizes the longest request).
  std::size_t first = 0, last = w.size() - 1;
  while (!(w[first] > 0)) ++first;
  while (!(w[last] > 0)) --last;
  r.min = r.bin_integers(first).first;
  r.max = r.bin_integers(last).second;
  return r;
}

tlm_config::token_range resolve_tokens(const view& s, const std::string& key, int def) {
  if (!s.has(key)) return {def, def};
  const view v = s.at(key);
  if (v.is_scalar()) {
    const int n = static_cast<int>(std::strtol(v.scalar().c_str(), nullptr, 10));
    return {n, n};
  }
  const bool hist = v.has("bins") || v.has("counts");
  if (hist) {
    for (const char* k : {"min", "max"})
      if (v.has(k)) {
        v.fail("give {min, max} or {bins, counts}, not both (a derived scenario that draws from a histogram "
               "where its base gave a range removes the range with 'min: null, max: null')",
               k);
        return {1, 1};
      }
    for (const char* k : {"bins", "counts"})
      if (!v.has(k)) {
        v.fail(std::string("a histogram needs both bins and counts; ") + k + " is missing");
        return {1, 1};
      }
    return resolve_histogram(v);
  }
  for (const char* k : {"min", "max"})
    if (!v.has(k)) {
      v.fail(std::string("expected {min, max} or {bins, counts}; ") + k + " is missing");
      return {1, 1};
    }
  tlm_config::token_range r{static_cast<int>(v.integer("min")), static_cast<int>(v.integer("max"))};
  if (r.max < r.min) v.fail("max is below min", "max");
  return r;
}

// The host software section of an llm stream or a stage; its unit defaults to the
// platform's first CPU cluster (the serving engine's process runs on the host).
void resolve_host(const view& s, const scenario& sc, bool serving, tlm_config::host_work_config& h) {
  if (!s.has("host")) return;
  const view v = s.at("host");
  if (v.has("units")) {
    // A task over CPU clusters (serving only: the schema has no units for a stage's host).
    if (v.has("unit")) v.fail("give unit (fixed seconds on one unit) or units (a task placed by EAS), not both", "units");
    const auto items = v.at("units").items();
    if (items.empty()) v.fail("units lists no CPU cluster", "units");
    for (const auto& it : items) {
      const std::string n = it.scalar();
      const tlm_config::compute_unit_config* found = unit_named(sc, n);
      if (!found) it.fail("'" + n + "' is not a compute unit of the platform");
      else if (found->kind != "cpu_cluster") it.fail("'" + n + "' is a " + found->kind + ": host work placed by EAS runs on cpu_cluster units");
      else if (std::find(h.units.begin(), h.units.end(), n) != h.units.end()) it.fail("'" + n + "' is listed twice");
      else h.units.push_back(n);
    }
    if (!h.units.empty()) h.unit = h.units.front();
  } else if (v.has("unit")) {
    h.unit = v.str("unit");
    if (!unit_named(sc, h.unit)) v.fail("'" + h.unit + "' is not a compute unit of the platform", "unit");
  } else {
    for (const auto& u : sc.platform.units)
      if (u.kind == "cpu_cluster") {
        h.unit = u.name;
        break;
      }
    if (h.unit.empty()) v.fail("the platform has no cpu_cluster to run the host work on: name a unit", "unit");
  }
  h.scheduling = v.str("scheduling") == "asynchronous" ? tlm_config::host_scheduling::asynchronous
                                                       : tlm_config::host_scheduling::synchronous;
  h.cores = static_cast<int>(v.integer("cores"));
  if (serving) {
    h.per_iteration_s = v.si("per_iteration");
    h.per_sequence_s = v.si("per_sequence");
    h.per_token_s = v.si("per_token");
    h.cuda_graphs = v.boolean("cuda_graphs");
    h.graph_launch_s = v.si("graph_launch");
  } else {
    h.per_iteration_s = v.si("per_step");
  }
}

// A stage's or llm stream's fusion rule set: its own key, else its (first) unit's.
tlm_config::fusion_rules fusion_of(const view& v, const scenario& sc, const std::string& unit) {
  if (v.has("fusion")) return tlm_config::parse_fusion_rules(v.str("fusion"));
  const tlm_config::compute_unit_config* u = unit_named(sc, unit);
  return u ? u->fusion : tlm_config::fusion_rules::eager;
}

// The KV cache's share of memory, as the stream's serving engine sizes it (llm_config::kv_share).
void resolve_kv_share(const view& l, tlm_config::llm_config& c) {
  if (!l.has("kv_cache_free_fraction")) {
    c.kv_share = l.num("memory_utilization");
    return;
  }
  if (l.has("memory_utilization"))
    l.fail("give memory_utilization (a share of the whole memory, weights included: vLLM's gpu_memory_utilization) "
           "or kv_cache_free_fraction (a share of what the weights leave: TensorRT-LLM's "
           "kv_cache_free_gpu_mem_fraction), not both",
           "kv_cache_free_fraction");
  if (l.has("kv_cache"))
    l.fail("kv_cache sets the KV cache's size; kv_cache_free_fraction would size it from memory: give one",
           "kv_cache_free_fraction");
  c.kv_share = l.num("kv_cache_free_fraction");
  c.kv_share_of_free = true;
}

void resolve_llm(const view& l, const view& stream, const scenario& sc, tlm_config::stream_config& st) {
  st.is_llm = true;
  tlm_config::llm_config& c = st.llm;
  tlm_config::model_params params;
  for (const auto& [k, v] : l.at("params").entries()) params[k] = std::strtod(v.scalar().c_str(), nullptr);
  try {
    c.shape = tlm_config::decoder_model(l.str("model"), params);
  } catch (const std::invalid_argument& e) {
    l.fail(e.what(), "params");
  }
  for (const auto& u : l.at("units").items()) c.units.push_back(u.scalar());
  c.tensor_parallel = static_cast<int>(l.integer("tensor_parallel"));
  c.pipeline_parallel = static_cast<int>(l.integer("pipeline_parallel"));
  c.weights = tlm_config::parse_precision(l.str("weights"));
  c.kv = tlm_config::parse_precision(l.str("kv_precision"));
  c.max_batch = st.batching.max_batch;
  c.max_batched_tokens = static_cast<int>(l.integer("max_batched_tokens"));
  c.chunked_prefill = l.boolean("chunked_prefill");
  c.kv_cache_bytes = l.has("kv_cache") ? l.si("kv_cache") : 0;
  c.reserved_bytes = l.si("reserved_memory");
  resolve_kv_share(l, c);
  c.kv_paged = l.str("kv_allocation") == "paged";
  c.kv_block_tokens = static_cast<int>(l.integer("kv_block"));
  c.layer_groups = static_cast<int>(l.integer("layer_groups"));
  c.fusion = fusion_of(l, sc, c.units.empty() ? std::string() : c.units.front());
  c.decode_attention = tlm_config::parse_decode_attention(l.str("decode_attention"));
  c.prompt_tokens = resolve_tokens(l, "prompt_tokens", 128);
  c.output_tokens = resolve_tokens(l, "output_tokens", 128);
  if (c.max_batched_tokens < c.max_batch)
    l.fail("max_batched_tokens must hold a decode token of every sequence in the batch (>= batching.max_batch = " +
               std::to_string(c.max_batch) + ")",
           "max_batched_tokens");
  if (st.batching.kind == tlm_config::batching_kind::dynamic)
    stream.fail("llm streams batch continuously (or statically), not dynamically", "batching");
}

tlm_config::uclamp_range resolve_uclamp(const view& v) {
  tlm_config::uclamp_range r;
  r.min = static_cast<std::uint32_t>(v.integer("min"));
  r.max = static_cast<std::uint32_t>(v.integer("max"));
  // As sched_setattr(2): a floor above the ceiling is refused (EINVAL).
  if (r.min > r.max) v.fail("min (" + std::to_string(r.min) + ") is above max (" + std::to_string(r.max) + ")", "min");
  return r;
}

void resolve_stage(const view& stage, const std::string& stream_prec, const scenario& sc, tlm_config::stage_config& sg) {
  if (stage.has("unit") == stage.has("units")) stage.fail("give unit or units (one of them)", "unit");
  if (stage.has("unit")) sg.unit = stage.str("unit");
  for (const auto& u : stage.at("units").items()) sg.units.push_back(u.scalar());
  if (!sg.units.empty()) sg.unit = sg.units.front();
  const std::string par = stage.str("parallel");
  sg.parallel = value_of(parallel_kinds, par);
  if (sg.parallel == tlm_config::parallel_kind::single && sg.units.size() > 1)
    stage.fail("several units need parallel: replicas, data or energy_aware", "parallel");
  if (sg.parallel == tlm_config::parallel_kind::energy_aware)
    for (const auto& n : sg.all_units())
      if (const auto* u = unit_named(sc, n); u && u->kind != "cpu_cluster")
        stage.fail("energy_aware places tasks on CPU clusters; '" + n + "' is a " + u->kind, "units");
  if (stage.has("uclamp")) {
    sg.has_uclamp = true;
    sg.uclamp = resolve_uclamp(stage.at("uclamp"));
  }
  const tlm_config::precision prec = tlm_config::parse_precision(stage.has("precision") ? stage.str("precision") : stream_prec);
  if (stage.has("model") == stage.has("graph")) {
    stage.fail("give model or graph (one of them)", "model");
    return;
  }
  if (stage.has("model")) {
    tlm_config::model_params params;
    for (const auto& [k, v] : stage.at("params").entries()) params[k] = std::strtod(v.scalar().c_str(), nullptr);
    try {
      sg.graph = tlm_config::build_model(stage.str("model"), params, prec);
    } catch (const std::invalid_argument& e) {
      stage.fail(e.what(), "params");
      return;
    }
    const tlm_config::model_info* mi = tlm_config::find_model(stage.str("model"));
    bool has_batch = false;
    for (const auto& p : mi->params) has_batch |= p.name == "batch";
    sg.per_request_batch = !has_batch ? 1 : params.count("batch") ? params.at("batch") : 1;
  } else {
    if (stage.has("params")) stage.fail("params go with a model, not a graph file", "params");
    std::string error;
    if (!read_graph(relative_to_writer(sc, stage, "graph"), prec, sg.graph, error)) stage.fail(error, "graph");
  }
  resolve_host(stage, sc, false, sg.host);
  const tlm_config::fusion_rules fusion = fusion_of(stage, sc, sg.unit);
  if (fusion != tlm_config::fusion_rules::eager) sg.graph = tlm_config::fuse(sg.graph, fusion);
  // A framework's mixed precision on a GPU (PyTorch's autocast) casts the fp32 weights every
  // forward pass; an inference compiler holds them in the precision it computes in. A graph
  // file lists its kernels as they run: neither this nor the layout's transposes are added.
  const tlm_config::compute_unit_config* stage_unit = unit_named(sc, sg.unit);
  const bool framework_gpu = stage.has("model") && fusion != tlm_config::fusion_rules::tensorrt && stage_unit &&
                             stage_unit->kind == "gpu";
  if (framework_gpu && stage.boolean("autocast")) sg.graph = tlm_config::with_autocast_casts(sg.graph);
  if (stage.has("training")) {
    tlm_config::training_options t;
    const view tv = stage.at("training");
    t.data_parallel = sg.parallel == tlm_config::parallel_kind::data ? static_cast<int>(sg.all_units().size()) : 1;
    t.gradients = tlm_config::parse_precision(tv.str("gradients"));
    t.bucket_bytes = tv.si("bucket");
    t.accumulation_steps = static_cast<int>(tv.integer("accumulation"));
    sg.graph = tlm_config::training_step(sg.graph, t);
    // A step trains on every rank's micro-batches.
    sg.per_request_batch *= t.accumulation_steps * t.data_parallel;
    sg.training = true;
  }
  // A framework's convolutions on a GPU's tensor cores pay cuDNN's transposes for NCHW
  // tensors; an inference compiler (tensorrt) picks its own layouts.
  if (framework_gpu && tlm_config::parse_memory_format(stage.str("memory_format")) == tlm_config::memory_format::nchw)
    sg.graph = tlm_config::with_layout_transposes(sg.graph, *stage_unit);
  for (auto& o : sg.graph.ops) o.rules = fusion;
  if (stage.has("input")) {
    const view in = stage.at("input");
    sg.graph.ops.insert(sg.graph.ops.begin(), tlm_config::transfer_op("input", in.str("from"), in.si("bytes"), 0));
  }
}

}  // namespace

void resolve_workload(const view& w, const view& platform, scenario& sc) {
  std::vector<std::pair<std::string, view>> stream_views;
  for (const auto& [name, s] : w.at("streams").entries()) {
    stream_views.emplace_back(name, s);
    tlm_config::stream_config st;
    st.name = name;
    view arr = s.at("arrival");
    const std::string kind = arr.str("kind");
    st.arrival = value_of(arrival_kinds, kind);
    if (kind == "fixed_rate" || kind == "poisson") {
      if (!arr.has("rate")) arr.fail("a " + kind + " stream needs a rate (e.g. \"30 Hz\")", "rate");
      else st.rate = units::hertz(arr.si("rate"));
    }
    st.start = units::seconds(arr.si("start"));
    st.users = static_cast<int>(arr.integer("users"));
    st.think_time = units::seconds(arr.si("think_time"));
    st.think_exponential = arr.str("think") == "exponential";
    if (kind == "trace") {
      std::string error;
      if (!arr.has("file")) arr.fail("a trace stream needs a file", "file");
      else if (!read_trace(relative_to_writer(sc, arr, "file"), st.trace, error)) arr.fail(error, "file");
    }
    st.queue_limit = static_cast<int>(s.integer("queue_limit"));
    const view b = s.at("batching");
    const std::string bk = b.str("kind");
    st.batching.kind = value_of(batching_kinds, bk);
    st.batching.max_batch = static_cast<int>(b.integer("max_batch"));
    st.batching.timeout = units::seconds(b.si("timeout"));
    if (s.has("llm") == s.has("stages")) {
      s.fail("a stream needs stages, or llm (one of them)", "stages");
      continue;
    }
    if (s.has("uclamp")) st.uclamp = resolve_uclamp(s.at("uclamp"));
    if (s.has("llm")) {
      resolve_llm(s.at("llm"), s, sc, st);
      resolve_host(s.at("llm"), sc, true, st.llm.host);
      // An llm stream's only task is its host work's.
      if (s.has("uclamp") && st.llm.host.units.empty())
        s.fail("uclamp on an llm stream clamps its host work's task: give llm.host.units", "uclamp");
    } else {
      if (st.batching.kind == tlm_config::batching_kind::continuous)
        b.fail("continuous batching is for llm streams; use static or dynamic", "kind");
      const std::string stream_prec = s.str("precision");
      for (const auto& stage : s.at("stages").items()) {
        tlm_config::stage_config sg;
        resolve_stage(stage, stream_prec, sc, sg);
        st.stages.push_back(std::move(sg));
      }
      if (st.stages.empty()) s.fail("a stream needs at least one stage", "stages");
    }
    sc.workload.streams.push_back(std::move(st));
  }
  // KV caches not sized in the file take what their memory has left (after every
  // stream's weights are known), then the whole placement is checked.
  for (std::size_t i = 0; i < sc.workload.streams.size(); ++i) {
    auto& st = sc.workload.streams[i];
    if (!st.is_llm || st.llm.kv_cache_bytes > 0) continue;
    const view l = stream_views[i].second.at("llm");
    st.llm.kv_cache_bytes = std::max(0.0, tlm_config::default_kv_cache_bytes(sc.platform, sc.workload, st));
  }
  // Report each problem at the component, stream or stage it names, at the key at fault.
  for (const tlm_config::platform_problem& p : tlm_config::check_platform(sc.platform, sc.workload)) {
    bool placed = false;
    for (const auto& [name, sv] : stream_views) {
      if (placed || p.component != "stream " + name) continue;
      placed = true;
      if (p.stage < 0) {
        sv.fail(p.message, p.key);
        continue;
      }
      const auto stages = sv.at("stages").items();
      if (p.stage >= static_cast<int>(stages.size())) {
        sv.fail(p.message, "stages");
        continue;
      }
      const view& st = stages[static_cast<std::size_t>(p.stage)];
      st.fail(p.message, st.has(p.key) ? p.key : (st.has("units") ? "units" : "unit"));
    }
    for (const auto& [name, c] : platform.at("components").entries())
      if (!placed && p.component == name) c.fail(p.message, p.key), placed = true;
    if (!placed) platform.fail(p.text());
  }
}

void resolve_scheduler(const view& policy, const view& workload, scenario& sc) {
  const std::string mode = policy.str("scheduler");
  // energy_aware placement and uclamp act on tasks: either one asks for the scheduler.
  bool energy_aware = false, clamped = false, host_tasks = false;
  for (const auto& st : sc.workload.streams) {
    clamped |= st.uclamp.min != 0 || st.uclamp.max != tlm_config::capacity_scale;
    host_tasks |= st.is_llm && !st.llm.host.units.empty();
    for (const auto& sg : st.stages) {
      energy_aware |= sg.parallel == tlm_config::parallel_kind::energy_aware;
      clamped |= sg.has_uclamp;
    }
  }
  if (mode == "busy_share" && energy_aware)
    policy.fail("parallel: energy_aware places tasks by their utilisation: it needs scheduler: eas (or auto)",
                "scheduler");
  if (mode == "busy_share" && clamped)
    policy.fail("uclamp clamps the utilisation of tasks: it needs scheduler: eas (or auto)", "scheduler");
  if (mode == "busy_share" && host_tasks)
    policy.fail("llm.host.units runs the host work as a task placed by its utilisation: it needs scheduler: eas (or "
                "auto)", "scheduler");
  if (mode == "busy_share" || (mode == "auto" && !energy_aware && !clamped && !host_tasks)) return;
  tlm_config::sched_config& cfg = sc.workload.scheduler;
  cfg.enabled = true;
  // Every CPU cluster is a runqueue; the DVFS domains they are in are the performance domains.
  std::vector<double> dmips, fmax;
  for (const auto& u : sc.platform.units) {
    if (u.kind != "cpu_cluster") continue;
    std::size_t d = 0;
    while (d < sc.domains.size() && sc.domains[d].name != u.domain) ++d;
    if (d == sc.domains.size()) continue;  // a unit without a domain has already been refused
    std::size_t pd = 0;
    while (pd < cfg.domains.size() && cfg.domains[pd].name != u.domain) ++pd;
    const power::opp_table& opps = sc.domains[d].opps;
    // The energy model of one CPU, as the kernel's (per-CPU power against per-CPU capacity):
    // the unit's switched capacitance per core busy at each OPP, C V^2 f / cores. A cluster
    // runs its work over all its cores, so its energy per unit of work is the same ratio.
    double c_eff = 0;
    for (const auto& cp : sc.power)
      if (cp.component == u.name) c_eff = cp.compute.c_eff.value() / std::max(1, u.cores);
    if (pd == cfg.domains.size()) {
      tlm_config::sched_domain sd;
      sd.name = u.domain;
      for (std::size_t i = 0; i < opps.size(); ++i) {
        sd.freq_hz.push_back(opps.frequency_hz(i));
        sd.power_W.push_back(c_eff * opps.voltage_v(i) * opps.voltage_v(i) * opps.frequency_hz(i));
      }
      cfg.domains.push_back(std::move(sd));
    }
    cfg.cpus.push_back({u.name, pd, tlm_config::capacity_scale});
    dmips.push_back(u.capacity_dmips_mhz);
    fmax.push_back(opps.max_hz());
  }
  const auto caps = tlm_config::sched_config::capacities(dmips, fmax);
  for (std::size_t i = 0; i < caps.size(); ++i) cfg.cpus[i].capacity = caps[i];
  if (cfg.cpus.empty()) {
    if (energy_aware) workload.fail("parallel: energy_aware needs CPU clusters in the platform");
    policy.fail("scheduler: eas needs CPU clusters (kind cpu_cluster) in the platform", "scheduler");
  }
}

}  // namespace ptsim::scenarios::detail
