// Scenario reader: the policy (cpufreq governors, thermal zones, power cap).
#include "resolve_sections.hpp"

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
#include "ptsim/power/cooler.hpp"
#include "ptsim/power/dt_opp.hpp"
#include "ptsim/power/energy_model.hpp"
#include "ptsim/thermal/floorplan_builder.hpp"
#include "ptsim/thermal/plant.hpp"
#include "ptsim/tlm_config/model_zoo.hpp"
#include "ptsim/tlm_config/operators.hpp"
#include "ptsim/tlm_config/topology.hpp"
#include "ptsim/tlm_config/training.hpp"

namespace ptsim::scenarios::detail {

namespace {

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

std::set<std::string> domain_names(const scenario& sc) {
  std::set<std::string> domains;
  for (const auto& d : sc.domains) domains.insert(d.name);
  return domains;
}

// Whether a stage of the workload (or an LLM stream's instances) names a unit of domain d: a
// process holds a context there from the start (gpu_boost's `context`).
bool workload_uses_domain(const scenario& sc, std::size_t d) {
  std::set<std::string> names;
  for (const auto& c : sc.components)
    if (c.domain == d) names.insert(c.name);
  auto named = [&](const std::vector<std::string>& units) {
    return std::any_of(units.begin(), units.end(), [&](const std::string& u) { return names.count(u) > 0; });
  };
  for (const auto& s : sc.workload.streams) {
    if (s.is_llm && named(s.llm.units)) return true;
    for (const auto& st : s.stages)
      if (named(st.all_units())) return true;
  }
  return false;
}

// policy.governors: a domain's own cpufreq governor, by name or with tunables; a key with
// wildcards names every domain it matches (the domain's own entry wins; two patterns
// naming one domain are ambiguous). gpu_boost with context_mhz on a domain the workload uses
// gets context = 1 unless given: the workload's process loads its model there at the start.
void resolve_governors(const view& p, scenario& sc) {
  power::policy_config& pol = sc.policy;
  for (const auto& [d, entries] : entries_by_domain(p.at("governors"), sc)) {
    const std::string& dom = sc.domains[d].name;
    const view& g = entries.back().first;
    if (!entries.back().second && entries.size() > 1) {
      g.fail("'" + entries[0].first.path() + "' and '" + g.path() + "' both name the governor of domain '" + dom +
             "': give '" + dom + "' its own entry");
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
    const auto ctx = gc.values.find("context_mhz");
    if (gc.name == "gpu_boost" && ctx != gc.values.end() && ctx->second > 0 && !gc.values.count("context") &&
        workload_uses_domain(sc, d))
      gc.values["context"] = 1;
    pol.per_domain[dom] = gc;
  }
}

// A zone's governor with its tunables (checked by creating it) and its trip points.
void resolve_zone_governor(const view& t, const scenario& sc, power::thermal_zone_spec& z) {
  z.governor = t.str("governor");
  for (const auto& [k, v] : t.at("tunables").entries()) z.values[k] = std::strtod(v.scalar().c_str(), nullptr);
  if (z.governor != "none") {
    try {
      power::thermal_governor_registry::instance().create(z.governor, z.values);  // checks the tunables
    } catch (const std::invalid_argument& e) {
      t.fail(e.what(), t.has("tunables") ? "tunables" : "governor");
    }
  } else if (!z.values.empty()) {
    t.fail("tunables given without a thermal governor", "tunables");
  }
  z.zone.control_temp_K = t.si("control_temp");
  z.zone.switch_on_temp_K = t.has("switch_on_temp") ? t.si("switch_on_temp") : z.zone.control_temp_K - 10.0;
  z.zone.hysteresis_K = t.si("hysteresis");
  z.zone.polling_period_s = t.si("polling_period");
  warn_unless_ticks(t, "polling_period", z.zone.polling_period_s, sc.control_period.value(), true);
  z.zone.sustainable_power_W = t.has("sustainable_power") ? t.si("sustainable_power") : 0.0;
  if (z.zone.switch_on_temp_K >= z.zone.control_temp_K)
    t.fail("switch_on_temp must be below control_temp", "switch_on_temp");
}

// A zone's cooling devices: DVFS domains by name, or the fans (a datacenter model's). A
// governor that splits a power budget (power_allocator) cannot drive the fans, which
// state no power per cooling state.
void resolve_cooling(const view& t, const scenario& sc, const std::set<std::string>& domains,
                     power::thermal_zone_spec& z) {
  bool needs_power = false;
  if (z.governor != "none") {
    try {
      needs_power = power::thermal_governor_registry::instance().create(z.governor, z.values)->needs_power_estimates();
    } catch (const std::invalid_argument&) {  // reported by resolve_zone_governor
    }
  }
  for (const auto& d : t.at("cooling").items()) {
    const std::string n = d.scalar();
    if (std::find(z.cooling.begin(), z.cooling.end(), n) != z.cooling.end()) {
      d.fail("'" + n + "' is listed twice");
    } else if (n == power::fans_cooling_name) {
      if (sc.thermal.kind != thermal::package_kind::datacenter)
        d.fail("the fans are a cooling device only with thermal.model: datacenter");
      else if (needs_power)
        d.fail("governor " + z.governor + " splits a power budget and the fans state no power per speed: "
               "use step_wise for a zone that cools the fans");
    } else if (!domains.count(n)) {
      std::string list;
      for (const auto& dn : domains) list += dn + ", ";
      d.fail("unknown cooling device '" + n + "' (a DVFS domain: " + list + "or fans)");
    }
    z.cooling.push_back(n);
  }
  if (t.has("cooling") && z.cooling.empty()) t.fail("a zone needs at least one cooling device", "cooling");
}

// One zone: policy.thermal (cooling every domain unless it names its devices) or an
// entry of policy.thermal_zones (cooling what it names).
power::thermal_zone_spec resolve_zone(const std::string& name, const view& t, const scenario& sc,
                                      const std::set<std::string>& domains,
                                      const std::vector<std::string>& sensor_nodes) {
  power::thermal_zone_spec z;
  z.name = name;
  resolve_zone_governor(t, sc, z);
  z.sensor = resolve_sensor(t, sensor_nodes);
  resolve_cooling(t, sc, domains, z);
  return z;
}

// policy.power_cap: limits and windows, each window a whole number of bounded control periods.
power::power_cap_config resolve_power_cap(const view& c, const scenario& sc, const std::set<std::string>& domains) {
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
  return pc;
}

}  // namespace

void resolve_policy(const view& p, scenario& sc, const std::vector<std::string>& sensor_nodes) {
  auto& pol = sc.policy;
  pol.default_governor.name = p.str("governor");
  pol.memory_governor.name = p.str("memory_governor");
  pol.devfreq_governor.name = p.str("devfreq_governor");
  const std::set<std::string> domains = domain_names(sc);
  resolve_governors(p, sc);
  pol.thermal = resolve_zone("thermal", p.at("thermal"), sc, domains, sensor_nodes);
  for (const auto& [name, z] : p.at("thermal_zones").entries()) {
    if (name == pol.thermal.name) z.fail("'" + name + "' is policy.thermal's zone: give this one another name");
    pol.zones.push_back(resolve_zone(name, z, sc, domains, sensor_nodes));
  }
  if (p.has("power_cap")) pol.power_cap = resolve_power_cap(p.at("power_cap"), sc, domains);
  resolve_limits(p.at("limits"), sc);
}

}  // namespace ptsim::scenarios::detail
