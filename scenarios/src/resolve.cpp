// Raw (validated YAML) -> resolved structs: defaults applied, units stripped once,
// cross-references (domains, connections, blocks) checked.
#include "resolve.hpp"

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
#include "ptsim/power/dt_opp.hpp"
#include "ptsim/power/energy_model.hpp"
#include "ptsim/thermal/floorplan_builder.hpp"
#include "ptsim/thermal/plant.hpp"
#include "ptsim/tlm/model_zoo.hpp"
#include "ptsim/tlm/operators.hpp"
#include "ptsim/tlm/topology.hpp"
#include "ptsim/tlm/training.hpp"

namespace ptsim::scenarios::detail {
namespace {

std::string fmt_g(double v) {
  char b[40];
  std::snprintf(b, sizeof b, "%.10g", v);
  return b;
}

// A period the control loop can only honour in whole control ticks: given explicitly and
// not a whole multiple, say what will happen instead of rounding silently.
void warn_unless_ticks(const view& v, const char* key, double value, double tick, bool rounds_up) {
  if (!v.has(key) || !(tick > 0)) return;
  const double n = value / tick;
  if (std::fabs(n - std::round(n)) <= 1e-9 * n) return;
  const double eff = (rounds_up ? std::ceil(n) : std::max(1.0, std::round(n))) * tick;
  v.warn(std::string(key) + " (" + fmt_g(value) + " s) is not a whole multiple of control_period (" + fmt_g(tick) +
             " s): it takes effect as " + fmt_g(eff) + " s",
         key);
}


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
    bool bad_point = false;
    for (const auto& o : d.at("opps").items()) {
      // One form per point: ptsim's quantities, or the device tree's integers (Hz, uV).
      const bool plain = o.has("freq") || o.has("volt"), dt = o.has("opp-hz") || o.has("opp-microvolt");
      if (plain && dt) {
        o.fail("give freq and volt, or opp-hz and opp-microvolt, not both forms", o.has("opp-hz") ? "opp-hz" : "opp-microvolt");
        bad_point = true;
      } else if (dt) {
        if (!o.has("opp-hz") || !o.has("opp-microvolt")) {
          o.fail(std::string("missing required key '") + (o.has("opp-hz") ? "opp-microvolt" : "opp-hz") +
                 "' (the device-tree form needs opp-hz and opp-microvolt)");
          bad_point = true;
          continue;
        }
        // opp-microvolt is the target, or <target min max>: the target is what runs.
        const view uv = o.at("opp-microvolt");
        long long target = 0;
        if (uv.is_scalar()) {
          target = o.integer("opp-microvolt");
        } else {
          const auto vals = uv.items();
          if (vals.size() != 1 && vals.size() != 3) {
            uv.fail("expected <target> or <target min max> (1 or 3 values), found " + std::to_string(vals.size()));
            bad_point = true;
            continue;
          }
          // Validated integers, possibly written as 1e6 or 800000.0: read them as numbers.
          const auto micro = [](const view& v) { return static_cast<long long>(std::strtod(v.scalar().c_str(), nullptr)); };
          target = micro(vals[0]);
          if (vals.size() == 3 && !(micro(vals[1]) <= target && target <= micro(vals[2]))) {
            uv.fail("the target voltage must lie within [min, max]");
            bad_point = true;
            continue;
          }
        }
        const power::opp_table one = power::opp_table_from_dt(
            {{static_cast<std::uint64_t>(o.integer("opp-hz")), static_cast<std::uint64_t>(target)}});
        points.push_back({units::hertz(one.frequency_hz(0)), units::volts(one.voltage_v(0))});
      } else if (!o.has("freq") || !o.has("volt")) {
        o.fail(std::string("missing required key '") + (o.has("freq") ? "volt" : "freq") +
               "' (an operating point needs freq and volt, or opp-hz and opp-microvolt)");
        bad_point = true;
      } else {
        points.push_back({units::hertz(o.si("freq")), units::volts(o.si("volt"))});
      }
    }
    if (bad_point) continue;
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

// --- components --------------------------------------------------------------------

std::map<tlm::precision, double> per_precision(const view& m) {
  std::map<tlm::precision, double> out;
  for (const auto& [prec, v] : m.entries()) {
    try {
      out[tlm::parse_precision(prec)] = std::strtod(v.scalar().c_str(), nullptr);
    } catch (const std::invalid_argument& e) {
      v.fail(e.what());
    }
  }
  return out;
}

void add_memory_power(scenario& sc, const std::string& name, double background_W, double read_J, double write_J) {
  component_power cp;
  cp.component = name;
  cp.kind = component_power::model::memory;
  cp.memory.background = units::watts(background_W);
  cp.memory.energy_per_byte_read_J = read_J;
  cp.memory.energy_per_byte_write_J = write_J;
  sc.power.push_back(cp);
}

// Idle states: the list, or the one-state shorthand idle_exit_latency/idle_residency.
void resolve_idle_states(const view& c, tlm::compute_unit_config& u, component_power& cp) {
  cp.idle_latency_limit_s = c.has("idle_latency_limit") ? c.si("idle_latency_limit")
                                                        : std::numeric_limits<double>::infinity();
  if (c.has("idle_exit_latency") && c.has("idle_states")) {
    c.fail("give idle_states or the idle_exit_latency shorthand, not both", "idle_exit_latency");
    return;
  }
  if (!c.has("idle_exit_latency") && c.has("idle_residency")) {
    c.fail("idle_residency goes with idle_exit_latency (or give idle_states)", "idle_residency");
    return;
  }
  if (c.has("idle_exit_latency")) {
    power::idle_state s;
    s.name = "idle";
    s.leakage_fraction = 1.0;
    s.exit_latency_s = c.si("idle_exit_latency");
    s.target_residency_s = c.si("idle_residency");
    cp.idle_states.push_back(s);
  }
  const auto items = c.at("idle_states").items();
  bool ok = true;
  for (const auto& it : items) {
    power::idle_state s;
    s.name = it.str("name");
    if (it.has("power") == it.has("leakage_fraction")) {
      it.fail("give the state's power or its leakage_fraction (one of them)", it.has("power") ? "leakage_fraction" : "");
      ok = false;
      continue;
    }
    if (it.has("power")) s.power_W = it.si("power");
    else s.leakage_fraction = it.num("leakage_fraction");
    s.entry_latency_s = it.si("entry_latency");
    s.exit_latency_s = it.si("exit_latency");
    s.target_residency_s = it.si("target_residency");
    cp.idle_states.push_back(s);
  }
  if (!ok) return;
  try {
    power::validate_idle_states(cp.idle_states);
  } catch (const std::invalid_argument& e) {
    c.fail(std::string("bad idle states: ") + e.what(), "idle_states");
    return;
  }
  for (const auto& s : cp.idle_states) u.idle_states.push_back({s.name, s.entry_latency_s, s.exit_latency_s});
}

void resolve_compute(const std::string& name, const std::string& kind, const view& c, const view& domains,
                     scenario& sc) {
  tlm::compute_unit_config u;
  u.name = name;
  u.kind = kind;
  u.domain = c.str("domain");
  u.connect = c.str("connect");
  if (c.has("fabric")) u.fabric = c.str("fabric");
  for (const auto& h : c.at("io").items()) u.io.push_back(h.scalar());
  if (kind == "gpu") {
    u.cores = static_cast<int>(c.integer("sms"));
    u.ops_per_cycle = per_precision(c.at("tensor_ops_per_cycle"));
    u.vector_ops_per_cycle = per_precision(c.at("vector_ops_per_cycle"));
    u.onchip_bytes = c.si("l2_cache");
  } else {
    u.cores = static_cast<int>(c.integer("cores"));
    u.ops_per_cycle = per_precision(c.at("ops_per_cycle"));
    if (kind == "npu") {
      u.vector_ops_per_cycle = per_precision(c.at("vector_ops_per_cycle"));
      u.onchip_bytes = c.si("sram");
    }
  }
  const std::string table = kind == "gpu" ? "tensor_ops_per_cycle" : "ops_per_cycle";
  if (u.ops_per_cycle.empty()) c.fail("a compute unit needs " + table + " for at least one precision", table);
  u.efficiency = c.num("efficiency");
  u.vector_efficiency = c.num("vector_efficiency");
  for (const auto& [k, v] : c.at("op_efficiency").entries()) {
    try {
      u.op_efficiency[tlm::parse_op_kind(k)] = std::strtod(v.scalar().c_str(), nullptr);
    } catch (const std::invalid_argument& e) {
      v.fail(e.what());
    }
  }
  u.launch_overhead = units::seconds(c.si("launch_overhead"));
  u.tile_bytes = c.si("tile");
  double dt_coefficient = -1;  // the domain's dynamic-power-coefficient, if it has one
  for (const auto& [dname, d] : domains.entries())
    if (dname == u.domain) {
      u.dvfs_stall = units::seconds(d.si("switch_stall"));
      if (d.has("dynamic-power-coefficient")) dt_coefficient = d.num("dynamic-power-coefficient");
    }

  component_power cp;
  cp.component = name;
  cp.kind = component_power::model::compute;
  if (c.has("c_eff")) cp.compute.c_eff = units::farads(c.si("c_eff"));
  else if (dt_coefficient >= 0) cp.compute.c_eff = power::em_c_eff(dt_coefficient, static_cast<unsigned>(u.cores));
  else c.fail("missing required key 'c_eff' (switched capacitance, e.g. \"300 pF\"; or give the domain a "
              "dynamic-power-coefficient)", "c_eff");
  resolve_idle_states(c, u, cp);
  sc.platform.units.push_back(u);
  cp.compute.stall_activity = c.num("stall_activity");
  cp.compute.leakage = resolve_leakage(c.at("leakage"));
  sc.power.push_back(cp);
}

// Per-lane PCIe rate per direction after line encoding (PCI-SIG: 8, 16, 32 GT/s with
// 128b/130b; 64 GT/s PAM4 with 242/256 FLIT efficiency), in B/s.
double pcie_lane_Bps(const std::string& gen) {
  if (gen == "3") return 8e9 * 128 / 130 / 8;
  if (gen == "4") return 16e9 * 128 / 130 / 8;
  if (gen == "6") return 64e9 * 242 / 256 / 8;
  return 32e9 * 128 / 130 / 8;
}

void resolve_interconnect(const std::string& name, const std::string& kind, const view& c, scenario& sc) {
  tlm::interconnect_config ic;
  ic.name = name;
  ic.kind = kind;
  ic.latency = units::seconds(c.si("latency"));
  if (kind == "switch") {
    for (const auto& p : c.at("ports").items()) ic.ports.push_back(p.scalar());
    ic.bandwidth_Bps = c.si("bandwidth");
  } else {
    if (c.has("connect")) ic.connect = c.str("connect");
    if (kind == "noc") {
      ic.bandwidth_Bps = c.si("bandwidth");
    } else if (kind == "pcie") {
      ic.bandwidth_Bps = c.has("bandwidth") ? c.si("bandwidth") : c.integer("lanes") * pcie_lane_Bps(c.str("generation"));
      ic.duplex = ic.point_to_point = true;
    } else {  // nvlink
      ic.bandwidth_Bps = static_cast<double>(c.integer("links")) * c.si("link_bandwidth");
      ic.duplex = ic.point_to_point = true;
    }
  }
  sc.platform.interconnects.push_back(ic);
  add_memory_power(sc, name, c.si("background_power"), c.si("energy_per_byte"), c.si("energy_per_byte"));
}

void resolve_target(const std::string& name, const std::string& kind, const view& c, scenario& sc) {
  tlm::memory_config m;
  m.name = name;
  m.kind = kind;
  m.latency = units::seconds(c.si("latency"));
  if (kind == "nvme" || kind == "nic") {
    // Datasheet rates are sustained figures: no further derating. Energy per byte is the
    // active power above idle at full rate.
    m.efficiency = 1.0;
    m.bandwidth_Bps = kind == "nvme" ? c.si("read_bandwidth") : c.si("bandwidth");
    m.write_bandwidth_Bps = kind == "nic" ? m.bandwidth_Bps : (c.has("write_bandwidth") ? c.si("write_bandwidth") : 0);
    m.capacity_B = kind == "nvme" ? c.si("capacity") : 0;
    const double idle = c.si("idle_power"), active = c.si("active_power");
    if (active < idle) c.fail("active_power is below idle_power", "active_power");
    const double e = (active - idle) / m.bandwidth_Bps;
    std::vector<double> state_W;
    if (kind == "nvme") {
      for (const auto& ps : c.at("power_states").items()) {
        m.power_states.push_back({ps.str("name"), ps.si("idle_after"), ps.si("entry_latency"), ps.si("exit_latency")});
        state_W.push_back(ps.si("power"));
        if (state_W.back() > idle) ps.fail("a low-power state above idle_power (" + c.str("idle_power") + ")", "power");
      }
      try {
        tlm::nvme_apst check(m.power_states);
      } catch (const std::exception& e) {
        c.fail(e.what(), "power_states");
      }
    }
    sc.platform.memories.push_back(m);
    add_memory_power(sc, name, idle, e, m.write_bandwidth_Bps > 0 ? (active - idle) / m.write_bandwidth_Bps : e);
    sc.power.back().memory.low_power_state_W = state_W;
    return;
  }
  const bool total = c.has("bandwidth"), split = c.has("channel_bandwidth");
  if (total == split)
    c.fail(total ? "give bandwidth or channel_bandwidth (with channels), not both"
                 : "missing the bandwidth: give bandwidth, or channels and channel_bandwidth",
           total ? "channel_bandwidth" : "");
  m.channels = static_cast<int>(c.integer("channels"));
  if (total && c.has("channels")) c.fail("channels goes with channel_bandwidth, not with bandwidth", "channels");
  m.bandwidth_Bps = split ? m.channels * c.si("channel_bandwidth") : (total ? c.si("bandwidth") : 1.0);
  m.efficiency = c.num("efficiency");
  m.capacity_B = c.si("capacity");
  sc.platform.memories.push_back(m);
  // A preset scales its per-GB powers by the capacity; keys in the file override it.
  power::memory_preset pre{"", 0, 0, 0, 0, -1};
  if (c.has("preset")) pre = *power::find_memory_preset(c.str("preset"));
  const double gb = m.capacity_B / 1e9;
  auto given = [&](const char* key, double preset_value) { return c.has(key) ? c.si(key) : preset_value; };
  add_memory_power(sc, name, given("background_power", pre.background_W_per_GB * gb),
                   given("energy_per_byte_read", pre.read_J_per_B), given("energy_per_byte_write", pre.write_J_per_B));
  auto& mp = sc.power.back().memory;
  mp.refresh_W = given("refresh_power", pre.refresh_W_per_GB * gb);
  mp.self_refresh_W = given("self_refresh_power", pre.self_refresh_W_per_GB < 0 ? -1.0 : pre.self_refresh_W_per_GB * gb);
  mp.self_refresh_after_s = c.si("self_refresh_after");
}

bool is_compute_kind(const std::string& k) { return k == "cpu_cluster" || k == "npu" || k == "gpu"; }
bool is_interconnect_kind(const std::string& k) { return k == "noc" || k == "pcie" || k == "nvlink" || k == "switch"; }

void resolve_components(const view& platform, scenario& sc) {
  const view domains_view = platform.at("domains");
  for (const auto& [name, c] : platform.at("components").entries()) {
    const std::string kind = c.str("kind");
    if (is_compute_kind(kind)) resolve_compute(name, kind, c, domains_view, sc);
    else if (is_interconnect_kind(kind)) resolve_interconnect(name, kind, c, sc);
    else resolve_target(name, kind, c, sc);
  }
  std::set<std::string> domains;
  for (const auto& d : sc.domains) domains.insert(d.name);
  std::string names;
  for (const auto& d : domains) names += (names.empty() ? "" : ", ") + d;
  for (const auto& [name, c] : platform.at("components").entries())
    if (is_compute_kind(c.str("kind")) && !domains.count(c.str("domain")))
      c.fail("unknown DVFS domain '" + c.str("domain") + "' (domains: " + (names.empty() ? "none" : names) + ")",
             "domain");
}

// --- workload ----------------------------------------------------------------------

namespace fs = std::filesystem;

fs::path relative_to_scenario(const scenario& sc, const std::string& file) {
  const fs::path p(file);
  if (p.is_absolute() || sc.source.empty() || sc.source.find("(built in)") != std::string::npos) return p;
  return fs::path(sc.source).parent_path() / p;
}

// arrival_s,prompt_tokens,output_tokens per line (commas or blanks between); '#' comments.
// The first line is a header only when none of its fields is a number: a first line of
// data is data, and a first line that is half numbers is an error like any other.
bool read_trace(const fs::path& path, std::vector<tlm::trace_entry>& out, std::string& error) {
  std::ifstream in(path);
  if (!in) return error = "cannot open the trace file '" + path.string() + "'", false;
  std::string line;
  int n = 0;
  bool seen_content = false;
  double last = 0;
  const auto where = [&](int col) {
    return path.string() + ":" + std::to_string(n) + (col > 0 ? ":" + std::to_string(col) : std::string()) + ": ";
  };
  while (std::getline(in, line)) {
    ++n;
    if (n == 1 && line.compare(0, 3, "\xEF\xBB\xBF") == 0) line.erase(0, 3);  // UTF-8 byte-order mark
    if (auto h = line.find('#'); h != std::string::npos) line.erase(h);
    // Fields and their columns (1-based).
    std::vector<std::pair<std::string, int>> fields;
    for (std::size_t p = 0; p < line.size();) {
      const std::size_t b = line.find_first_not_of(" \t\r,", p);
      if (b == std::string::npos) break;
      std::size_t e = line.find_first_of(" \t\r,", b);
      if (e == std::string::npos) e = line.size();
      fields.emplace_back(line.substr(b, e - b), static_cast<int>(b) + 1);
      p = e;
    }
    if (fields.empty()) continue;
    const auto number = [](const std::string& t, double& v) {
      char* end = nullptr;
      v = std::strtod(t.c_str(), &end);
      return end != t.c_str() && *end == '\0' && std::isfinite(v);
    };
    double v[3] = {0, 0, 0};
    int numeric = 0;
    for (std::size_t f = 0; f < fields.size() && f < 3; ++f) numeric += number(fields[f].first, v[f]) ? 1 : 0;
    if (!seen_content && numeric == 0) {  // a header: names, no numbers
      seen_content = true;
      continue;
    }
    seen_content = true;
    if (fields.size() != 3)
      return error = where(0) + "expected 3 fields arrival_s,prompt_tokens,output_tokens, found " +
                     std::to_string(fields.size()),
             false;
    for (int f = 0; f < 3; ++f) {
      double x;
      if (!number(fields[f].first, x))
        return error = where(fields[f].second) + "expected a number, found '" + fields[f].first + "'", false;
    }
    if (!(v[0] >= 0))
      return error = where(fields[0].second) + "an arrival time must be >= 0 s, found '" + fields[0].first + "'",
             false;
    for (int f = 1; f < 3; ++f)
      if (!(v[f] >= 1 && v[f] <= 2147483647.0 && v[f] == std::floor(v[f])))
        return error = where(fields[f].second) + "a token count must be a whole number from 1 to 2147483647, found '" +
                       fields[f].first + "'",
               false;
    if (v[0] < last)
      return error = where(fields[0].second) + "arrivals must not go back in time (" + fields[0].first +
                     " s after " + fmt_g(last) + " s)",
             false;
    tlm::trace_entry e;
    e.arrival_s = v[0];
    e.prompt_tokens = static_cast<int>(v[1]);
    e.output_tokens = static_cast<int>(v[2]);
    last = e.arrival_s;
    out.push_back(e);
  }
  if (out.empty()) return error = "the trace file '" + path.string() + "' holds no requests", false;
  return true;
}

// A custom graph: YAML `ops:` list, each op by its arithmetic and bytes, or by shape.
bool read_graph(const fs::path& path, tlm::precision prec, tlm::op_graph& g, std::string& error) {
  YAML::Node root;
  try {
    root = YAML::LoadFile(path.string());
  } catch (const YAML::Exception& e) {
    error = "cannot read the graph file '" + path.string() + "': " + e.what();
    return false;
  }
  g.name = root["name"] ? root["name"].as<std::string>() : path.stem().string();
  g.prec = prec;
  const YAML::Node ops = root["ops"];
  if (!ops || !ops.IsSequence() || ops.size() == 0) {
    error = path.string() + ": expected a non-empty list 'ops'";
    return false;
  }
  static const std::set<std::string> known = {"name",     "kind",     "class",   "flops",   "bytes_read",
                                              "bytes_written", "weight_bytes", "repeat", "m", "n", "k", "weights",
                                              "queries",  "attended", "kv_tokens", "heads", "kv_heads", "head_dim",
                                              "elements", "ops_per_element", "inputs", "collective", "bytes",
                                              "tokens", "width", "target"};
  for (std::size_t i = 0; i < ops.size(); ++i) {
    const YAML::Node n = ops[i];
    const std::string where = path.string() + ":" + std::to_string(n.Mark().line + 1) + ": ops[" + std::to_string(i) + "]";
    try {
      if (!n.IsMap()) throw std::invalid_argument("expected a mapping");
      for (auto it = n.begin(); it != n.end(); ++it)
        if (!known.count(it->first.as<std::string>()))
          throw std::invalid_argument("unknown key '" + it->first.as<std::string>() + "'");
      auto num = [&](const char* k, double def = -1) {
        if (!n[k]) {
          if (def < 0) throw std::invalid_argument(std::string("missing '") + k + "'");
          return def;
        }
        const double v = n[k].as<double>();
        if (!(v >= 0) || !std::isfinite(v)) throw std::invalid_argument(std::string("'") + k + "' must be a number >= 0");
        return v;
      };
      const std::string name = n["name"] ? n["name"].as<std::string>() : "op" + std::to_string(i);
      const tlm::op_kind kind = tlm::parse_op_kind(n["kind"] ? n["kind"].as<std::string>() : "other");
      tlm::op o;
      if (n["flops"]) {
        o.name = name;
        o.kind = kind;
        o.prec = prec;
        const std::string cls = n["class"] ? n["class"].as<std::string>() : "";
        o.cls = cls == "vector" ? tlm::op_class::vector
                : cls == "scalar" ? tlm::op_class::scalar
                : cls == "tensor" || kind == tlm::op_kind::gemm || kind == tlm::op_kind::conv ||
                        kind == tlm::op_kind::attention
                    ? tlm::op_class::tensor
                    : tlm::op_class::vector;
        o.ops = num("flops");
        o.bytes_read = num("bytes_read", 0);
        o.bytes_written = num("bytes_written", 0);
        o.weight_bytes = num("weight_bytes", 0);
        if (o.weight_bytes > o.bytes_read) throw std::invalid_argument("weight_bytes exceeds bytes_read");
      } else if (kind == tlm::op_kind::gemm) {
        o = tlm::gemm_op(name, num("m"), num("n"), num("k"), prec, num("weights", 1) != 0);
      } else if (kind == tlm::op_kind::attention) {
        o = tlm::attention_op(name, num("queries"), num("attended"), num("kv_tokens"), num("heads"),
                              num("kv_heads", num("heads")), num("head_dim"), prec, prec);
      } else if (kind == tlm::op_kind::embedding) {
        o = tlm::embedding_op(name, num("tokens"), num("width"), prec);
      } else if (kind == tlm::op_kind::collective) {
        const std::string c = n["collective"] ? n["collective"].as<std::string>() : "all_reduce";
        const tlm::collective_kind ck = c == "all_gather"       ? tlm::collective_kind::all_gather
                                        : c == "reduce_scatter" ? tlm::collective_kind::reduce_scatter
                                        : c == "all_reduce"     ? tlm::collective_kind::all_reduce
                                                                : throw std::invalid_argument(
                                                                      "collective must be all_reduce, all_gather or "
                                                                      "reduce_scatter");
        o = tlm::collective_op(name, ck, num("bytes"), prec);
      } else if (kind == tlm::op_kind::transfer) {
        if (!n["target"]) throw std::invalid_argument("missing 'target'");
        o = tlm::transfer_op(name, n["target"].as<std::string>(), num("bytes_read", 0), num("bytes_written", 0));
      } else if (n["elements"]) {
        o = tlm::elementwise_op(name, num("elements"), num("ops_per_element", 1), num("inputs", 1), prec, kind);
      } else {
        throw std::invalid_argument("give flops (with bytes_read, bytes_written) or the shape of a " +
                                    std::string(tlm::to_string(kind)) + " operator");
      }
      const double repeat = num("repeat", 1);
      if (repeat < 1) throw std::invalid_argument("'repeat' must be >= 1");
      if (kind == tlm::op_kind::collective) o.repeat = repeat;
      else tlm::fold(o, repeat);
      g.ops.push_back(o);
    } catch (const std::exception& e) {
      error = where + ": " + e.what();
      return false;
    }
  }
  return true;
}

tlm::token_range resolve_tokens(const view& s, const std::string& key, int def) {
  if (!s.has(key)) return {def, def};
  const view v = s.at(key);
  if (v.is_scalar()) {
    const int n = static_cast<int>(std::strtol(v.scalar().c_str(), nullptr, 10));
    return {n, n};
  }
  tlm::token_range r{static_cast<int>(v.integer("min")), static_cast<int>(v.integer("max"))};
  if (r.max < r.min) v.fail("max is below min", "max");
  return r;
}

void resolve_llm(const view& l, const view& stream, tlm::stream_config& st) {
  st.is_llm = true;
  tlm::llm_config& c = st.llm;
  tlm::model_params params;
  for (const auto& [k, v] : l.at("params").entries()) params[k] = std::strtod(v.scalar().c_str(), nullptr);
  try {
    c.shape = tlm::decoder_model(l.str("model"), params);
  } catch (const std::invalid_argument& e) {
    l.fail(e.what(), "params");
  }
  for (const auto& u : l.at("units").items()) c.units.push_back(u.scalar());
  c.tensor_parallel = static_cast<int>(l.integer("tensor_parallel"));
  c.weights = tlm::parse_precision(l.str("weights"));
  c.kv = tlm::parse_precision(l.str("kv_precision"));
  c.max_batch = st.batching.max_batch;
  c.max_batched_tokens = static_cast<int>(l.integer("max_batched_tokens"));
  c.chunked_prefill = l.boolean("chunked_prefill");
  c.kv_cache_bytes = l.has("kv_cache") ? l.si("kv_cache") : 0;
  c.layer_groups = static_cast<int>(l.integer("layer_groups"));
  c.prompt_tokens = resolve_tokens(l, "prompt_tokens", 128);
  c.output_tokens = resolve_tokens(l, "output_tokens", 128);
  if (c.max_batched_tokens < c.max_batch)
    l.fail("max_batched_tokens must hold a decode token of every sequence in the batch (>= batching.max_batch = " +
               std::to_string(c.max_batch) + ")",
           "max_batched_tokens");
  if (st.batching.kind == tlm::batching_kind::dynamic)
    stream.fail("llm streams batch continuously (or statically), not dynamically", "batching");
}

void resolve_stage(const view& stage, const std::string& stream_prec, const scenario& sc, tlm::stage_config& sg) {
  if (stage.has("unit") == stage.has("units")) stage.fail("give unit or units (one of them)", "unit");
  if (stage.has("unit")) sg.unit = stage.str("unit");
  for (const auto& u : stage.at("units").items()) sg.units.push_back(u.scalar());
  if (!sg.units.empty()) sg.unit = sg.units.front();
  const std::string par = stage.str("parallel");
  sg.parallel = par == "data" ? tlm::parallel_kind::data : par == "replicas" ? tlm::parallel_kind::replicas
                                                                             : tlm::parallel_kind::single;
  if (sg.parallel == tlm::parallel_kind::single && sg.units.size() > 1)
    stage.fail("several units need parallel: replicas or data", "parallel");
  const tlm::precision prec = tlm::parse_precision(stage.has("precision") ? stage.str("precision") : stream_prec);
  if (stage.has("model") == stage.has("graph")) {
    stage.fail("give model or graph (one of them)", "model");
    return;
  }
  if (stage.has("model")) {
    tlm::model_params params;
    for (const auto& [k, v] : stage.at("params").entries()) params[k] = std::strtod(v.scalar().c_str(), nullptr);
    try {
      sg.graph = tlm::build_model(stage.str("model"), params, prec);
    } catch (const std::invalid_argument& e) {
      stage.fail(e.what(), "params");
      return;
    }
    const tlm::model_info* mi = tlm::find_model(stage.str("model"));
    bool has_batch = false;
    for (const auto& p : mi->params) has_batch |= p.name == "batch";
    sg.per_request_batch = !has_batch ? 1 : params.count("batch") ? params.at("batch") : 1;
  } else {
    if (stage.has("params")) stage.fail("params go with a model, not a graph file", "params");
    std::string error;
    if (!read_graph(relative_to_scenario(sc, stage.str("graph")), prec, sg.graph, error)) stage.fail(error, "graph");
  }
  if (stage.has("training")) {
    tlm::training_options t;
    const view tv = stage.at("training");
    t.data_parallel = sg.parallel == tlm::parallel_kind::data ? static_cast<int>(sg.all_units().size()) : 1;
    t.gradients = tlm::parse_precision(tv.str("gradients"));
    t.bucket_bytes = tv.si("bucket");
    t.accumulation_steps = static_cast<int>(tv.integer("accumulation"));
    sg.graph = tlm::training_step(sg.graph, t);
    // A step trains on every rank's micro-batches.
    sg.per_request_batch *= t.accumulation_steps * t.data_parallel;
    sg.training = true;
  }
  if (stage.has("input")) {
    const view in = stage.at("input");
    sg.graph.ops.insert(sg.graph.ops.begin(), tlm::transfer_op("input", in.str("from"), in.si("bytes"), 0));
  }
}

void resolve_workload(const view& w, const view& platform, scenario& sc) {
  std::vector<std::pair<std::string, view>> stream_views;
  for (const auto& [name, s] : w.at("streams").entries()) {
    stream_views.emplace_back(name, s);
    tlm::stream_config st;
    st.name = name;
    view arr = s.at("arrival");
    const std::string kind = arr.str("kind");
    st.arrival = kind == "poisson"       ? tlm::arrival_kind::poisson
                 : kind == "closed_loop" ? tlm::arrival_kind::closed_loop
                 : kind == "trace"       ? tlm::arrival_kind::trace
                                         : tlm::arrival_kind::fixed_rate;
    if (kind == "fixed_rate" || kind == "poisson") {
      if (!arr.has("rate")) arr.fail("a " + kind + " stream needs a rate (e.g. \"30 Hz\")", "rate");
      else st.rate = units::hertz(arr.si("rate"));
    }
    st.start = units::seconds(arr.si("start"));
    st.users = static_cast<int>(arr.integer("users"));
    st.think_time = units::seconds(arr.si("think_time"));
    st.think_exponential = arr.str("think") == "exponential";
    if (kind == "trace") {
      std::string error;
      if (!arr.has("file")) arr.fail("a trace stream needs a file", "file");
      else if (!read_trace(relative_to_scenario(sc, arr.str("file")), st.trace, error)) arr.fail(error, "file");
    }
    st.queue_limit = static_cast<int>(s.integer("queue_limit"));
    const view b = s.at("batching");
    const std::string bk = b.str("kind");
    st.batching.kind = bk == "static"       ? tlm::batching_kind::static_batch
                       : bk == "dynamic"    ? tlm::batching_kind::dynamic
                       : bk == "continuous" ? tlm::batching_kind::continuous
                                            : tlm::batching_kind::none;
    st.batching.max_batch = static_cast<int>(b.integer("max_batch"));
    st.batching.timeout = units::seconds(b.si("timeout"));
    if (s.has("llm") == s.has("stages")) {
      s.fail("a stream needs stages, or llm (one of them)", "stages");
      continue;
    }
    if (s.has("llm")) {
      resolve_llm(s.at("llm"), s, st);
    } else {
      if (st.batching.kind == tlm::batching_kind::continuous)
        b.fail("continuous batching is for llm streams; use static or dynamic", "kind");
      const std::string stream_prec = s.str("precision");
      for (const auto& stage : s.at("stages").items()) {
        tlm::stage_config sg;
        resolve_stage(stage, stream_prec, sc, sg);
        st.stages.push_back(std::move(sg));
      }
      if (st.stages.empty()) s.fail("a stream needs at least one stage", "stages");
    }
    sc.workload.streams.push_back(std::move(st));
  }
  // KV caches not sized in the file take what their memory has left (after every
  // stream's weights are known), then the whole placement is checked.
  for (std::size_t i = 0; i < sc.workload.streams.size(); ++i) {
    auto& st = sc.workload.streams[i];
    if (!st.is_llm || st.llm.kv_cache_bytes > 0) continue;
    const view l = stream_views[i].second.at("llm");
    st.llm.kv_cache_bytes = std::max(0.0, tlm::default_kv_cache_bytes(sc.platform, sc.workload, st, l.num("memory_utilization")));
  }
  // Report each problem at the component, stream or stage it names, at the key at fault.
  for (const tlm::platform_problem& p : tlm::check_platform(sc.platform, sc.workload)) {
    bool placed = false;
    for (const auto& [name, sv] : stream_views) {
      if (placed || p.component != "stream " + name) continue;
      placed = true;
      if (p.stage < 0) {
        sv.fail(p.message, p.key);
        continue;
      }
      const auto stages = sv.at("stages").items();
      if (p.stage >= static_cast<int>(stages.size())) {
        sv.fail(p.message, "stages");
        continue;
      }
      const view& st = stages[static_cast<std::size_t>(p.stage)];
      st.fail(p.message, st.has(p.key) ? p.key : (st.has("units") ? "units" : "unit"));
    }
    for (const auto& [name, c] : platform.at("components").entries())
      if (!placed && p.component == name) c.fail(p.message, p.key), placed = true;
    if (!placed) platform.fail(p.text());
  }
}

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
}

void resolve_datacenter(const view& v, thermal::thermal_config& th) {
  auto& dc = th.datacenter;
  for (const auto& [name, d] : v.at("dies").entries()) {
    thermal::datacenter_die die;
    die.name = name;
    for (const auto& b : d.at("blocks").items()) die.blocks.push_back(b.scalar());
    if (die.blocks.empty()) die.blocks.push_back(name);
    die.package = th.package;
    resolve_package(d.at("package"), die.package, true);
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
  th.kind = model == "phone"        ? thermal::package_kind::phone
            : model == "datacenter" ? thermal::package_kind::datacenter
                                    : thermal::package_kind::hotspot;
  if (t.has("phone") && th.kind != thermal::package_kind::phone) t.fail("phone goes with model: phone", "phone");
  if (t.has("datacenter") && th.kind != thermal::package_kind::datacenter)
    t.fail("datacenter goes with model: datacenter", "datacenter");
  if (th.kind == thermal::package_kind::phone) resolve_phone(t.at("phone"), th.phone);
  if (th.kind == thermal::package_kind::datacenter) {
    if (!t.has("datacenter")) t.fail("model: datacenter needs a datacenter section (dies and streams)", "datacenter");
    else resolve_datacenter(t.at("datacenter"), th);
  }
  const std::string initial = t.str("initial");
  th.initial = initial == "steady" ? thermal::initial_state::steady
               : initial == "file" ? thermal::initial_state::file
                                   : thermal::initial_state::ambient;
  if ((th.initial == thermal::initial_state::file) != t.has("initial_file"))
    t.fail(t.has("initial_file") ? "initial_file goes with initial: file" : "initial: file needs initial_file",
           t.has("initial_file") ? "initial_file" : "initial");
  else if (th.initial == thermal::initial_state::file) {
    th.initial_file = relative_to_scenario(sc, t.str("initial_file")).string();
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

void resolve_policy(const view& p, scenario& sc, const std::vector<std::string>& sensor_nodes) {
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
  for (const auto& [k, v] : t.at("tunables").entries()) th.values[k] = std::strtod(v.scalar().c_str(), nullptr);
  if (th.governor != "none") {
    try {
      power::thermal_governor_registry::instance().create(th.governor, th.values);  // checks the tunables
    } catch (const std::invalid_argument& e) {
      t.fail(e.what(), t.has("tunables") ? "tunables" : "governor");
    }
  } else if (!th.values.empty()) {
    t.fail("tunables given without a thermal governor", "tunables");
  }
  th.zone.control_temp_K = t.si("control_temp");
  th.zone.switch_on_temp_K = t.has("switch_on_temp") ? t.si("switch_on_temp") : th.zone.control_temp_K - 10.0;
  th.zone.hysteresis_K = t.si("hysteresis");
  th.zone.polling_period_s = t.si("polling_period");
  warn_unless_ticks(t, "polling_period", th.zone.polling_period_s, sc.control_period.value(), true);
  th.zone.sustainable_power_W = t.has("sustainable_power") ? t.si("sustainable_power") : 0.0;
  if (th.zone.switch_on_temp_K >= th.zone.control_temp_K)
    t.fail("switch_on_temp must be below control_temp", "switch_on_temp");
  th.sensor = resolve_sensor(t, sensor_nodes);
  if (p.has("fan_zone")) {
    const view f = p.at("fan_zone");
    auto& fz = pol.fan_zone;
    if (sc.thermal.kind != thermal::package_kind::datacenter)
      p.fail("a fan zone needs fans: thermal.model: datacenter", "fan_zone");
    fz.enabled = true;
    fz.governor = f.str("governor");
    fz.zone.control_temp_K = f.si("control_temp");
    fz.zone.switch_on_temp_K = fz.zone.control_temp_K - 10.0;
    fz.zone.hysteresis_K = f.si("hysteresis");
    fz.zone.polling_period_s = f.si("polling_period");
    warn_unless_ticks(f, "polling_period", fz.zone.polling_period_s, sc.control_period.value(), true);
    fz.sensor = resolve_sensor(f, sensor_nodes);
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
    pol.power_cap = pc;
  }
}

// VR and PSU stages: rated power and an efficiency curve (defaults in supply_power.hpp).
void resolve_supply(const view& platform, scenario& sc) {
  if (!platform.has("supply")) return;
  const view sv = platform.at("supply");
  auto stage = [&](const char* key, double& rated, power::efficiency_curve& curve, power::efficiency_curve def) {
    if (!sv.has(key)) return;
    const view st = sv.at(key);
    rated = st.si("rated");
    curve = std::move(def);
    if (!st.has("efficiency")) return;
    std::vector<std::pair<double, double>> pts;
    bool ok = true;
    for (const auto& p : st.at("efficiency").items()) {
      pts.emplace_back(p.num("load"), p.num("efficiency"));
      if (!(pts.back().second > 0)) p.fail("an efficiency must be above 0", "efficiency"), ok = false;
      else if (pts.size() > 1 && !(pts.back().first > pts[pts.size() - 2].first))
        p.fail("load fractions must increase along the curve", "load"), ok = false;
    }
    if (pts.empty()) st.fail("an efficiency curve needs at least one point", "efficiency"), ok = false;
    if (ok) curve = power::efficiency_curve(pts);
  };
  stage("vr", sc.supply.vr_rated_W, sc.supply.vr, power::vr_typical());
  stage("psu", sc.supply.psu_rated_W, sc.supply.psu, power::psu_80plus_titanium());
}

// The least power the platform can draw: every compute unit at its domain's lowest
// voltage, at the ambient temperature, in its deepest idle state (or leaking, without
// one), every memory and device idle in its lowest-power state. Dynamic power, fans and
// heating above the ambient only add to it, so a cap below it cannot be met.
double platform_floor_W(const scenario& sc) {
  double floor = 0;
  const double t_amb = sc.thermal.ambient.value();
  for (const auto& cp : sc.power) {
    if (cp.kind == component_power::model::compute) {
      double v_min = 0;
      for (const auto& u : sc.platform.units)
        if (u.name == cp.component)
          for (const auto& d : sc.domains)
            if (d.name == u.domain && d.opps.size() > 0) {
              v_min = d.opps.voltage_v(0);
              for (std::size_t i = 1; i < d.opps.size(); ++i) v_min = std::min(v_min, d.opps.voltage_v(i));
            }
      const double leak = power::compute_power_model(cp.compute).leakage_W(v_min, t_amb);
      double p = leak;
      for (const auto& st : cp.idle_states) p = std::min(p, st.power_at(leak));
      floor += std::max(0.0, p);
    } else {
      const auto& m = cp.memory;
      double p = m.background.value() + m.refresh_W;
      if (m.self_refresh_W >= 0) p = std::min(p, m.self_refresh_W);
      for (double w : m.low_power_state_W) p = std::min(p, w);
      floor += std::max(0.0, p);
    }
  }
  return floor;
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

  view platform = root.at("platform");
  sc.platform.quantum = units::seconds(platform.si("quantum"));
  resolve_supply(platform, sc);
  resolve_domains(platform, sc);
  resolve_components(platform, sc);
  resolve_workload(root.at("workload"), platform, sc);
  std::vector<std::string> sensor_nodes;
  resolve_thermal(root.at("thermal"), sc, sensor_nodes);
  resolve_policy(root.at("policy"), sc, sensor_nodes);
  {
    const view lim = root.at("limits");
    sc.limits.max_arrivals = lim.num("max_arrivals");
    if (lim.has("max_file_size")) sc.limits.max_file_bytes = lim.si("max_file_size");
    if (lim.has("max_memory")) sc.limits.max_memory_bytes = lim.si("max_memory");
  }
  if (sc.policy.power_cap) {
    // Said at load time rather than discovered as a run that never meets its cap.
    const double floor = platform_floor_W(sc);
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
