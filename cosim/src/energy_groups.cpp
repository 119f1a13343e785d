#include "energy_groups.hpp"

#include <algorithm>

namespace ptsim::cosim {

std::string energy_group(const scenarios::component_ref& c) {
  switch (c.role) {
    case tlm_config::component_role::compute: return c.kind == "cpu_cluster" ? "cpu" : c.kind;
    case tlm_config::component_role::interconnect: return "links";
    case tlm_config::component_role::target:
      if (c.kind == "nic") return "links";
      if (c.kind == "nvme") return "storage";
      return "memory";
  }
  return "other";
}

std::vector<std::pair<std::string, double>> group_energy(
    const scenarios::scenario& sc, const std::vector<std::pair<std::string, double>>& component_energy_J,
    double supply_losses_J) {
  std::vector<std::pair<std::string, double>> out;
  for (std::size_t i = 0; i < component_energy_J.size(); ++i) {
    // The rows after the scenario's components (the fans, the base power) are groups of their own.
    const std::string g = i < sc.components.size() ? energy_group(sc.components[i]) : component_energy_J[i].first;
    auto it = std::find_if(out.begin(), out.end(), [&](const auto& e) { return e.first == g; });
    if (it == out.end()) it = out.insert(out.end(), {g, 0.0});
    it->second += component_energy_J[i].second;
  }
  out.emplace_back("supply_losses", supply_losses_J);
  return out;
}

}  // namespace ptsim::cosim
