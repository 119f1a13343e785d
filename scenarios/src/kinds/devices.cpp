// Devices that sink or source bytes: NVMe storage (with APST power states) and NICs.
// One sc_module (tlm_models::memory, with APST for NVMe); power: idle power plus the active
// power above idle in proportion to the rate, low-power states for NVMe.
#include "component_kind.hpp"

#include "ptsim/tlm_config/nvme_apst.hpp"

namespace ptsim::scenarios::detail {
namespace {

schema_ptr nvme_schema() {
  return object("NVMe storage: read and write bandwidth, latency, idle and active power, APST power states",
                {req("kind", str("component kind")),
                 req("read_bandwidth", quantity(dims::bandwidth(), "sequential read bandwidth")),
                 opt("write_bandwidth", quantity(dims::bandwidth(), "sequential write bandwidth (default: read)")),
                 opt("latency", quantity(dims::time(), "access latency (illustrative default)", "80 us", 0.0, false)),
                 opt("capacity", quantity(dims::bytes(), "capacity", "3.84 TB")),
                 opt("idle_power", quantity(dims::power(), "power when idle", "5 W", 0.0, false)),
                 opt("active_power", quantity(dims::power(), "power streaming at full bandwidth", "20 W", 0.0, false)),
                 opt("power_states",
                     list_of(object("non-operational power state (NVMe APST)",
                                    {req("name", str("state name (e.g. PS3, PS4)")),
                                     req("power", quantity(dims::power(), "power while resident", std::nullopt, 0.0,
                                                           false)),
                                     req("idle_after", quantity(dims::time(), "idle time since the last I/O completed "
                                                                "before the drive enters the state", std::nullopt,
                                                                0.0, false)),
                                     opt("entry_latency", quantity(dims::time(), "time to enter (ENLAT)", "0 s", 0.0,
                                                                   false)),
                                     opt("exit_latency", quantity(dims::time(), "time back to PS0 (EXLAT), paid by "
                                                                  "the next I/O", "0 s", 0.0, false))}),
                             "APST: non-operational states, shallow to deep, entered autonomously when idle (PS0, "
                             "the operational state, is idle_power and active_power)"))});
}

schema_ptr nic_schema() {
  return object("Network interface: link rate, latency, idle and active power",
                {req("kind", str("component kind")),
                 req("bandwidth", quantity(dims::bandwidth(), "link rate per direction (400 Gb/s = 50 GB/s)")),
                 opt("latency", quantity(dims::time(), "one-way latency (illustrative default)", "2 us", 0.0, false)),
                 opt("idle_power", quantity(dims::power(), "power when idle", "10 W", 0.0, false)),
                 opt("active_power", quantity(dims::power(), "power at full link rate", "20 W", 0.0, false))});
}

// Datasheet rates are sustained figures: no further derating. Energy per byte is the
// active power above idle at full rate.
void add_device(const std::string& name, const view& c, tlm_config::memory_config& m, const std::vector<double>& state_W,
                scenario& sc) {
  m.efficiency = 1.0;
  const double idle = c.si("idle_power"), active = c.si("active_power");
  const double e = (active - idle) / m.bandwidth_Bps;
  sc.platform.memories.push_back(m);
  add_memory_power(sc, name, idle, e, m.write_bandwidth_Bps > 0 ? (active - idle) / m.write_bandwidth_Bps : e);
  sc.power.back().memory.low_power_state_W = state_W;
}

void check_powers(const view& c) {
  if (c.si("active_power") < c.si("idle_power")) c.fail("active_power is below idle_power", "active_power");
}

void resolve_nvme(const std::string& name, const view& c, const view&, scenario& sc) {
  tlm_config::memory_config m;
  m.name = name;
  m.kind = "nvme";
  m.latency = units::seconds(c.si("latency"));
  m.bandwidth_Bps = c.si("read_bandwidth");
  m.write_bandwidth_Bps = c.has("write_bandwidth") ? c.si("write_bandwidth") : 0;
  m.capacity_B = c.si("capacity");
  check_powers(c);
  const double idle = c.si("idle_power");
  std::vector<double> state_W;
  for (const auto& ps : c.at("power_states").items()) {
    m.power_states.push_back({ps.str("name"), ps.si("idle_after"), ps.si("entry_latency"), ps.si("exit_latency")});
    state_W.push_back(ps.si("power"));
    if (state_W.back() > idle) ps.fail("a low-power state above idle_power (" + c.str("idle_power") + ")", "power");
  }
  try {
    tlm_config::nvme_apst check(m.power_states);
  } catch (const std::exception& e) {
    c.fail(e.what(), "power_states");
  }
  add_device(name, c, m, state_W, sc);
}

void resolve_nic(const std::string& name, const view& c, const view&, scenario& sc) {
  tlm_config::memory_config m;
  m.name = name;
  m.kind = "nic";
  m.latency = units::seconds(c.si("latency"));
  m.bandwidth_Bps = c.si("bandwidth");
  m.write_bandwidth_Bps = m.bandwidth_Bps;
  m.capacity_B = 0;
  check_powers(c);
  add_device(name, c, m, {}, sc);
}

}  // namespace

std::vector<component_kind> device_kinds() {
  return {{"nvme", tlm_config::component_role::target, nvme_schema, resolve_nvme},
          {"nic", tlm_config::component_role::target, nic_schema, resolve_nic}};
}

}  // namespace ptsim::scenarios::detail
