// Raw (validated YAML) -> resolved structs: defaults applied, units stripped once,
// cross-references (domains, connections, blocks) checked.
#include "resolve.hpp"
#include "kinds/component_kind.hpp"

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
#include "ptsim/thermal/floorplan_builder.hpp"
#include "ptsim/thermal/plant.hpp"
#include "ptsim/tlm/model_zoo.hpp"
#include "ptsim/tlm/operators.hpp"
#include "ptsim/tlm/topology.hpp"
#include "ptsim/tlm/training.hpp"

namespace ptsim::scenarios::detail {
namespace {

std::string fmt_g(double v) {
  char b[40];
  std::snprintf(b, sizeof b, "%.10g", v);
  return b;
}

// A period the control loop can only honour in whole control ticks: given explicitly and
// not a whole multiple, say what will happen instead of rounding silently.
void warn_unless_ticks(const view& v, const char* key, double value, double tick, bool rounds_up) {
  if (!v.has(key) || !(tick > 0)) return;
  const double n = value / tick;
  if (std::fabs(n - std::round(n)) <= 1e-9 * n) return;
  const double eff = (rounds_up ? std::ceil(n) : std::max(1.0, std::round(n))) * tick;
  v.warn(std::string(key) + " (" + fmt_g(value) + " s) is not a whole multiple of control_period (" + fmt_g(tick) +
             " s): it takes effect as " + fmt_g(eff) + " s",
         key);
}


void resolve_domains(const view& platform, scenario& sc) {
  for (const auto& [name, d] : platform.at("domains").entries()) {
    std::vector<power::opp> points;
    bool bad_point = false;
    for (const auto& o : d.at("opps").items()) {
      // One form per point: ptsim's quantities, or the device tree's integers (Hz, uV).
      const bool plain = o.has("freq") || o.has("volt"), dt = o.has("opp-hz") || o.has("opp-microvolt");
      if (plain && dt) {
        o.fail("give freq and volt, or opp-hz and opp-microvolt, not both forms", o.has("opp-hz") ? "opp-hz" : "opp-microvolt");
        bad_point = true;
      } else if (dt) {
        if (!o.has("opp-hz") || !o.has("opp-microvolt")) {
          o.fail(std::string("missing required key '") + (o.has("opp-hz") ? "opp-microvolt" : "opp-hz") +
                 "' (the device-tree form needs opp-hz and opp-microvolt)");
          bad_point = true;
          continue;
        }
        // opp-microvolt is the target, or <target min max>: the target is what runs.
        const view uv = o.at("opp-microvolt");
        long long target = 0;
        if (uv.is_scalar()) {
          target = o.integer("opp-microvolt");
        } else {
          const auto vals = uv.items();
          if (vals.size() != 1 && vals.size() != 3) {
            uv.fail("expected <target> or <target min max> (1 or 3 values), found " + std::to_string(vals.size()));
            bad_point = true;
            continue;
          }
          // Validated integers, possibly written as 1e6 or 800000.0: read them as numbers.
          const auto micro = [](const view& v) { return static_cast<long long>(std::strtod(v.scalar().c_str(), nullptr)); };
          target = micro(vals[0]);
          if (vals.size() == 3 && !(micro(vals[1]) <= target && target <= micro(vals[2]))) {
            uv.fail("the target voltage must lie within [min, max]");
            bad_point = true;
            continue;
          }
        }
        const power::opp_table one = power::opp_table_from_dt(
            {{static_cast<std::uint64_t>(o.integer("opp-hz")), static_cast<std::uint64_t>(target)}});
        points.push_back({units::hertz(one.frequency_hz(0)), units::volts(one.voltage_v(0))});
      } else if (!o.has("freq") || !o.has("volt")) {
        o.fail(std::string("missing required key '") + (o.has("freq") ? "volt" : "freq") +
               "' (an operating point needs freq and volt, or opp-hz and opp-microvolt)");
        bad_point = true;
      } else {
        points.push_back({units::hertz(o.si("freq")), units::volts(o.si("volt"))});
      }
    }
    if (bad_point) continue;
    power::dvfs_domain_config dc;
    dc.name = name;
    try {
      dc.opps = power::opp_table(points);
    } catch (const std::invalid_argument& e) {
      d.fail(std::string("bad operating points: ") + e.what(), "opps");
      continue;
    }
    dc.transition_latency = units::seconds(d.si("transition_latency"));
    sc.domains.push_back(std::move(dc));
  }
}

// Each component by its kind's descriptor (kinds/), then its place in the resolved
// scenario: its role's list, its power row, its DVFS domain.
void resolve_components(const view& platform, scenario& sc) {
  const view domains_view = platform.at("domains");
  std::vector<const view*> unknown_domain;
  const auto entries = platform.at("components").entries();
  for (const auto& [name, c] : entries) {
    const component_kind* kind = find_component_kind(c.str("kind"));
    if (!kind) continue;  // the schema reported it
    kind->resolve(name, c, domains_view, sc);
    component_ref ref;
    ref.name = name;
    ref.kind = kind->name;
    ref.role = kind->role;
    ref.power = sc.power.size() - 1;
    switch (kind->role) {
      case tlm::component_role::compute: ref.index = sc.platform.units.size() - 1; break;
      case tlm::component_role::interconnect: ref.index = sc.platform.interconnects.size() - 1; break;
      case tlm::component_role::target: ref.index = sc.platform.memories.size() - 1; break;
    }
    if (kind->role == tlm::component_role::compute) {
      const std::string& domain = sc.platform.units[ref.index].domain;
      for (std::size_t d = 0; d < sc.domains.size(); ++d)
        if (sc.domains[d].name == domain) ref.domain = d;
      if (ref.domain == component_ref::none) unknown_domain.push_back(&c);
    }
    sc.components.push_back(ref);
  }
  std::set<std::string> domains;
  for (const auto& d : sc.domains) domains.insert(d.name);
  std::string names;
  for (const auto& d : domains) names += (names.empty() ? "" : ", ") + d;
  for (const view* c : unknown_domain)
    c->fail("unknown DVFS domain '" + c->str("domain") + "' (domains: " + (names.empty() ? "none" : names) + ")",
            "domain");
}

// --- workload ----------------------------------------------------------------------

namespace fs = std::filesystem;

fs::path relative_to_scenario(const scenario& sc, const std::string& file) {
  const fs::path p(file);
  if (p.is_absolute() || sc.source.empty() || sc.source.find("(built in)") != std::string::npos) return p;
  return fs::path(sc.source).parent_path() / p;
}

// arrival_s,prompt_tokens,output_tokens per line (commas or blanks between); '#' comments.
// The first line is a header only when none of its fields is a number: a first line of
// data is data, and a first line that is half numbers is an error like any other.
bool read_trace(const fs::path& path, std::vector<tlm::trace_entry>& out, std::string& error) {
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
    tlm::trace_entry e;
    e.arrival_s = v[0];
    e.prompt_tokens = static_cast<int>(v[1]);
    e.output_tokens = static_cast<int>(v[2]);
    last = e.arrival_s;
    out.push_back(e);
  }
  if (out.empty()) return error = "the trace file '" + path.string() + "' holds no requests", false;
  return true;
}

// A custom graph: YAML `ops:` list, each op by its arithmetic and bytes, or by shape.
bool read_graph(const fs::path& path, tlm::precision prec, tlm::op_graph& g, std::string& error) {
  YAML::Node root;
  try {
    root = YAML::LoadFile(path.string());
  } catch (const YAML::Exception& e) {
    error = "cannot read the graph file '" + path.string() + "': " + e.what();
    return false;
  }
  g.name = root["name"] ? root["name"].as<std::string>() : path.stem().string();
  g.prec = prec;
  const YAML::Node ops = root["ops"];
  if (!ops || !ops.IsSequence() || ops.size() == 0) {
    error = path.string() + ": expected a non-empty list 'ops'";
    return false;
  }
  static const std::set<std::string> known = {"name",     "kind",     "class",   "flops",   "bytes_read",
                                              "bytes_written", "weight_bytes", "repeat", "m", "n", "k", "weights",
                                              "queries",  "attended", "kv_tokens", "heads", "kv_heads", "head_dim",
                                              "elements", "ops_per_element", "inputs", "collective", "bytes",
                                              "tokens", "width", "target"};
  for (std::size_t i = 0; i < ops.size(); ++i) {
    const YAML::Node n = ops[i];
    const std::string where = path.string() + ":" + std::to_string(n.Mark().line + 1) + ": ops[" + std::to_string(i) + "]";
    try {
      if (!n.IsMap()) throw std::invalid_argument("expected a mapping");
      for (auto it = n.begin(); it != n.end(); ++it)
        if (!known.count(it->first.as<std::string>()))
          throw std::invalid_argument("unknown key '" + it->first.as<std::string>() + "'");
      auto num = [&](const char* k, double def = -1) {
        if (!n[k]) {
          if (def < 0) throw std::invalid_argument(std::string("missing '") + k + "'");
          return def;
        }
        const double v = n[k].as<double>();
        if (!(v >= 0) || !std::isfinite(v)) throw std::invalid_argument(std::string("'") + k + "' must be a number >= 0");
        return v;
      };
      const std::string name = n["name"] ? n["name"].as<std::string>() : "op" + std::to_string(i);
      const tlm::op_kind kind = tlm::parse_op_kind(n["kind"] ? n["kind"].as<std::string>() : "other");
      tlm::op o;
      if (n["flops"]) {
        o.name = name;
        o.kind = kind;
        o.prec = prec;
        const std::string cls = n["class"] ? n["class"].as<std::string>() : "";
        o.cls = cls == "vector" ? tlm::op_class::vector
                : cls == "scalar" ? tlm::op_class::scalar
                : cls == "tensor" || kind == tlm::op_kind::gemm || kind == tlm::op_kind::conv ||
                        kind == tlm::op_kind::attention
                    ? tlm::op_class::tensor
                    : tlm::op_class::vector;
        o.ops = num("flops");
        o.bytes_read = num("bytes_read", 0);
        o.bytes_written = num("bytes_written", 0);
        o.weight_bytes = num("weight_bytes", 0);
        if (o.weight_bytes > o.bytes_read) throw std::invalid_argument("weight_bytes exceeds bytes_read");
      } else if (kind == tlm::op_kind::gemm) {
        o = tlm::gemm_op(name, num("m"), num("n"), num("k"), prec, num("weights", 1) != 0);
      } else if (kind == tlm::op_kind::attention) {
        o = tlm::attention_op(name, num("queries"), num("attended"), num("kv_tokens"), num("heads"),
                              num("kv_heads", num("heads")), num("head_dim"), prec, prec);
      } else if (kind == tlm::op_kind::embedding) {
        o = tlm::embedding_op(name, num("tokens"), num("width"), prec);
      } else if (kind == tlm::op_kind::collective) {
        const std::string c = n["collective"] ? n["collective"].as<std::string>() : "all_reduce";
        const tlm::collective_kind ck = c == "all_gather"       ? tlm::collective_kind::all_gather
                                        : c == "reduce_scatter" ? tlm::collective_kind::reduce_scatter
                                        : c == "all_reduce"     ? tlm::collective_kind::all_reduce
                                                                : throw std::invalid_argument(
                                                                      "collective must be all_reduce, all_gather or "
                                                                      "reduce_scatter");
        o = tlm::collective_op(name, ck, num("bytes"), prec);
      } else if (kind == tlm::op_kind::transfer) {
        if (!n["target"]) throw std::invalid_argument("missing 'target'");
        o = tlm::transfer_op(name, n["target"].as<std::string>(), num("bytes_read", 0), num("bytes_written", 0));
      } else if (n["elements"]) {
        o = tlm::elementwise_op(name, num("elements"), num("ops_per_element", 1), num("inputs", 1), prec, kind);
      } else {
        throw std::invalid_argument("give flops (with bytes_read, bytes_written) or the shape of a " +
                                    std::string(tlm::to_string(kind)) + " operator");
      }
      const double repeat = num("repeat", 1);
      if (repeat < 1) throw std::invalid_argument("'repeat' must be >= 1");
      if (kind == tlm::op_kind::collective) o.repeat = repeat;
      else tlm::fold(o, repeat);
      g.ops.push_back(o);
    } catch (const std::exception& e) {
      error = where + ": " + e.what();
      return false;
    }
  }
  return true;
}

tlm::token_range resolve_tokens(const view& s, const std::string& key, int def) {
  if (!s.has(key)) return {def, def};
  const view v = s.at(key);
  if (v.is_scalar()) {
    const int n = static_cast<int>(std::strtol(v.scalar().c_str(), nullptr, 10));
    return {n, n};
  }
  tlm::token_range r{static_cast<int>(v.integer("min")), static_cast<int>(v.integer("max"))};
  if (r.max < r.min) v.fail("max is below min", "max");
  return r;
}

void resolve_llm(const view& l, const view& stream, tlm::stream_config& st) {
  st.is_llm = true;
  tlm::llm_config& c = st.llm;
  tlm::model_params params;
  for (const auto& [k, v] : l.at("params").entries()) params[k] = std::strtod(v.scalar().c_str(), nullptr);
  try {
    c.shape = tlm::decoder_model(l.str("model"), params);
  } catch (const std::invalid_argument& e) {
    l.fail(e.what(), "params");
  }
  for (const auto& u : l.at("units").items()) c.units.push_back(u.scalar());
  c.tensor_parallel = static_cast<int>(l.integer("tensor_parallel"));
  c.weights = tlm::parse_precision(l.str("weights"));
  c.kv = tlm::parse_precision(l.str("kv_precision"));
  c.max_batch = st.batching.max_batch;
  c.max_batched_tokens = static_cast<int>(l.integer("max_batched_tokens"));
  c.chunked_prefill = l.boolean("chunked_prefill");
  c.kv_cache_bytes = l.has("kv_cache") ? l.si("kv_cache") : 0;
  c.layer_groups = static_cast<int>(l.integer("layer_groups"));
  c.prompt_tokens = resolve_tokens(l, "prompt_tokens", 128);
  c.output_tokens = resolve_tokens(l, "output_tokens", 128);
  if (c.max_batched_tokens < c.max_batch)
    l.fail("max_batched_tokens must hold a decode token of every sequence in the batch (>= batching.max_batch = " +
               std::to_string(c.max_batch) + ")",
           "max_batched_tokens");
  if (st.batching.kind == tlm::batching_kind::dynamic)
    stream.fail("llm streams batch continuously (or statically), not dynamically", "batching");
}

void resolve_stage(const view& stage, const std::string& stream_prec, const scenario& sc, tlm::stage_config& sg) {
  if (stage.has("unit") == stage.has("units")) stage.fail("give unit or units (one of them)", "unit");
  if (stage.has("unit")) sg.unit = stage.str("unit");
  for (const auto& u : stage.at("units").items()) sg.units.push_back(u.scalar());
  if (!sg.units.empty()) sg.unit = sg.units.front();
  const std::string par = stage.str("parallel");
  sg.parallel = par == "data" ? tlm::parallel_kind::data : par == "replicas" ? tlm::parallel_kind::replicas
                                                                             : tlm::parallel_kind::single;
  if (sg.parallel == tlm::parallel_kind::single && sg.units.size() > 1)
    stage.fail("several units need parallel: replicas or data", "parallel");
  const tlm::precision prec = tlm::parse_precision(stage.has("precision") ? stage.str("precision") : stream_prec);
  if (stage.has("model") == stage.has("graph")) {
    stage.fail("give model or graph (one of them)", "model");
    return;
  }
  if (stage.has("model")) {
    tlm::model_params params;
    for (const auto& [k, v] : stage.at("params").entries()) params[k] = std::strtod(v.scalar().c_str(), nullptr);
    try {
      sg.graph = tlm::build_model(stage.str("model"), params, prec);
    } catch (const std::invalid_argument& e) {
      stage.fail(e.what(), "params");
      return;
    }
    const tlm::model_info* mi = tlm::find_model(stage.str("model"));
    bool has_batch = false;
    for (const auto& p : mi->params) has_batch |= p.name == "batch";
    sg.per_request_batch = !has_batch ? 1 : params.count("batch") ? params.at("batch") : 1;
  } else {
    if (stage.has("params")) stage.fail("params go with a model, not a graph file", "params");
    std::string error;
    if (!read_graph(relative_to_scenario(sc, stage.str("graph")), prec, sg.graph, error)) stage.fail(error, "graph");
  }
  if (stage.has("training")) {
    tlm::training_options t;
    const view tv = stage.at("training");
    t.data_parallel = sg.parallel == tlm::parallel_kind::data ? static_cast<int>(sg.all_units().size()) : 1;
    t.gradients = tlm::parse_precision(tv.str("gradients"));
    t.bucket_bytes = tv.si("bucket");
    t.accumulation_steps = static_cast<int>(tv.integer("accumulation"));
    sg.graph = tlm::training_step(sg.graph, t);
    // A step trains on every rank's micro-batches.
    sg.per_request_batch *= t.accumulation_steps * t.data_parallel;
    sg.training = true;
  }
  if (stage.has("input")) {
    const view in = stage.at("input");
    sg.graph.ops.insert(sg.graph.ops.begin(), tlm::transfer_op("input", in.str("from"), in.si("bytes"), 0));
  }
}

void resolve_workload(const view& w, const view& platform, scenario& sc) {
  std::vector<std::pair<std::string, view>> stream_views;
  for (const auto& [name, s] : w.at("streams").entries()) {
    stream_views.emplace_back(name, s);
    tlm::stream_config st;
    st.name = name;
    view arr = s.at("arrival");
    const std::string kind = arr.str("kind");
    st.arrival = kind == "poisson"       ? tlm::arrival_kind::poisson
                 : kind == "closed_loop" ? tlm::arrival_kind::closed_loop
                 : kind == "trace"       ? tlm::arrival_kind::trace
                                         : tlm::arrival_kind::fixed_rate;
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
      else if (!read_trace(relative_to_scenario(sc, arr.str("file")), st.trace, error)) arr.fail(error, "file");
    }
    st.queue_limit = static_cast<int>(s.integer("queue_limit"));
    const view b = s.at("batching");
    const std::string bk = b.str("kind");
    st.batching.kind = bk == "static"       ? tlm::batching_kind::static_batch
                       : bk == "dynamic"    ? tlm::batching_kind::dynamic
                       : bk == "continuous" ? tlm::batching_kind::continuous
                                            : tlm::batching_kind::none;
    st.batching.max_batch = static_cast<int>(b.integer("max_batch"));
    st.batching.timeout = units::seconds(b.si("timeout"));
    if (s.has("llm") == s.has("stages")) {
      s.fail("a stream needs stages, or llm (one of them)", "stages");
      continue;
    }
    if (s.has("llm")) {
      resolve_llm(s.at("llm"), s, st);
    } else {
      if (st.batching.kind == tlm::batching_kind::continuous)
        b.fail("continuous batching is for llm streams; use static or dynamic", "kind");
      const std::string stream_prec = s.str("precision");
      for (const auto& stage : s.at("stages").items()) {
        tlm::stage_config sg;
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
    st.llm.kv_cache_bytes = std::max(0.0, tlm::default_kv_cache_bytes(sc.platform, sc.workload, st, l.num("memory_utilization")));
  }
  // Report each problem at the component, stream or stage it names, at the key at fault.
  for (const tlm::platform_problem& p : tlm::check_platform(sc.platform, sc.workload)) {
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

void resolve_package(const view& pk, thermal::package_config& p, bool only_given) {
  for (const thermal::package_field& f : thermal::package_fields())
    if (!only_given || pk.has(f.key)) p.*f.member = pk.si(f.key);
}

void resolve_phone(const view& v, thermal::phone_config& c) {
  c.r_soc_frame_K_per_W = v.si("r_soc_frame");
  c.r_frame_front_K_per_W = v.si("r_frame_front");
  c.r_frame_back_K_per_W = v.si("r_frame_back");
  c.r_frame_battery_K_per_W = v.si("r_frame_battery");
  c.r_battery_back_K_per_W = v.si("r_battery_back");
  c.c_frame_J_per_K = v.si("c_frame");
  c.c_battery_J_per_K = v.si("c_battery");
  c.c_front_J_per_K = v.si("c_front");
  c.c_back_J_per_K = v.si("c_back");
  c.area_front_m2 = v.si("area_front");
  c.area_back_m2 = v.si("area_back");
  c.h_front_W_per_m2K = v.si("h_front");
  c.h_back_W_per_m2K = v.si("h_back");
}

void resolve_datacenter(const view& v, thermal::thermal_config& th) {
  auto& dc = th.datacenter;
  for (const auto& [name, d] : v.at("dies").entries()) {
    thermal::datacenter_die die;
    die.name = name;
    for (const auto& b : d.at("blocks").items()) die.blocks.push_back(b.scalar());
    if (die.blocks.empty()) die.blocks.push_back(name);
    die.package = th.package;
    resolve_package(d.at("package"), die.package, true);
    dc.dies.push_back(std::move(die));
  }
  for (const auto& [name, s] : v.at("streams").entries()) {
    std::vector<std::string> dies;
    for (const auto& d : s.items()) dies.push_back(d.scalar());
    dc.streams.emplace_back(name, std::move(dies));
  }
  const view f = v.at("fan");
  dc.fan.flow_ref_m3_per_s = f.si("flow");
  dc.fan.power_ref_W = f.si("power");
  dc.fan_speed = f.num("speed");
  dc.min_speed = f.num("min_speed");
  dc.max_speed = f.num("max_speed");
  dc.fan_levels = static_cast<int>(f.integer("levels"));
  if (dc.min_speed >= dc.max_speed) f.fail("min_speed must be below max_speed", "min_speed");
  dc.flow_exponent = v.num("flow_exponent");
}

// thermal.floorplan given as components: checked here with positions, then laid out by
// thermal::build_floorplan. Returns false (problems reported) when no floorplan results.
bool resolve_layout(const view& v, thermal::floorplan& fp) {
  std::vector<thermal::floorplan_component> parts;
  std::set<std::string> names;
  const auto items = v.at("components").items();
  for (const auto& c : items)
    if (!names.insert(c.str("name")).second) c.fail("duplicate component '" + c.str("name") + "'", "name");
  bool ok = names.size() == items.size();
  for (const auto& c : items) {
    thermal::floorplan_component p{c.str("name"), c.si("area"), c.num("aspect"), {}};
    if (!(p.aspect > 0)) {
      c.fail("aspect must be positive, found " + c.str("aspect"), "aspect");
      ok = false;
    }
    for (const auto& n : c.at("next_to").items()) {
      if (n.scalar() == p.name) n.fail("a component cannot be next_to itself");
      else if (!names.count(n.scalar())) n.fail("'" + n.scalar() + "' is not one of the floorplan's components");
      else {
        p.next_to.push_back(n.scalar());
        continue;
      }
      ok = false;
    }
    parts.push_back(std::move(p));
  }
  if (items.empty()) {
    v.fail("a floorplan needs at least one component", "components");
    ok = false;
  }
  if (!(v.num("die_aspect") > 0)) {
    v.fail("die_aspect must be positive", "die_aspect");
    ok = false;
  }
  if (!ok) return false;
  thermal::floorplan_options o;
  o.die_aspect = v.num("die_aspect");
  o.whitespace = v.num("whitespace");
  try {
    fp = thermal::build_floorplan(parts, o);
  } catch (const std::exception& e) {
    v.fail(std::string("floorplan: ") + e.what(), "components");
    return false;
  }
  const auto apart = thermal::unmet_neighbours(parts, fp);
  for (const auto& [a, b] : apart)
    for (std::size_t i = 0; i < parts.size(); ++i)
      if (parts[i].name == a || parts[i].name == b) {
        items[i].fail("next_to: '" + a + "' and '" + b + "' could not be placed sharing an edge (relax the hints "
                      "or the aspect ratios)", "next_to");
        break;
      }
  return apart.empty();
}

void resolve_thermal(const view& t, scenario& sc, std::vector<std::string>& sensor_nodes) {
  auto& th = sc.thermal;
  th.ambient = units::abs_kelvin(t.si("ambient"));
  const view fpv = t.at("floorplan");
  if (!fpv.node().IsSequence()) {
    if (!resolve_layout(fpv, th.fp)) return;
  } else try {
    std::vector<thermal::block> blocks;
    for (const auto& b : fpv.items())
      blocks.push_back({b.str("name"), b.si("width"), b.si("height"), b.si("x"), b.si("y")});
    th.fp = thermal::floorplan(blocks);
    for (const auto& p : th.fp.problems()) t.fail("floorplan: " + p, "floorplan");
  } catch (const std::exception& e) {
    t.fail(std::string("floorplan: ") + e.what(), "floorplan");
    return;
  }
  resolve_package(t.at("package"), th.package, false);
  const std::string model = t.str("model");
  th.kind = model == "phone"        ? thermal::package_kind::phone
            : model == "datacenter" ? thermal::package_kind::datacenter
                                    : thermal::package_kind::hotspot;
  if (t.has("phone") && th.kind != thermal::package_kind::phone) t.fail("phone goes with model: phone", "phone");
  if (t.has("datacenter") && th.kind != thermal::package_kind::datacenter)
    t.fail("datacenter goes with model: datacenter", "datacenter");
  if (th.kind == thermal::package_kind::phone) resolve_phone(t.at("phone"), th.phone);
  if (th.kind == thermal::package_kind::datacenter) {
    if (!t.has("datacenter")) t.fail("model: datacenter needs a datacenter section (dies and streams)", "datacenter");
    else resolve_datacenter(t.at("datacenter"), th);
  }
  const std::string initial = t.str("initial");
  th.initial = initial == "steady" ? thermal::initial_state::steady
               : initial == "file" ? thermal::initial_state::file
                                   : thermal::initial_state::ambient;
  if ((th.initial == thermal::initial_state::file) != t.has("initial_file"))
    t.fail(t.has("initial_file") ? "initial_file goes with initial: file" : "initial: file needs initial_file",
           t.has("initial_file") ? "initial_file" : "initial");
  else if (th.initial == thermal::initial_state::file) {
    th.initial_file = relative_to_scenario(sc, t.str("initial_file")).string();
    try {
      th.initial_temperatures = thermal::read_steady(th.initial_file);
    } catch (const std::exception& e) {
      t.fail(e.what(), "initial_file");
    }
  }
  view solver = t.at("solver");
  const std::string method = solver.str("method");
  if (method == "backward_euler") th.method = thermal::integration_method::backward_euler;
  else if (method == "exponential") th.method = thermal::integration_method::exponential;
  // Exponential stepping keeps two dense n x n matrices and an O(n^3) eigen-decomposition.
  const std::size_t nodes = 4 * th.fp.size() + 12;
  if (method == "exponential" && nodes > 2000)
    solver.fail("exponential stepping is dense and this floorplan's block model has " + std::to_string(nodes) +
                    " nodes (" + std::to_string(nodes * nodes * 16 / 1000000) +
                    " MB, an O(n^3) set-up); use method: auto or backward_euler",
                "method");
  th.substeps = static_cast<int>(solver.integer("substeps"));

  // Every component's power lands on a block: explicitly mapped, or the block of its name.
  std::set<std::string> block_names;
  for (const auto& b : th.fp.blocks()) block_names.insert(b.name);
  std::set<std::string> components;
  for (const auto& c : sc.power) components.insert(c.component);
  view pm = t.at("power_map");
  for (const auto& [comp, blk] : pm.entries()) {
    if (!components.count(comp)) pm.fail("'" + comp + "' is not a component of the platform", comp);
    else if (!block_names.count(blk.scalar())) blk.fail("'" + blk.scalar() + "' is not a floorplan block");
    else th.power_map[comp] = blk.scalar();
  }
  for (const auto& c : sc.power) {
    if (th.power_map.count(c.component)) continue;
    if (block_names.count(c.component)) th.power_map[c.component] = c.component;
    else pm.fail("component '" + c.component + "' has no floorplan block of its name; map it to one in thermal.power_map");
  }

  // The package must take the floorplan, and an initial file must name its nodes; what
  // a zone may read are the blocks and the package's reported nodes.
  for (const auto& b : th.fp.blocks()) sensor_nodes.push_back(b.name);
  if (th.kind == thermal::package_kind::hotspot && th.initial != thermal::initial_state::file) return;
  try {
    const thermal::plant pl(th);
    for (const auto& n : pl.node_names()) sensor_nodes.push_back(n);
    if (th.initial == thermal::initial_state::file && !th.initial_temperatures.empty())
      try {
        (void)pl.state_from(th.initial_temperatures, th.initial_file);
      } catch (const std::invalid_argument& e) {
        t.fail(e.what(), "initial_file");
      }
  } catch (const std::invalid_argument& e) {
    t.fail(std::string("thermal model: ") + e.what(), th.kind == thermal::package_kind::datacenter ? "datacenter" : "");
  }
}

power::zone_sensor resolve_sensor(const view& z, const std::vector<std::string>& nodes) {
  power::zone_sensor out;
  if (!z.has("sensor")) return out;
  const view s = z.at("sensor");
  if (s.is_scalar()) {
    out.node = s.scalar();
  } else {
    if (s.has("node")) out.node = s.str("node");
    out.time_constant_s = s.si("time_constant");
    out.noise_K = s.si("noise");
  }
  if (!out.node.empty() && std::find(nodes.begin(), nodes.end(), out.node) == nodes.end()) {
    std::string list;
    for (std::size_t i = 0; i < nodes.size() && i < 12; ++i) list += (i ? ", " : "") + nodes[i];
    if (nodes.size() > 12) list += ", ...";
    (s.is_scalar() ? z : s).fail("'" + out.node + "' is not a block or node of the thermal model (" + list + ")",
                                 s.is_scalar() ? "sensor" : "node");
  }
  return out;
}

void resolve_policy(const view& p, scenario& sc, const std::vector<std::string>& sensor_nodes) {
  auto& pol = sc.policy;
  pol.default_governor.name = p.str("governor");
  std::set<std::string> domains;
  for (const auto& d : sc.domains) domains.insert(d.name);
  for (const auto& [dom, g] : p.at("governors").entries()) {
    if (!domains.count(dom)) {
      g.fail("unknown DVFS domain '" + dom + "'");
      continue;
    }
    power::governor_choice gc;
    if (g.is_scalar()) {
      gc.name = g.scalar();
    } else {
      gc.name = g.str("governor");
      for (const auto& [k, v] : g.at("tunables").entries()) gc.values[k] = std::strtod(v.scalar().c_str(), nullptr);
    }
    try {
      power::governor_registry::instance().create(gc.name, gc.values);  // checks tunable names
    } catch (const std::invalid_argument& e) {
      g.fail(e.what());
    }
    pol.per_domain[dom] = gc;
  }
  view t = p.at("thermal");
  auto& th = pol.thermal;
  th.governor = t.str("governor");
  for (const auto& [k, v] : t.at("tunables").entries()) th.values[k] = std::strtod(v.scalar().c_str(), nullptr);
  if (th.governor != "none") {
    try {
      power::thermal_governor_registry::instance().create(th.governor, th.values);  // checks the tunables
    } catch (const std::invalid_argument& e) {
      t.fail(e.what(), t.has("tunables") ? "tunables" : "governor");
    }
  } else if (!th.values.empty()) {
    t.fail("tunables given without a thermal governor", "tunables");
  }
  th.zone.control_temp_K = t.si("control_temp");
  th.zone.switch_on_temp_K = t.has("switch_on_temp") ? t.si("switch_on_temp") : th.zone.control_temp_K - 10.0;
  th.zone.hysteresis_K = t.si("hysteresis");
  th.zone.polling_period_s = t.si("polling_period");
  warn_unless_ticks(t, "polling_period", th.zone.polling_period_s, sc.control_period.value(), true);
  th.zone.sustainable_power_W = t.has("sustainable_power") ? t.si("sustainable_power") : 0.0;
  if (th.zone.switch_on_temp_K >= th.zone.control_temp_K)
    t.fail("switch_on_temp must be below control_temp", "switch_on_temp");
  th.sensor = resolve_sensor(t, sensor_nodes);
  if (p.has("fan_zone")) {
    const view f = p.at("fan_zone");
    auto& fz = pol.fan_zone;
    if (sc.thermal.kind != thermal::package_kind::datacenter)
      p.fail("a fan zone needs fans: thermal.model: datacenter", "fan_zone");
    fz.enabled = true;
    fz.governor = f.str("governor");
    fz.zone.control_temp_K = f.si("control_temp");
    fz.zone.switch_on_temp_K = fz.zone.control_temp_K - 10.0;
    fz.zone.hysteresis_K = f.si("hysteresis");
    fz.zone.polling_period_s = f.si("polling_period");
    warn_unless_ticks(f, "polling_period", fz.zone.polling_period_s, sc.control_period.value(), true);
    fz.sensor = resolve_sensor(f, sensor_nodes);
  }
  for (const auto& d : t.at("domains").items()) {
    if (!domains.count(d.scalar())) d.fail("unknown DVFS domain '" + d.scalar() + "'");
    th.domains.push_back(d.scalar());
  }
  if (p.has("power_cap")) {
    view c = p.at("power_cap");
    power::power_cap_config pc;
    pc.limit_W = c.si("limit");
    pc.window_s = c.si("window");
    pc.short_limit_W = c.has("short_limit") ? c.si("short_limit") : 0.0;
    pc.short_window_s = c.si("short_window");
    pc.soft_limit_W = c.has("soft_limit") ? c.si("soft_limit") : 0.0;
    pc.settle_s = c.si("settle");
    const double period = sc.control_period.value();
    if (pc.window_s < period) c.fail("window is shorter than the control period", "window");
    warn_unless_ticks(c, "window", pc.window_s, period, false);
    if (pc.short_limit_W > 0) warn_unless_ticks(c, "short_window", pc.short_window_s, period, false);
    // The capper keeps one sample per control period of each window (and walks them every
    // period): a window of more than a million periods would hold memory and time that
    // grow with the window, not with the run.
    constexpr double max_window_periods = 1e6;
    if (pc.window_s / period > max_window_periods)
      c.fail("window (" + fmt_g(pc.window_s) + " s) spans more than 1e6 control periods (" + fmt_g(period) +
                 " s each): at most " + fmt_g(max_window_periods * period) + " s",
             "window");
    if (pc.short_limit_W > 0 && pc.short_window_s / period > max_window_periods)
      c.fail("short_window (" + fmt_g(pc.short_window_s) + " s) spans more than 1e6 control periods: at most " +
                 fmt_g(max_window_periods * period) + " s",
             "short_window");
    if (pc.short_limit_W > 0 && pc.short_window_s < period)
      c.fail("short_window is shorter than the control period", "short_window");
    if (pc.soft_limit_W > 0 && pc.soft_limit_W >= pc.limit_W) c.fail("soft_limit must be below limit", "soft_limit");
    for (const char* key : {"domains", "low_priority"})
      for (const auto& d : c.at(key).items()) {
        if (!domains.count(d.scalar())) d.fail("unknown DVFS domain '" + d.scalar() + "'");
        (std::string(key) == "domains" ? pc.domains : pc.low_priority).push_back(d.scalar());
      }
    pol.power_cap = pc;
  }
}

// VR and PSU stages: rated power and an efficiency curve (defaults in supply_power.hpp).
void resolve_supply(const view& platform, scenario& sc) {
  if (!platform.has("supply")) return;
  const view sv = platform.at("supply");
  auto stage = [&](const char* key, double& rated, power::efficiency_curve& curve, power::efficiency_curve def) {
    if (!sv.has(key)) return;
    const view st = sv.at(key);
    rated = st.si("rated");
    curve = std::move(def);
    if (!st.has("efficiency")) return;
    std::vector<std::pair<double, double>> pts;
    bool ok = true;
    for (const auto& p : st.at("efficiency").items()) {
      pts.emplace_back(p.num("load"), p.num("efficiency"));
      if (!(pts.back().second > 0)) p.fail("an efficiency must be above 0", "efficiency"), ok = false;
      else if (pts.size() > 1 && !(pts.back().first > pts[pts.size() - 2].first))
        p.fail("load fractions must increase along the curve", "load"), ok = false;
    }
    if (pts.empty()) st.fail("an efficiency curve needs at least one point", "efficiency"), ok = false;
    if (ok) curve = power::efficiency_curve(pts);
  };
  stage("vr", sc.supply.vr_rated_W, sc.supply.vr, power::vr_typical());
  stage("psu", sc.supply.psu_rated_W, sc.supply.psu, power::psu_80plus_titanium());
}

// The least power the platform can draw: every compute unit at its domain's lowest
// voltage, at the ambient temperature, in its deepest idle state (or leaking, without
// one), every memory and device idle in its lowest-power state. Dynamic power, fans and
// heating above the ambient only add to it, so a cap below it cannot be met.
double platform_floor_W(const scenario& sc) {
  double floor = 0;
  const double t_amb = sc.thermal.ambient.value();
  for (const auto& c : sc.components) {
    double v_min = 0;
    if (c.domain != component_ref::none && sc.domains[c.domain].opps.size() > 0) {
      const auto& opps = sc.domains[c.domain].opps;
      v_min = opps.voltage_v(0);
      for (std::size_t i = 1; i < opps.size(); ++i) v_min = std::min(v_min, opps.voltage_v(i));
    }
    floor += sc.power[c.power].make_model()->floor_W(v_min, t_amb);
  }
  return floor;
}

// Each component's floorplan block, by index (thermal.power_map, resolved by now).
void place_components(scenario& sc) {
  const auto& blocks = sc.thermal.fp.blocks();
  for (auto& c : sc.components) {
    const auto it = sc.thermal.power_map.find(c.name);
    if (it == sc.thermal.power_map.end()) continue;  // reported with the thermal section
    for (std::size_t b = 0; b < blocks.size(); ++b)
      if (blocks[b].name == it->second) c.block = b;
  }
}

}  // namespace

void resolve(const view& root, scenario& sc) {
  sc.name = root.str("name");
  // The name becomes results/<name>-<time>.h5: it must be a file name, not a path.
  if (auto why = file_name_problem(sc.name)) root.fail(*why, "name");
  sc.duration = units::seconds(root.si("duration"));
  sc.control_period = units::seconds(root.si("control_period"));
  sc.record_period = units::seconds(root.si("record_period"));
  sc.seed = static_cast<std::uint64_t>(root.integer("seed"));
  const double cp = sc.control_period.value(), rp = sc.record_period.value(), dur = sc.duration.value();
  if (cp > dur) root.fail("control_period is longer than the duration", "control_period");
  // The recorder samples on control ticks: the record period must be a whole number of them.
  double ratio = rp / cp;
  if (rp < cp || std::fabs(ratio - std::round(ratio)) > 1e-9 * ratio)
    root.fail("record_period must be a whole multiple of control_period (" + std::to_string(cp) + " s)",
              "record_period");
  // The timeseries must add up to the run: a record period longer than the run records
  // nothing, and a tail shorter than a record period would be simulated but never recorded
  // (the timeseries would no longer integrate to energy_J).
  if (rp > dur) {
    root.fail("record_period (" + fmt_g(rp) + " s) is longer than the duration (" + fmt_g(dur) +
                  " s): the timeseries would be empty",
              "record_period");
  } else if (rp >= cp) {
    const double n = dur / rp;
    if (std::fabs(n - std::round(n)) > 1e-9 * n) {
      const double lo = std::floor(n) * rp, hi = std::ceil(n) * rp;
      root.fail("duration (" + fmt_g(dur) + " s) must be a whole multiple of record_period (" + fmt_g(rp) +
                    " s), so that the timeseries covers the whole run and adds up to energy_J; e.g. " + fmt_g(lo) +
                    " s or " + fmt_g(hi) + " s",
                "duration");
    }
  }

  view platform = root.at("platform");
  sc.platform.quantum = units::seconds(platform.si("quantum"));
  resolve_supply(platform, sc);
  resolve_domains(platform, sc);
  resolve_components(platform, sc);
  resolve_workload(root.at("workload"), platform, sc);
  std::vector<std::string> sensor_nodes;
  resolve_thermal(root.at("thermal"), sc, sensor_nodes);
  resolve_policy(root.at("policy"), sc, sensor_nodes);
  place_components(sc);
  {
    const view lim = root.at("limits");
    sc.limits.max_arrivals = lim.num("max_arrivals");
    if (lim.has("max_file_size")) sc.limits.max_file_bytes = lim.si("max_file_size");
    if (lim.has("max_memory")) sc.limits.max_memory_bytes = lim.si("max_memory");
  }
  if (sc.policy.power_cap) {
    // Said at load time rather than discovered as a run that never meets its cap.
    const double floor = platform_floor_W(sc);
    const double limit = sc.policy.power_cap->limit_W;
    if (limit < floor) {
      const view cap = root.at("policy").at("power_cap");
      cap.warn("limit " + fmt_g(limit) + " W cannot be met: the platform draws at least " + fmt_g(std::round(floor * 10) / 10) +
                   " W at its lowest operating points, idle, at the ambient temperature (leakage and background "
                   "power); the run will exceed the cap (summary: power_cap_violation_s)",
               "limit");
    }
  }
}

}  // namespace ptsim::scenarios::detail
