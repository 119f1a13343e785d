// Raw (validated YAML) -> resolved structs: defaults applied, units stripped once,
// cross-references (domains, connections, blocks) checked. The sections live in
// resolve_platform.cpp, resolve_workload.cpp, resolve_thermal.cpp and resolve_policy.cpp.
#include "resolve.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <string>

#include "resolve_sections.hpp"

namespace ptsim::scenarios::detail {

namespace fs = std::filesystem;

std::string fmt_g(double v) {
  char b[40];
  std::snprintf(b, sizeof b, "%.10g", v);
  return b;
}

void warn_unless_ticks(const view& v, const char* key, double value, double tick, bool rounds_up) {
  if (!v.has(key) || !(tick > 0)) return;
  const double n = value / tick;
  if (std::fabs(n - std::round(n)) <= 1e-9 * n) return;
  const double eff = (rounds_up ? std::ceil(n) : std::max(1.0, std::round(n))) * tick;
  v.warn(std::string(key) + " (" + fmt_g(value) + " s) is not a whole multiple of control_period (" + fmt_g(tick) +
             " s): it takes effect as " + fmt_g(eff) + " s",
         key);
}

std::filesystem::path relative_to_scenario(const scenario& sc, const std::string& file) {
  const fs::path p(file);
  if (p.is_absolute() || sc.source.empty() || sc.source.find("(built in)") != std::string::npos) return p;
  return fs::path(sc.source).parent_path() / p;
}

std::filesystem::path relative_to_writer(const scenario& sc, const view& v, const std::string& key) {
  const std::string file = v.str(key);
  const std::string writer = v.file_of(key);
  if (writer.empty() || fs::path(file).is_absolute()) return relative_to_scenario(sc, file);
  return fs::path(writer).parent_path() / file;
}

// The least power the platform (or the components named in `only`) can draw: every compute
// unit at its domain's lowest voltage, at the ambient temperature, in its deepest idle state
// (or leaking, without one), every memory and device idle in its lowest-power state. Dynamic
// power, fans and heating above the ambient only add to it, so a cap below it cannot be met.
double floor_power_W(const scenario& sc, const std::vector<std::string>* only) {
  double floor = 0;
  const double t_amb = sc.thermal.ambient.value();
  for (const auto& c : sc.components) {
    if (only && std::find(only->begin(), only->end(), c.name) == only->end()) continue;
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

namespace {

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

  {
    // The window starts on a record boundary, so that its figures and the timeseries
    // samples inside it cover the same time.
    const view m = root.at("measure");
    sc.measure_from = units::seconds(m.si("from"));
    const double from = sc.measure_from.value(), k = from / rp;
    if (from >= dur)
      m.fail("measure.from (" + fmt_g(from) + " s) must be before the end of the run (" + fmt_g(dur) + " s)", "from");
    else if (std::fabs(k - std::round(k)) > 1e-9 * std::max(1.0, k))
      m.fail("measure.from (" + fmt_g(from) + " s) must be a whole multiple of record_period (" + fmt_g(rp) + " s)",
             "from");
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
  resolve_scheduler(root.at("policy"), root.at("workload"), sc);
  place_components(sc);
  {
    const view lim = root.at("limits");
    sc.limits.max_arrivals = lim.num("max_arrivals");
    if (lim.has("max_file_size")) sc.limits.max_file_bytes = lim.si("max_file_size");
    if (lim.has("max_memory")) sc.limits.max_memory_bytes = lim.si("max_memory");
  }
  if (sc.policy.power_cap) {
    // Said at load time rather than discovered as a run that never meets its cap.
    const double floor = floor_power_W(sc, nullptr);
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
