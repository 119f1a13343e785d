#include "ptsim/tlm/platform.hpp"

#include <stdexcept>
#include <tlm_utils/tlm_quantumkeeper.h>

namespace ptsim::tlm {

platform::platform(const platform_config& cfg, const workload_config& workload,
                   const std::map<std::string, operating_point>& initial, double control_period_s,
                   std::uint64_t seed) {
  ::tlm::tlm_global_quantum::instance().set(sc_core::sc_time(cfg.quantum.value(), sc_core::SC_SEC));
  for (const auto& [name, op] : initial) clocks_[name] = std::make_unique<domain_clock>(op.hz, op.volts);

  std::map<std::string, memory*> mem_by_name;
  for (const auto& m : cfg.memories) {
    if (!(m.bandwidth_Bps > 0)) throw std::invalid_argument("memory '" + m.name + "' has zero bandwidth");
    memories_.push_back(std::make_unique<memory>(m.name.c_str(), m, control_period_s));
    mem_by_name[m.name] = memories_.back().get();
  }
  std::map<std::string, interconnect*> ic_by_name;
  for (const auto& i : cfg.interconnects) {
    if (!(i.bandwidth_Bps > 0)) throw std::invalid_argument("interconnect '" + i.name + "' has zero bandwidth");
    auto it = mem_by_name.find(i.connect);
    if (it == mem_by_name.end())
      throw std::invalid_argument("interconnect '" + i.name + "' connects to '" + i.connect + "', which is not a memory");
    interconnects_.push_back(std::make_unique<interconnect>(i.name.c_str(), i, control_period_s));
    interconnects_.back()->initiator.bind(it->second->socket);
    ic_by_name[i.name] = interconnects_.back().get();
  }
  std::map<std::string, compute_unit*> unit_by_name;
  std::map<std::string, int> ic_fanin;
  for (const auto& u : cfg.units) {
    auto cl = clocks_.find(u.domain);
    if (cl == clocks_.end()) throw std::invalid_argument("unit '" + u.name + "' is in unknown domain '" + u.domain + "'");
    auto it = ic_by_name.find(u.connect);
    if (it == ic_by_name.end())
      throw std::invalid_argument("unit '" + u.name + "' connects to '" + u.connect + "', which is not an interconnect");
    units_.push_back(std::make_unique<compute_unit>(u.name.c_str(), u, *cl->second, control_period_s));
    units_.back()->socket.bind(it->second->target);
    ++ic_fanin[u.connect];
    unit_by_name[u.name] = units_.back().get();
  }
  // Dangling parts: an interconnect nobody uses would leave its target socket unbound.
  for (const auto& i : cfg.interconnects)
    if (!ic_fanin.count(i.name)) throw std::invalid_argument("interconnect '" + i.name + "' has no initiator connected");
  std::map<std::string, int> mem_fanin;
  for (const auto& i : cfg.interconnects) ++mem_fanin[i.connect];
  for (const auto& m : cfg.memories)
    if (mem_fanin[m.name] > 1)
      throw std::invalid_argument("memory '" + m.name + "' is bound by more than one interconnect");
  for (const auto& s : workload.streams)
    for (const auto& st : s.stages) {
      auto it = unit_by_name.find(st.unit);
      if (it == unit_by_name.end()) throw std::invalid_argument("stream '" + s.name + "' uses unknown unit '" + st.unit + "'");
      if (!it->second->config().ops_per_cycle.count(st.graph.prec))
        throw std::invalid_argument("stream '" + s.name + "': unit '" + st.unit + "' has no ops_per_cycle for " +
                                    to_string(st.graph.prec));
    }
  engine_ = std::make_unique<workload_engine>("workload", workload, unit_by_name, seed);
}

platform::~platform() = default;

std::uint64_t platform::transactions() const {
  std::uint64_t n = 0;
  for (const auto& m : memories_) n += m->transactions();
  return n;
}

}  // namespace ptsim::tlm
