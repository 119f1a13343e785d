// Raw (validated YAML) -> resolved structs: defaults applied, units stripped once,
// cross-references (domains, connections, blocks) checked.
#include "resolve.hpp"

#include <set>

#include "ptsim/tlm/model_zoo.hpp"

namespace ptsim::scenarios::detail {
namespace {

power::leakage_params resolve_leakage(const view& v) {
  power::leakage_params p;
  p.power_ref = units::watts(v.si("power"));
  p.v_ref = units::volts(v.si("v_ref"));
  p.t_ref = units::abs_kelvin(v.si("t_ref"));
  p.t_double = units::kelvin(v.si("doubling"));
  p.v_exponent = v.num("v_exponent");
  return p;
}

void resolve_domains(const view& platform, scenario& sc) {
  for (const auto& [name, d] : platform.at("domains").entries()) {
    std::vector<power::opp> points;
    for (const auto& o : d.at("opps").items())
      points.push_back({units::hertz(o.si("freq")), units::volts(o.si("volt"))});
    power::dvfs_domain_config dc;
    dc.name = name;
    try {
      dc.opps = power::opp_table(points);
    } catch (const std::invalid_argument& e) {
      d.fail(std::string("bad operating points: ") + e.what(), "opps");
      continue;
    }
    dc.transition_latency = units::seconds(d.si("transition_latency"));
    sc.domains.push_back(std::move(dc));
  }
}

void resolve_compute(const std::string& name, const std::string& kind, const view& c, scenario& sc) {
  tlm::compute_unit_config u;
  u.name = name;
  u.kind = kind;
  u.domain = c.str("domain");
  u.connect = c.str("connect");
  u.cores = static_cast<int>(c.integer("cores"));
  for (const auto& [prec, ops] : c.at("ops_per_cycle").entries()) {
    try {
      u.ops_per_cycle[tlm::parse_precision(prec)] = std::strtod(ops.scalar().c_str(), nullptr);
    } catch (const std::invalid_argument& e) {
      ops.fail(e.what());
    }
  }
  if (u.ops_per_cycle.empty()) c.fail("a compute unit needs ops_per_cycle for at least one precision", "ops_per_cycle");
  u.efficiency = c.num("efficiency");
  u.vector_efficiency = c.num("vector_efficiency");
  u.launch_overhead = units::seconds(c.si("launch_overhead"));
  u.tile_bytes = c.si("tile");
  sc.platform.units.push_back(u);

  component_power cp;
  cp.component = name;
  cp.kind = component_power::model::compute;
  if (!c.has("c_eff")) c.fail("missing required key 'c_eff' (switched capacitance, e.g. \"300 pF\")", "c_eff");
  else cp.compute.c_eff = units::farads(c.si("c_eff"));
  cp.compute.stall_activity = c.num("stall_activity");
  cp.compute.leakage = resolve_leakage(c.at("leakage"));
  sc.power.push_back(cp);
}

void resolve_components(const view& platform, scenario& sc) {
  for (const auto& [name, c] : platform.at("components").entries()) {
    const std::string kind = c.str("kind");
    if (kind == "cpu_cluster" || kind == "npu") {
      resolve_compute(name, kind, c, sc);
    } else if (kind == "noc") {
      tlm::interconnect_config ic;
      ic.name = name;
      ic.kind = kind;
      ic.connect = c.str("connect");
      ic.bandwidth_Bps = c.si("bandwidth");
      ic.latency = units::seconds(c.si("latency"));
      sc.platform.interconnects.push_back(ic);
      component_power cp;
      cp.component = name;
      cp.kind = component_power::model::memory;
      cp.memory.background = units::watts(c.si("background_power"));
      cp.memory.energy_per_byte_read_J = c.si("energy_per_byte");
      cp.memory.energy_per_byte_write_J = c.si("energy_per_byte");
      sc.power.push_back(cp);
    } else if (kind == "lpddr") {
      tlm::memory_config m;
      m.name = name;
      m.kind = kind;
      m.bandwidth_Bps = c.si("bandwidth");
      m.efficiency = c.num("efficiency");
      m.latency = units::seconds(c.si("latency"));
      m.capacity_B = c.si("capacity");
      sc.platform.memories.push_back(m);
      component_power cp;
      cp.component = name;
      cp.kind = component_power::model::memory;
      cp.memory.background = units::watts(c.si("background_power"));
      cp.memory.energy_per_byte_read_J = c.si("energy_per_byte_read");
      cp.memory.energy_per_byte_write_J = c.si("energy_per_byte_write");
      sc.power.push_back(cp);
    }
  }
  // Cross-references: every unit's domain and link, every interconnect's memory.
  std::set<std::string> domains, interconnects, memories;
  for (const auto& d : sc.domains) domains.insert(d.name);
  for (const auto& i : sc.platform.interconnects) interconnects.insert(i.name);
  for (const auto& m : sc.platform.memories) memories.insert(m.name);
  auto names = [](const std::set<std::string>& s) {
    std::string r;
    for (const auto& x : s) r += (r.empty() ? "" : ", ") + x;
    return r.empty() ? std::string("none") : r;
  };
  view comps = platform.at("components");
  for (const auto& [name, c] : comps.entries()) {
    const std::string kind = c.str("kind");
    if (kind == "cpu_cluster" || kind == "npu") {
      if (!domains.count(c.str("domain")))
        c.fail("unknown DVFS domain '" + c.str("domain") + "' (domains: " + names(domains) + ")", "domain");
      if (!interconnects.count(c.str("connect")))
        c.fail("'" + c.str("connect") + "' is not an interconnect (interconnects: " + names(interconnects) + ")",
               "connect");
    } else if (kind == "noc") {
      if (!memories.count(c.str("connect")))
        c.fail("'" + c.str("connect") + "' is not a memory (memories: " + names(memories) + ")", "connect");
    }
  }
}

void resolve_workload(const view& w, scenario& sc) {
  std::set<std::string> unit_names;
  for (const auto& u : sc.platform.units) unit_names.insert(u.name);
  for (const auto& [name, s] : w.at("streams").entries()) {
    tlm::stream_config st;
    st.name = name;
    view arr = s.at("arrival");
    st.arrival = arr.str("kind") == "poisson" ? tlm::arrival_kind::poisson : tlm::arrival_kind::fixed_rate;
    st.rate = units::hertz(arr.si("rate"));
    st.start = units::seconds(arr.si("start"));
    st.queue_limit = static_cast<int>(s.integer("queue_limit"));
    const std::string stream_prec = s.str("precision");
    for (const auto& stage : s.at("stages").items()) {
      tlm::stage_config sg;
      sg.unit = stage.str("unit");
      if (!unit_names.count(sg.unit)) stage.fail("'" + sg.unit + "' is not a compute unit of the platform", "unit");
      tlm::model_params params;
      for (const auto& [k, v] : stage.at("params").entries()) params[k] = std::strtod(v.scalar().c_str(), nullptr);
      const std::string prec = stage.has("precision") ? stage.str("precision") : stream_prec;
      try {
        sg.graph = tlm::build_model(stage.str("model"), params, tlm::parse_precision(prec));
      } catch (const std::invalid_argument& e) {
        stage.fail(e.what(), "params");
      }
      st.stages.push_back(std::move(sg));
    }
    if (st.stages.empty()) s.fail("a stream needs at least one stage", "stages");
    sc.workload.streams.push_back(std::move(st));
  }
}

void resolve_thermal(const view& t, scenario& sc) {
  auto& th = sc.thermal;
  th.ambient = units::abs_kelvin(t.si("ambient"));
  std::vector<thermal::block> blocks;
  for (const auto& b : t.at("floorplan").items())
    blocks.push_back({b.str("name"), b.si("width"), b.si("height"), b.si("x"), b.si("y")});
  try {
    th.fp = thermal::floorplan(blocks);
    for (const auto& p : th.fp.problems()) t.fail("floorplan: " + p, "floorplan");
  } catch (const std::exception& e) {
    t.fail(std::string("floorplan: ") + e.what(), "floorplan");
    return;
  }
  view pk = t.at("package");
  auto& p = th.package;
  p.t_chip = pk.si("t_chip"); p.k_chip = pk.si("k_chip"); p.p_chip = pk.si("p_chip");
  p.t_interface = pk.si("t_interface"); p.k_interface = pk.si("k_interface"); p.p_interface = pk.si("p_interface");
  p.s_spreader = pk.si("s_spreader"); p.t_spreader = pk.si("t_spreader");
  p.k_spreader = pk.si("k_spreader"); p.p_spreader = pk.si("p_spreader");
  p.s_sink = pk.si("s_sink"); p.t_sink = pk.si("t_sink"); p.k_sink = pk.si("k_sink"); p.p_sink = pk.si("p_sink");
  p.r_convec = pk.si("r_convec"); p.c_convec = pk.si("c_convec");
  th.initial = t.str("initial") == "steady" ? thermal::initial_state::steady : thermal::initial_state::ambient;
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
}

void resolve_policy(const view& p, scenario& sc) {
  auto& pol = sc.policy;
  pol.default_governor.name = p.str("governor");
  std::set<std::string> domains;
  for (const auto& d : sc.domains) domains.insert(d.name);
  for (const auto& [dom, g] : p.at("governors").entries()) {
    if (!domains.count(dom)) {
      g.fail("unknown DVFS domain '" + dom + "'");
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
    pol.per_domain[dom] = gc;
  }
  view t = p.at("thermal");
  auto& th = pol.thermal;
  th.governor = t.str("governor");
  th.zone.control_temp_K = t.si("control_temp");
  th.zone.switch_on_temp_K = t.has("switch_on_temp") ? t.si("switch_on_temp") : th.zone.control_temp_K - 10.0;
  th.zone.hysteresis_K = t.si("hysteresis");
  th.zone.polling_period_s = t.si("polling_period");
  th.zone.sustainable_power_W = t.has("sustainable_power") ? t.si("sustainable_power") : 0.0;
  if (th.zone.switch_on_temp_K >= th.zone.control_temp_K)
    t.fail("switch_on_temp must be below control_temp", "switch_on_temp");
  if (t.has("sensor")) {
    th.sensor = t.str("sensor");
    bool found = false;
    for (const auto& b : sc.thermal.fp.blocks()) found |= b.name == th.sensor;
    if (!found) t.fail("'" + th.sensor + "' is not a floorplan block", "sensor");
  }
  for (const auto& d : t.at("domains").items()) {
    if (!domains.count(d.scalar())) d.fail("unknown DVFS domain '" + d.scalar() + "'");
    th.domains.push_back(d.scalar());
  }
  if (p.has("power_cap")) {
    view c = p.at("power_cap");
    power::power_cap_config pc;
    pc.limit_W = c.si("limit");
    pc.window_s = c.si("window");
    pc.short_limit_W = c.has("short_limit") ? c.si("short_limit") : 0.0;
    pc.short_window_s = c.si("short_window");
    pc.soft_limit_W = c.has("soft_limit") ? c.si("soft_limit") : 0.0;
    pc.settle_s = c.si("settle");
    const double period = sc.control_period.value();
    if (pc.window_s < period) c.fail("window is shorter than the control period", "window");
    if (pc.short_limit_W > 0 && pc.short_window_s < period)
      c.fail("short_window is shorter than the control period", "short_window");
    if (pc.soft_limit_W > 0 && pc.soft_limit_W >= pc.limit_W) c.fail("soft_limit must be below limit", "soft_limit");
    for (const char* key : {"domains", "low_priority"})
      for (const auto& d : c.at(key).items()) {
        if (!domains.count(d.scalar())) d.fail("unknown DVFS domain '" + d.scalar() + "'");
        (std::string(key) == "domains" ? pc.domains : pc.low_priority).push_back(d.scalar());
      }
    pol.power_cap = pc;
  }
}

}  // namespace

void resolve(const view& root, scenario& sc) {
  sc.name = root.str("name");
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

  view platform = root.at("platform");
  sc.platform.quantum = units::seconds(platform.si("quantum"));
  resolve_domains(platform, sc);
  resolve_components(platform, sc);
  resolve_workload(root.at("workload"), sc);
  resolve_thermal(root.at("thermal"), sc);
  resolve_policy(root.at("policy"), sc);
}

}  // namespace ptsim::scenarios::detail
