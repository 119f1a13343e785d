// Which memory DVFS domain a compute domain's memory traffic goes to (scenario::memory_domain_of):
// what a GPU's memory-clock lock (nvidia-smi -lmc, policy.limits.<gpu>.memory_freq) acts on.
#include "ptsim/scenarios/scenario.hpp"

namespace ptsim::scenarios {

std::size_t scenario::memory_domain_of(std::size_t d) const {
  const auto& pc = platform;
  // The memory domain at the end of `hop`'s chain of single-downstream interconnects.
  auto memory_domain_from = [&](std::string hop) -> std::size_t {
    for (std::size_t steps = 0; steps <= pc.interconnects.size(); ++steps) {
      for (const auto& m : pc.memories) {
        if (m.name != hop) continue;
        for (std::size_t k = 0; k < domains.size(); ++k)
          if (domains[k].memory && domains[k].name == m.domain) return k;
        return component_ref::none;
      }
      const tlm_config::interconnect_config* next = nullptr;
      for (const auto& i : pc.interconnects)
        if (i.name == hop) next = &i;
      if (!next || next->downstream().size() != 1) return component_ref::none;
      hop = next->downstream().front();
    }
    return component_ref::none;  // a cycle (the platform check reports it)
  };
  if (d >= domains.size() || domains[d].memory) return component_ref::none;
  std::size_t found = component_ref::none;
  bool any = false;
  for (const auto& u : pc.units) {
    if (u.domain != domains[d].name) continue;
    const std::size_t m = memory_domain_from(u.connect);
    if (m == component_ref::none || (any && m != found)) return component_ref::none;
    found = m;
    any = true;
  }
  return found;
}

}  // namespace ptsim::scenarios
