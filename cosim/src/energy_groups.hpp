#pragma once
// Which group a component's energy counts in (energy_group_J[<group>]): what an architect
// asks of a platform's energy, by kind of part.
#include <string>
#include <utility>
#include <vector>

#include "ptsim/scenarios/scenario.hpp"

namespace ptsim::cosim {

/// "cpu" for CPU clusters; a compute unit's kind otherwise ("gpu", "npu", ...); "memory" for
/// DRAM; "links" for interconnects and NICs; "storage" for NVMe; "fans" for the fans.
std::string energy_group(const scenarios::component_ref& c);

/// Energy by group, in order of first appearance in `component_energy_J` (indexed like the
/// scenario's components, then "fans"), and last "supply_losses": the wall's energy beyond
/// the components' (VR and PSU losses).
std::vector<std::pair<std::string, double>> group_energy(
    const scenarios::scenario& sc, const std::vector<std::pair<std::string, double>>& component_energy_J,
    double supply_losses_J);

}  // namespace ptsim::cosim
