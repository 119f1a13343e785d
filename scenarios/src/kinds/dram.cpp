// DRAM: LPDDR5, LPDDR5X, DDR5, HBM. One sc_module (tlm_models::memory); power: background,
// refresh, self-refresh and energy per byte, from a preset scaled by capacity or given.
#include "component_kind.hpp"

#include "ptsim/power/memory_power.hpp"

namespace ptsim::scenarios::detail {
namespace {

schema_ptr memory_schema(const std::string& what, const char* latency, const char* efficiency) {
  return object(what,
                {req("kind", str("component kind")),
                 opt("bandwidth", ranged(quantity(dims::bandwidth(), "peak bandwidth shared by all initiators "
                                                  "(or give channels and channel_bandwidth)"),
                                         std::nullopt, std::nullopt, 1e6)),
                 opt("channels", integer("independent channels (HBM: pseudo-channels)", "1", 1)),
                 opt("channel_bandwidth", ranged(quantity(dims::bandwidth(), "peak bandwidth of one channel"),
                                                 std::nullopt, std::nullopt, 1e6)),
                 opt("latency", quantity(dims::time(), "access latency", latency, 0.0, false)),
                 opt("efficiency", share("share of peak bandwidth reachable under contention (refresh, turnarounds)",
                                         efficiency)),
                 opt("capacity", quantity(dims::bytes(), "capacity", "8 GiB")),
                 opt("preset", enumeration({"lpddr5", "lpddr5x", "ddr5", "gddr6", "hbm3", "hbm3e"},
                                           "power figures of a DRAM generation (README, Memory power), scaled by "
                                           "capacity; keys given here override them")),
                 opt("background_power", quantity(dims::power(), "standby power while active (preset, else 0 W)",
                                                   std::nullopt, 0.0, false)),
                 opt("refresh_power", quantity(dims::power(), "average auto-refresh power while active (preset, else "
                                               "0 W)", std::nullopt, 0.0, false)),
                 opt("self_refresh_power", quantity(dims::power(), "power in self-refresh, entered when idle (preset; "
                                                    "none: never enters it)", std::nullopt, 0.0, false)),
                 opt("self_refresh_after", quantity(dims::time(), "idle time before self-refresh (counted in whole "
                                                    "control periods)", "0 s", 0.0, false)),
                 opt("energy_per_byte_read", quantity(dims::energy_per_byte(), "read energy (preset, else 0 J/B)",
                                                      std::nullopt, 0.0, false)),
                 opt("energy_per_byte_write", quantity(dims::energy_per_byte(), "write energy (preset, else 0 J/B)",
                                                       std::nullopt, 0.0, false)),
                 opt("domain", str("memory DVFS: a DVFS domain (a key of platform.domains) whose OPPs are this memory's "
                                   "clock; bandwidth and background power are given at its top OPP and follow the "
                                   "clock (default: none, a fixed clock)")),
                 opt("clock_scaled_background", number("with a domain: share of background_power that follows the "
                                                       "clock, 0 to 1 (Micron's power notes scale all of it)", "1", 0.0,
                                                       1.0)),
                 opt("throttle_temp", ranged(temperature("with a domain: the memory's own temperature limit (its "
                                                         "floorplan block): at or above it the clock ceiling drops "
                                                         "to throttle_freq (HBM3: about 95 degC)"),
                                             173.15, 773.15, 273.15, 423.15)),
                 opt("throttle_freq", quantity(dims::frequency(), "clock ceiling while over throttle_temp (bandwidth "
                                               "in proportion)")),
                 opt("throttle_hysteresis", quantity(dims::temperature(), "the limit releases below throttle_temp "
                                                     "minus this", "2 K", 0.0, false))});
}

void resolve_dram(const std::string& name, const std::string& kind, const view& c, scenario& sc) {
  tlm_config::memory_config m;
  m.name = name;
  m.kind = kind;
  m.dram = true;
  m.latency = units::seconds(c.si("latency"));
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
  // Memory DVFS: the domain is looked up (and its clock's top point taken) with the other
  // components' domains (resolve_components).
  if (c.has("domain")) {
    sc.platform.memories.back().domain = c.str("domain");
    mp.clock_scaled_share = c.num("clock_scaled_background");
    mp.sustained_Bps = m.bandwidth_Bps * m.efficiency;
  } else {
    for (const char* k : {"clock_scaled_background", "throttle_temp", "throttle_freq"})
      if (c.has(k)) c.fail(std::string(k) + " needs the memory's clock: give it a domain", k);
  }
  if (c.has("throttle_temp") != c.has("throttle_freq"))
    c.fail("throttle_temp and throttle_freq go together", c.has("throttle_temp") ? "throttle_freq" : "throttle_temp");
  if (c.has("domain") && c.has("throttle_temp") && c.has("throttle_freq"))
    sc.policy.memory_throttles.push_back(
        {name, c.str("domain"), c.si("throttle_temp"), c.si("throttle_hysteresis"), c.si("throttle_freq")});
}

}  // namespace

std::vector<component_kind> dram_kinds() {
  auto kind = [](const char* name, const char* doc, const char* latency, const char* efficiency) {
    return component_kind{name, tlm_config::component_role::target,
                          [=] { return memory_schema(doc, latency, efficiency); },
                          [name](const std::string& n, const view& c, const view&, scenario& sc) {
                            resolve_dram(n, name, c, sc);
                          }};
  };
  return {kind("lpddr", "LPDDR memory (LPDDR5)", "100 ns", "0.8"),
          kind("lpddr5x", "LPDDR5X memory (mobile)", "110 ns", "0.8"),
          kind("ddr5", "DDR5 memory (server DIMMs)", "90 ns", "0.75"),
          kind("hbm", "HBM3/HBM3e stacks (GPU memory)", "120 ns", "0.85")};
}

}  // namespace ptsim::scenarios::detail
