// Scenario reader: the thermal section (floorplan, package, phone and datacenter models).
#include "enum_tables.hpp"
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
#include <utility>

#include "ptsim/power/compute_power.hpp"
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
  if (!v.has("board")) return;
  const view b = v.at("board");
  thermal::secondary_path_config s;
  s.r_convec_sec = b.si("r_board_frame");
  s.c_convec_sec = b.si("c_board");
  s.t_metal = b.si("t_metal");
  s.t_c4 = b.si("t_c4");
  s.s_sub = b.si("s_sub");
  s.t_sub = b.si("t_sub");
  s.s_solder = b.si("s_solder");
  s.t_solder = b.si("t_solder");
  s.s_pcb = b.si("s_pcb");
  s.t_pcb = b.si("t_pcb");
  c.board = s;
}

// HotSpot's package-model sink and fan; only_given: change `c` by the keys present.
void resolve_sink(const view& v, thermal::sink_fan_config& c, bool only_given) {
  auto take = [&](const char* key) { return !only_given || v.has(key); };
  if (take("type")) c.pin_fins = v.str("type") == "pin_fin";
  if (take("flow")) c.impinging_flow = v.str("flow") == "top";
  for (auto [key, member] : {std::pair{"fin_height", &thermal::sink_fan_config::fin_height},
                             {"fin_width", &thermal::sink_fan_config::fin_width},
                             {"channel_width", &thermal::sink_fan_config::channel_width},
                             {"pin_height", &thermal::sink_fan_config::pin_height},
                             {"pin_diam", &thermal::sink_fan_config::pin_diam},
                             {"pin_dist", &thermal::sink_fan_config::pin_dist},
                             {"fan_radius", &thermal::sink_fan_config::fan_radius},
                             {"motor_radius", &thermal::sink_fan_config::motor_radius}})
    if (take(key)) c.*member = v.si(key);
  if (take("rpm")) c.rpm = v.num("rpm");
}

void resolve_datacenter(const view& v, thermal::thermal_config& th) {
  auto& dc = th.datacenter;
  thermal::sink_fan_config common;
  resolve_sink(v.at("sink"), common, false);
  for (const auto& [name, d] : v.at("dies").entries()) {
    thermal::datacenter_die die;
    die.name = name;
    for (const auto& b : d.at("blocks").items()) die.blocks.push_back(b.scalar());
    if (die.blocks.empty()) die.blocks.push_back(name);
    die.package = th.package;
    resolve_package(d.at("package"), die.package, true);
    if (v.has("sink") || d.has("sink")) {
      die.sink = common;
      resolve_sink(d.at("sink"), *die.sink, true);
      const view where = d.has("sink") ? d.at("sink") : v.at("sink");
      if (!(die.sink->motor_radius < die.sink->fan_radius))
        where.fail("die '" + name + "': motor_radius must be below fan_radius", "motor_radius");
    }
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

}  // namespace

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
  th.kind = value_of(thermal_models, model);
  if (t.has("phone") && th.kind != thermal::package_kind::phone) t.fail("phone goes with model: phone", "phone");
  if (t.has("datacenter") && th.kind != thermal::package_kind::datacenter)
    t.fail("datacenter goes with model: datacenter", "datacenter");
  if (th.kind == thermal::package_kind::phone) resolve_phone(t.at("phone"), th.phone);
  if (th.kind == thermal::package_kind::datacenter) {
    if (!t.has("datacenter")) t.fail("model: datacenter needs a datacenter section (dies and streams)", "datacenter");
    else resolve_datacenter(t.at("datacenter"), th);
  }
  const std::string initial = t.str("initial");
  th.initial = value_of(initial_states, initial);
  if ((th.initial == thermal::initial_state::file) != t.has("initial_file"))
    t.fail(t.has("initial_file") ? "initial_file goes with initial: file" : "initial: file needs initial_file",
           t.has("initial_file") ? "initial_file" : "initial");
  else if (th.initial == thermal::initial_state::file) {
    th.initial_file = relative_to_writer(sc, t, "initial_file").string();
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

}  // namespace ptsim::scenarios::detail
