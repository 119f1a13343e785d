#pragma once
// The scenario reader's sections (resolve.cpp runs them in order): each fills its part of a
// scenario from the validated document and reports problems through the view.
#include <filesystem>
#include <string>
#include <vector>

#include "ptsim/scenarios/scenario.hpp"
#include "yaml_tree.hpp"

namespace ptsim::scenarios::detail {

/// A number as diagnostics show it (%.10g).
std::string fmt_g(double v);

/// A period the control loop can only honour in whole control ticks: given explicitly and
/// not a whole multiple, says (as a warning) what will happen instead of rounding silently.
void warn_unless_ticks(const view& v, const char* key, double value, double tick, bool rounds_up);

/// A file named in the scenario, relative to the scenario's own file.
std::filesystem::path relative_to_scenario(const scenario& sc, const std::string& file);
/// The file named by key `key` of `v`, relative to the folder of the scenario file that wrote
/// it: a base scenario's graph is found beside the base, wherever the derived file is.
std::filesystem::path relative_to_writer(const scenario& sc, const view& v, const std::string& key);

/// platform.supply: the VR and PSU stages (resolve_platform.cpp).
void resolve_supply(const view& platform, scenario& sc);
/// platform.domains: OPP tables, inline or from a device tree (resolve_platform.cpp).
void resolve_domains(const view& platform, scenario& sc);
/// platform.components, through each component kind (resolve_platform.cpp).
void resolve_components(const view& platform, scenario& sc);
/// workload: streams, stages, models, graphs and traces (resolve_workload.cpp).
void resolve_workload(const view& w, const view& platform, scenario& sc);
/// policy.scheduler: the CPU scheduler's runqueues, capacities and energy model when tasks
/// are on (resolve_workload.cpp); after the domains, components and workload.
void resolve_scheduler(const view& policy, const view& workload, scenario& sc);
/// thermal: floorplan, package, model, initial state; the nodes a zone's sensor may read
/// (resolve_thermal.cpp).
void resolve_thermal(const view& t, scenario& sc, std::vector<std::string>& sensor_nodes);
/// The least power the platform, or the components named in `only`, can draw: lowest
/// voltages, idle, at the ambient temperature (resolve.cpp). A limit below it cannot be met.
double floor_power_W(const scenario& sc, const std::vector<std::string>* only);

/// The entries of a mapping keyed by DVFS domain (policy.limits, policy.governors) for each
/// domain they apply to: keys with shell wildcards (* ? [...], fnmatch) apply to every domain
/// they match, patterns first in the file's order, the domain's own entry (flagged true)
/// last. Reports a name that is no domain and a pattern that matches none (resolve_limits.cpp).
std::vector<std::pair<std::size_t, std::vector<std::pair<view, bool>>>> entries_by_domain(const view& m,
                                                                                         const scenario& sc);
/// policy.limits: per-domain clock range and board power limit (resolve_limits.cpp).
void resolve_limits(const view& limits, scenario& sc);
/// policy: governors, thermal and fan zones, power cap, limits (resolve_policy.cpp).
void resolve_policy(const view& p, scenario& sc, const std::vector<std::string>& sensor_nodes);

}  // namespace ptsim::scenarios::detail
