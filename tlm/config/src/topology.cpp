#include "ptsim/tlm_config/topology.hpp"

#include <algorithm>
#include <set>
#include <sstream>

#include "ptsim/tlm_config/decoder.hpp"
#include "ptsim/tlm_config/names.hpp"

namespace ptsim::tlm_config {

namespace {

std::string gb(double bytes) {
  std::ostringstream os;
  os.precision(3);
  os << bytes / 1e9 << " GB";
  return os.str();
}

}  // namespace

namespace {

// The ladder of datapaths an operator of precision `p` may run on in `table`: its own, then
// the next wider ones. Never a sibling of the same width: an FP8 GEMM on a GPU without FP8
// (an A100: INT8 tensor cores only) dequantises to FP16, as weight-only FP8 kernels do there,
// and does not run at the INT8 rate.
double ladder_rate(const std::map<precision, double>& table, precision p) {
  static const std::vector<std::vector<precision>> ladder = {
      {precision::int4, precision::int8, precision::fp16, precision::bf16, precision::fp32},
      {precision::int8, precision::fp16, precision::bf16, precision::fp32},
      {precision::fp8, precision::fp16, precision::bf16, precision::fp32},
      {precision::fp16, precision::bf16, precision::fp32},
      {precision::bf16, precision::fp16, precision::fp32},
      {precision::fp32}};
  for (const auto& rung : ladder) {
    if (rung.front() != p) continue;
    for (precision q : rung) {
      auto it = table.find(q);
      if (it != table.end() && it->second > 0) return it->second;
    }
  }
  return 0;
}

}  // namespace

double unit_peak_per_cycle(const compute_unit_config& u, const op& o) {
  const bool vector_path = o.cls != op_class::tensor && !u.vector_ops_per_cycle.empty();
  double rate = ladder_rate(vector_path ? u.vector_ops_per_cycle : u.ops_per_cycle, o.prec);
  // A tensor operator in a precision the MAC array lacks (FP32 on a V100, whose tensor cores
  // take FP16 only) runs on the vector units, as cuBLAS's SGEMM and cuDNN's FP32 kernels do.
  if (!(rate > 0) && o.cls == op_class::tensor && !u.vector_ops_per_cycle.empty())
    rate = ladder_rate(u.vector_ops_per_cycle, o.prec);
  return rate * u.cores;
}

bool on_tensor_path(const compute_unit_config& u, const op& o) {
  return o.cls == op_class::tensor && ladder_rate(u.ops_per_cycle, o.prec) > 0;
}

std::string platform_problem::text() const { return component + ": " + message; }

topology::topology(const platform_config& cfg) : cfg_(cfg) {
  auto problem = [&](const std::string& who, const std::string& key, const std::string& msg) {
    problems_.push_back({who, -1, key, msg});
  };
  auto add = [&](const std::string& n, role r) {
    if (!roles_.emplace(n, r).second) problem(n, "", "the name is used by two components");
  };
  for (const auto& u : cfg.units) add(u.name, role::unit);
  for (const auto& i : cfg.interconnects) add(i.name, role::interconnect);
  for (const auto& m : cfg.memories) add(m.name, role::target);
  std::vector<std::string> ics, mems;
  for (const auto& i : cfg.interconnects) ics.push_back(i.name);
  for (const auto& m : cfg.memories) mems.push_back(m.name);
  const std::string names = " (interconnects: " + (ics.empty() ? std::string("none") : join_names(ics)) +
                            "; targets: " + (mems.empty() ? std::string("none") : join_names(mems)) + ")";

  // Every name a component connects to must exist and be of the right sort; count the
  // distinct upstream components of each interconnect and target.
  std::map<std::string, std::set<std::string>> upstream;
  auto link = [&](const std::string& from, const std::string& key, const std::string& to,
                  const compute_unit_config* unit) {
    const role r = role_of(to);
    if (r == role::none) {
      problem(from, key, "'" + to + "' is not an interconnect or a target of the platform" + names);
      return;
    }
    if (r == role::unit) {
      problem(from, key, "'" + to + "' is a compute unit; connect to an interconnect or a target");
      return;
    }
    if (key == "fabric" && r != role::interconnect) {
      problem(from, key, "'" + to + "' is not an interconnect (nvlink, pcie, switch)");
      return;
    }
    // A GPU's memory controllers sit next to its HBM; CPU clusters and NPUs reach memory
    // through their SoC's NoC.
    if (unit && key == "connect" && r == role::target && !unit->direct_memory) {
      problem(from, key, "'" + to + "' is not an interconnect (a " + unit->kind +
                             " reaches memory through a noc; only a gpu connects to its memory directly)" + names);
      return;
    }
    upstream[to].insert(from);
  };
  for (const auto& u : cfg.units) {
    link(u.name, "connect", u.connect, &u);
    if (!u.fabric.empty()) link(u.name, "fabric", u.fabric, &u);
    for (const auto& h : u.io) link(u.name, "io", h, &u);
  }
  for (const auto& i : cfg.interconnects) {
    if (i.needs_connect && i.connect.empty()) problem(i.name, "connect", "a " + i.kind + " must connect to a memory");
    if (!i.connect.empty()) link(i.name, "connect", i.connect, nullptr);
    for (const auto& c : i.ports) link(i.name, "ports", c, nullptr);
  }
  for (const auto& i : cfg.interconnects) {
    const auto& up = upstream[i.name];
    if (up.empty()) problem(i.name, "", "nothing connects to it (its target socket would be unbound)");
    if (i.point_to_point && up.size() > 1)
      problem(i.name, "", "a " + i.kind + " link has one upstream end but is bound by " +
                              join_names(std::vector<std::string>(up.begin(), up.end())));
  }
  for (const auto& m : cfg.memories)
    if (upstream[m.name].empty()) problem(m.name, "", "nothing connects to it (its target socket would be unbound)");
  // Reachability from every interconnect (finds cycles).
  for (const auto& i : cfg.interconnects) {
    std::vector<std::string> stack;
    visit(i.name, stack);
  }
}

topology::role topology::role_of(const std::string& name) const {
  auto it = roles_.find(name);
  return it == roles_.end() ? role::none : it->second;
}

const compute_unit_config* topology::unit(const std::string& name) const {
  for (const auto& u : cfg_.units)
    if (u.name == name) return &u;
  return nullptr;
}

const interconnect_config* topology::interconnect(const std::string& name) const {
  for (const auto& i : cfg_.interconnects)
    if (i.name == name) return &i;
  return nullptr;
}

const memory_config* topology::target(const std::string& name) const {
  for (const auto& m : cfg_.memories)
    if (m.name == name) return &m;
  return nullptr;
}

void topology::visit(const std::string& name, std::vector<std::string>& stack) const {
  if (reach_.count(name)) return;
  if (std::find(stack.begin(), stack.end(), name) != stack.end()) {
    stack.push_back(name);
    problems_.push_back({name, -1, "", "connections form a cycle (" + join_names(stack) + ")"});
    stack.pop_back();
    reach_[name];  // empty, so the cycle is reported once
    return;
  }
  std::map<std::string, reach_entry> out;
  if (const memory_config* m = target(name)) {
    out[name] = {m->latency.value(), -1};
  } else if (const interconnect_config* i = interconnect(name)) {
    const double lat = i->latency.value();
    const std::vector<std::string> down = i->downstream();
    if (down.empty()) out[name] = {lat, -1};  // a terminal
    stack.push_back(name);
    for (std::size_t p = 0; p < down.size(); ++p) {
      const std::string& c = down[p];
      if (role_of(c) != role::interconnect && role_of(c) != role::target) continue;
      visit(c, stack);
      for (const auto& [end, e] : reach_[c])
        if (!out.count(end)) out[end] = {lat + e.latency_s, static_cast<int>(p)};  // first path wins
    }
    stack.pop_back();
  }
  reach_[name] = std::move(out);
}

const std::map<std::string, topology::reach_entry>& topology::reach(const std::string& from) const {
  std::vector<std::string> stack;
  visit(from, stack);
  return reach_[from];
}

std::vector<std::string> topology::first_hops(const std::string& name) const {
  std::vector<std::string> hops;
  const compute_unit_config* u = unit(name);
  if (!u) return hops;
  auto add = [&](const std::string& h) {
    if (!h.empty() && std::find(hops.begin(), hops.end(), h) == hops.end() && role_of(h) != role::none &&
        role_of(h) != role::unit)
      hops.push_back(h);
  };
  add(u->connect);
  add(u->fabric);
  for (const auto& h : u->io) add(h);
  return hops;
}

std::string topology::memory_of(const std::string& name) const {
  const compute_unit_config* u = unit(name);
  if (!u || role_of(u->connect) == role::none || role_of(u->connect) == role::unit) return "";
  std::string found;
  for (const auto& [end, e] : reach(u->connect)) {
    const memory_config* m = target(end);
    if (!m || !m->dram) continue;
    if (!found.empty()) return "";
    found = end;
  }
  return found;
}

std::string topology::fabric_of(const std::string& name) const {
  const compute_unit_config* u = unit(name);
  if (!u || u->fabric.empty() || role_of(u->fabric) != role::interconnect) return "";
  std::string found;
  for (const auto& [end, e] : reach(u->fabric)) {
    if (role_of(end) != role::interconnect) continue;
    if (!found.empty()) return "";
    found = end;
  }
  return found;
}

std::map<std::string, double> resident_bytes(const workload_config& workload) {
  std::map<std::string, double> on;
  for (const auto& s : workload.streams) {
    if (s.is_llm) {
      decoder_options o;
      o.tensor_parallel = s.llm.tensor_parallel;
      o.pipeline_parallel = s.llm.pipeline_parallel;
      o.weights = s.llm.weights;
      o.kv = s.llm.kv;
      const double w = decoder_weight_bytes_per_rank(s.llm.shape, o);
      for (const auto& u : s.llm.units) on[u] += w + s.llm.reserved_bytes + s.llm.kv_cache_bytes;
      continue;
    }
    for (const auto& st : s.stages) {
      const double w = st.graph.weight_bytes();
      for (const auto& u : st.all_units()) on[u] += w;
    }
  }
  return on;
}

namespace {

using problems = std::vector<platform_problem>;

// Each unit's memory and fabric paths end where they must.
void check_unit_paths(const platform_config& cfg, const topology& topo, problems& out) {
  auto at = [&](const std::string& who, const std::string& key, const std::string& msg) {
    out.push_back({who, -1, key, msg});
  };
  for (const auto& u : cfg.units) {
    const auto r = topo.role_of(u.connect);
    if (r != topology::role::interconnect && r != topology::role::target) continue;
    if (r == topology::role::target && !u.direct_memory) continue;  // reported by the graph
    if (topo.memory_of(u.name).empty()) {
      std::vector<std::string> drams;
      for (const auto& [end, e] : topo.reach(u.connect))
        if (const memory_config* m = topo.target(end); m && m->dram) drams.push_back(end);
      at(u.name, "connect",
         "its connect path " + (drams.empty() ? std::string("reaches no memory (lpddr, lpddr5x, ddr5, hbm)")
                                              : "reaches several memories (" + join_names(drams) + "); connect through one"));
    }
    if (!u.fabric.empty() && topo.role_of(u.fabric) == topology::role::interconnect && topo.fabric_of(u.name).empty())
      at(u.name, "fabric", "its fabric path must end in exactly one terminal interconnect (a switch or link with "
                           "nothing downstream)");
  }

}

// A stream's problems, said at the stage (k >= 0) or at the stream (k = -1) and key.
struct stream_problems {
  const stream_config& s;
  const topology& topo;
  problems& out;
  void at(int k, const std::string& key, const std::string& msg) const { out.push_back({"stream " + s.name, k, key, msg}); }
  /// Whether `name` is a compute unit; says so when it is not.
  bool is_unit(int k, const std::string& key, const std::string& name) const {
    if (topo.unit(name)) return true;
    at(k, key, "'" + name + "' is not a compute unit of the platform");
    return false;
  }
};

// An LLM stream: its split, its instances, its units' fabrics and precisions, its KV cache.
void check_llm_stream(const stream_config& s, const topology& topo, problems& out) {
  const stream_problems report{s, topo, out};
  const auto stage_at = [&](int k, const std::string& key, const std::string& msg) { report.at(k, key, msg); };
  const auto is_unit = [&](int k, const std::string& key, const std::string& name) { return report.is_unit(k, key, name); };
  const auto& l = s.llm;
  const std::string split = decoder_split_problem(l.shape, l.tensor_parallel, l.pipeline_parallel);
  if (!split.empty()) stage_at(-1, "llm", split);
  const std::size_t width = static_cast<std::size_t>(std::max(1, l.tensor_parallel) * std::max(1, l.pipeline_parallel));
  if (l.units.empty() || l.units.size() % width != 0)
    stage_at(-1, "llm", std::to_string(l.units.size()) + " units do not form instances of tensor_parallel " +
                            std::to_string(l.tensor_parallel) +
                            (l.pipeline_parallel > 1 ? " x pipeline_parallel " + std::to_string(l.pipeline_parallel) : ""));
  for (std::size_t i = 0; i < l.units.size(); ++i) {
    const std::string& n = l.units[i];
    if (std::find(l.units.begin(), l.units.begin() + static_cast<std::ptrdiff_t>(i), n) !=
        l.units.begin() + static_cast<std::ptrdiff_t>(i)) {
      stage_at(-1, "llm", "'" + n + "' is listed twice (each rank needs a unit of its own)");
      continue;
    }
    if (!is_unit(-1, "llm", n)) continue;
    if (l.tensor_parallel > 1 && topo.fabric_of(n).empty())
      stage_at(-1, "llm", "'" + n + "' has no fabric for the tensor-parallel all-reduces");
    else if (l.pipeline_parallel > 1 && topo.fabric_of(n).empty())
      stage_at(-1, "llm", "'" + n + "' has no fabric for the pipeline stages' sends");
    const std::size_t first = i - i % static_cast<std::size_t>(l.tensor_parallel);
    if (l.tensor_parallel > 1 && topo.unit(l.units[first]) && topo.fabric_of(n) != topo.fabric_of(l.units[first]))
      stage_at(-1, "llm", "'" + n + "' and '" + l.units[first] + "' are in one instance but their fabrics differ");
    op probe;
    probe.prec = decoder_gemm_precision(l.weights);
    if (!unit_peak_per_cycle(*topo.unit(n), probe))
      stage_at(-1, "llm", "'" + n + "' has no tensor throughput for " + to_string(probe.prec));
    op vec;  // decode_attention's class and precision (decoder.cpp)
    vec.cls = op_class::vector;
    vec.prec = precision::fp32;
    if (l.decode_attention == decode_attention_kernel::per_head && !unit_peak_per_cycle(*topo.unit(n), vec))
      stage_at(-1, "llm", "'" + n + "' has no fp32 throughput for decode_attention: per_head");
  }
  if (!(l.kv_cache_bytes > 0)) {
    stage_at(-1, "llm", "no room for a KV cache: the weights fill the memory (or kv_cache is 0)");
  } else {
    decoder_options o;
    o.tensor_parallel = l.tensor_parallel;
    o.pipeline_parallel = l.pipeline_parallel;
    o.kv = l.kv;
    const double per_token = decoder_kv_bytes_per_token_per_rank(l.shape, o);
    double need = (static_cast<double>(l.prompt_tokens.max) + l.output_tokens.max) * per_token;
    for (const auto& e : s.trace)
      need = std::max(need, (static_cast<double>(e.prompt_tokens) + e.output_tokens) * per_token);
    const double lane = l.kv_cache_bytes_per_lane();
    if (need > lane)
      stage_at(-1, "llm", "the longest request needs " + gb(need) + " of KV cache per rank but there are " + gb(lane) +
                              (l.pipeline_parallel > 1 ? " per micro-batch lane" : ""));
  }
}

// A stream's stages: their units exist, once each, and can run every operator.
void check_stages(const stream_config& s, const topology& topo, problems& out) {
  const stream_problems report{s, topo, out};
  const auto stage_at = [&](int k, const std::string& key, const std::string& msg) { report.at(k, key, msg); };
  const auto is_unit = [&](int k, const std::string& key, const std::string& name) { return report.is_unit(k, key, name); };
  for (std::size_t k = 0; k < s.stages.size(); ++k) {
    const auto& st = s.stages[k];
    const int ki = static_cast<int>(k);
    const std::vector<std::string> names = st.all_units();
    const std::string key = st.units.empty() ? "unit" : "units";
    for (std::size_t i = 0; i < names.size(); ++i) {
      const std::string& n = names[i];
      if (std::find(names.begin(), names.begin() + static_cast<std::ptrdiff_t>(i), n) !=
          names.begin() + static_cast<std::ptrdiff_t>(i)) {
        stage_at(ki, key, "'" + n + "' is listed twice");
        continue;
      }
      if (!is_unit(ki, key, n)) continue;
      const compute_unit_config& u = *topo.unit(n);
      for (const auto& o : st.graph.ops) {
        if (o.kind == op_kind::collective) {
          if (st.parallel == parallel_kind::data && names.size() > 1 && topo.fabric_of(n).empty()) {
            stage_at(ki, key, "'" + n + "' has no fabric for collective '" + o.name + "'");
            break;
          }
        } else if (o.kind == op_kind::transfer) {
          bool found = false;
          for (const auto& h : topo.first_hops(n)) found |= topo.reach(h).count(o.target) > 0;
          if (!found) stage_at(ki, key, "'" + n + "' cannot reach '" + o.target + "' (operator " + o.name + ")");
        } else if (o.ops > 0 && !unit_peak_per_cycle(u, o)) {
          stage_at(ki, key, "'" + n + "' has no throughput for " + to_string(o.prec) + " (operator " + o.name + ")");
          break;
        }
      }
    }
    if (st.parallel == parallel_kind::data && names.size() > 1) {
      const std::string f = topo.unit(names.front()) ? topo.fabric_of(names.front()) : "";
      for (const auto& n : names)
        if (topo.unit(n) && topo.fabric_of(n) != f)
          stage_at(ki, key, "the data-parallel units do not share one fabric ('" + n + "')");
    }
  }
}

// Resident bytes per memory against its capacity.
void check_capacity(const workload_config& workload, const topology& topo, problems& out) {
  auto at = [&](const std::string& who, const std::string& key, const std::string& msg) {
    out.push_back({who, -1, key, msg});
  };
  std::map<std::string, double> on_memory;
  for (const auto& [u, bytes] : resident_bytes(workload)) {
    if (!topo.unit(u)) continue;
    const std::string m = topo.memory_of(u);
    if (!m.empty()) on_memory[m] += bytes;
  }
  for (const auto& [m, bytes] : on_memory) {
    const memory_config* mc = topo.target(m);
    if (mc && mc->capacity_B > 0 && bytes > mc->capacity_B)
      at(m, "capacity", "the models placed on units using it need " + gb(bytes) +
                            " (weights, training state, KV caches and serving engines' reserved memory) but it holds " + gb(mc->capacity_B));
  }
}

}  // namespace

std::vector<platform_problem> check_platform(const platform_config& cfg, const workload_config& workload) {
  topology topo(cfg);
  std::vector<platform_problem> out = topo.problems();
  check_unit_paths(cfg, topo, out);
  for (const auto& s : workload.streams) {
    if (s.is_llm) check_llm_stream(s, topo, out);
    else check_stages(s, topo, out);
  }
  check_capacity(workload, topo, out);
  return out;
}

double default_kv_cache_bytes(const platform_config& cfg, const workload_config& workload, const stream_config& s) {
  topology topo(cfg);
  if (s.llm.units.empty() || !topo.unit(s.llm.units.front())) return 0;
  const std::string m = topo.memory_of(s.llm.units.front());
  const memory_config* mc = topo.target(m);
  if (!mc) return 0;
  // Everything else resident on this memory, and how many of this stream's ranks share it.
  workload_config others;
  for (const auto& o : workload.streams)
    if (&o != &s) others.streams.push_back(o);
  double other = 0;
  for (const auto& [u, bytes] : resident_bytes(others))
    if (topo.unit(u) && topo.memory_of(u) == m) other += bytes;
  int ranks = 0;
  for (const auto& u : s.llm.units)
    if (topo.unit(u) && topo.memory_of(u) == m) ++ranks;
  decoder_options o;
  o.tensor_parallel = s.llm.tensor_parallel;
  o.pipeline_parallel = s.llm.pipeline_parallel;
  o.weights = s.llm.weights;
  const double weights = decoder_weight_bytes_per_rank(s.llm.shape, o);
  const double resident = other + ranks * (weights + s.llm.reserved_bytes);
  const double kv = s.llm.kv_share_of_free ? s.llm.kv_share * (mc->capacity_B - resident)
                                           : s.llm.kv_share * mc->capacity_B - resident;
  return kv / std::max(1, ranks);
}

}  // namespace ptsim::tlm_config
