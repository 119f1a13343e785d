#include "ptsim/tlm_models/platform.hpp"

#include "ptsim/tlm_models/module_registry.hpp"
#include "ptsim/tlm_models/sanitizer_stack.hpp"

#include <algorithm>
#include <stdexcept>
#include <tlm_utils/tlm_quantumkeeper.h>

namespace ptsim::tlm_models {

// What elaboration knows while it binds sockets: the graph, every end's id (its address
// range is id << target_address_shift), and the modules made so far by name.
struct platform::wiring {
  explicit wiring(const platform_config& cfg) : topo(cfg) {}
  topology topo;
  std::map<std::string, std::uint64_t> id_of;
  std::map<std::string, memory*> mem_by_name;
  std::map<std::string, interconnect*> ic_by_name;
  std::map<std::string, compute_unit*> unit_by_name;
};

namespace {

// What elaboration cannot start from: zero bandwidth, a bad graph, a unit in no domain.
void check_elaboration(const platform_config& cfg, const workload_config& workload,
                       const std::map<std::string, operating_point>& initial) {
  for (const auto& m : cfg.memories)
    if (!(m.bandwidth_Bps > 0)) throw std::invalid_argument("memory '" + m.name + "' has zero bandwidth");
  for (const auto& i : cfg.interconnects)
    if (!(i.bandwidth_Bps > 0)) throw std::invalid_argument("interconnect '" + i.name + "' has zero bandwidth");
  const auto problems = check_platform(cfg, workload);
  if (!problems.empty()) throw std::invalid_argument(problems.front().text());
  for (const auto& u : cfg.units)
    if (!initial.count(u.domain)) throw std::invalid_argument("unit '" + u.name + "' is in unknown domain '" + u.domain + "'");
  for (const auto& m : cfg.memories)
    if (!m.domain.empty() && !initial.count(m.domain))
      throw std::invalid_argument("memory '" + m.name + "' is in unknown domain '" + m.domain + "'");
}

}  // namespace

platform::platform(const platform_config& cfg, const workload_config& workload,
                   const std::map<std::string, operating_point>& initial, double control_period_s,
                   std::uint64_t seed)
    : workload_(workload) {
  // SystemC's coroutines leave ASan's record of the stack stale (sanitizer_stack.hpp).
  sanitizer::record_true_stack_at_exit();
  // KV caches not sized by the scenario take what their memory has left.
  for (auto& s : workload_.streams)
    if (s.is_llm && !(s.llm.kv_cache_bytes > 0)) s.llm.kv_cache_bytes = default_kv_cache_bytes(cfg, workload_, s);
  check_elaboration(cfg, workload_, initial);

  tlm::tlm_global_quantum::instance().set(sc_core::sc_time(cfg.quantum.value(), sc_core::SC_SEC));
  for (const auto& [name, op] : initial) clocks_[name] = std::make_unique<domain_clock>(op.hz, op.volts);
  // Targets first, then interconnects, then units, each the module of its kind
  // (module_registry.hpp).
  wiring w(cfg);
  make_targets_and_interconnects(cfg, control_period_s, w);
  for (const auto& u : cfg.units) make_unit(u, control_period_s, w);
  engine_ = std::make_unique<workload_engine>("workload", workload_, w.unit_by_name, seed);
}

void platform::make_targets_and_interconnects(const platform_config& cfg, double control_period_s, wiring& w) {
  const module_registry& modules = module_registry::instance();
  for (const auto& m : cfg.memories) {
    memories_.push_back(modules.make_target(m, control_period_s));
    if (!m.domain.empty()) memories_.back()->set_clock(clocks_.at(m.domain).get());
    w.mem_by_name[m.name] = memories_.back().get();
    w.id_of[m.name] = w.id_of.size();
  }
  for (const auto& i : cfg.interconnects) {
    interconnects_.push_back(modules.make_interconnect(i, control_period_s));
    w.ic_by_name[i.name] = interconnects_.back().get();
    if (i.downstream().empty()) w.id_of[i.name] = w.id_of.size();
  }
  // Socket binding: each downstream in connect order, so port p is connect[p].
  for (const auto& i : cfg.interconnects) {
    interconnect& ic = *w.ic_by_name.at(i.name);
    for (const auto& c : i.downstream()) {
      if (auto m = w.mem_by_name.find(c); m != w.mem_by_name.end()) ic.initiator.bind(m->second->socket);
      else ic.initiator.bind(w.ic_by_name.at(c)->target);
    }
    for (const auto& [end, e] : w.topo.reach(i.name))
      ic.add_route(w.id_of.at(end), e.port, e.latency_s - i.latency.value());
  }
}

// A unit: its module, its sockets bound to its first hops, and its routes to its memory,
// its fabric and every other end it reaches.
void platform::make_unit(const compute_unit_config& u, double control_period_s, wiring& w) {
  units_.push_back(module_registry::instance().make_unit(u, *clocks_.at(u.domain), control_period_s));
  compute_unit& cu = *units_.back();
  w.unit_by_name[u.name] = &cu;
  const topology& topo = w.topo;
  const std::vector<std::string> hops = topo.first_hops(u.name);
  for (const auto& h : hops) {
    if (auto m = w.mem_by_name.find(h); m != w.mem_by_name.end()) cu.socket.bind(m->second->socket);
    else cu.socket.bind(w.ic_by_name.at(h)->target);
  }
  // Routes: the first hop (in socket order) that reaches each end.
  auto route_to = [&](const std::string& end) {
    unit_route r;
    for (std::size_t p = 0; p < hops.size(); ++p) {
      const auto& reach = topo.reach(hops[p]);
      auto it = reach.find(end);
      if (it == reach.end()) continue;
      r.target = w.id_of.at(end);
      r.port = static_cast<int>(p);
      r.latency_s = it->second.latency_s;
      break;
    }
    return r;
  };
  cu.set_memory_route(route_to(topo.memory_of(u.name)));
  if (!u.fabric.empty()) {
    // Collectives leave through the fabric hop itself.
    const auto& reach = topo.reach(u.fabric);
    const std::string end = topo.fabric_of(u.name);
    const auto it = std::find(hops.begin(), hops.end(), u.fabric);
    cu.set_fabric_route({w.id_of.at(end), static_cast<int>(it - hops.begin()), reach.at(end).latency_s});
  }
  for (const auto& h : hops)
    for (const auto& [end, e] : topo.reach(h))
      if (!cu.has_io_route(end)) cu.add_io_route(end, route_to(end));
}

platform::~platform() = default;

std::uint64_t platform::transactions() const {
  std::uint64_t n = 0;
  for (const auto& m : memories_) n += m->transactions();
  for (const auto& i : interconnects_)
    if (i->config().downstream().empty()) n += i->transactions();
  return n;
}

}  // namespace ptsim::tlm_models
