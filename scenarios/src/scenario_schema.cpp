// The declaration of every scenario key. Validation, --set path checks, `ptsim schema`
// and `ptsim list components` all read this one table.
#include "ptsim/power/governor.hpp"
#include "ptsim/power/thermal_governor.hpp"
#include "ptsim/scenarios/schema.hpp"
#include "ptsim/tlm/model_zoo.hpp"

namespace ptsim::scenarios {
namespace {

schema_ptr leakage_schema() {
  return object("Leakage: P = power * (V/v_ref)^v_exponent * 2^((T - t_ref)/doubling)",
                {opt("power", quantity(dims::power(), "leakage power at v_ref and t_ref", "0 W", 0.0, false)),
                 opt("v_ref", quantity(dims::voltage(), "reference voltage", "1 V")),
                 opt("t_ref", temperature("reference temperature", "25 degC")),
                 opt("doubling", quantity(dims::temperature(), "temperature rise that doubles leakage", "20 K")),
                 opt("v_exponent", number("exponent of the voltage dependence", "2", 0.0))});
}

std::vector<field> compute_fields() {
  return {
      req("kind", str("component kind")),
      req("domain", str("DVFS domain (a key of platform.domains) that clocks this unit")),
      req("connect", str("interconnect (component name) that carries this unit's memory traffic")),
      opt("cores", integer("parallel cores (or engines) sharing the work", "1", 1)),
      opt("ops_per_cycle",
          map_of(number("operations per cycle per core (a MAC counts as 2)", std::nullopt, 0.0),
                 "peak arithmetic per precision (fp32, fp16, bf16, fp8, int8)")),
      opt("efficiency", number("share of peak reached by compute-bound operators", "0.7", 0.0, 1.0)),
      opt("vector_efficiency", number("share of peak reached by vector/elementwise operators", "0.25", 0.0, 1.0)),
      opt("launch_overhead", quantity(dims::time(), "fixed cost per operator", "5 us", 0.0, false)),
      opt("tile", quantity(dims::bytes(), "memory transaction size", "256 KiB")),
      opt("c_eff", quantity(dims::capacitance(), "switched capacitance of the whole unit (P = C V^2 f a)")),
      opt("stall_activity", number("activity while stalled on memory", "0.3", 0.0, 1.0)),
      opt("leakage", leakage_schema()),
  };
}

schema_ptr cpu_cluster_schema() {
  return object("CPU cluster: cores sharing one DVFS domain", compute_fields());
}

schema_ptr npu_schema() {
  return object("NPU: a MAC array with its own DVFS domain", compute_fields());
}

schema_ptr noc_schema() {
  return object("On-chip interconnect between units and memory",
                {req("kind", str("component kind")),
                 req("connect", str("memory (component name) behind this interconnect")),
                 req("bandwidth", quantity(dims::bandwidth(), "aggregate bandwidth")),
                 opt("latency", quantity(dims::time(), "traversal latency", "30 ns", 0.0, false)),
                 opt("energy_per_byte", quantity(dims::energy_per_byte(), "energy per byte moved", "0 J/B", 0.0, false)),
                 opt("background_power", quantity(dims::power(), "static power", "0 W", 0.0, false))});
}

schema_ptr memory_schema(const std::string& what) {
  return object(what,
                {req("kind", str("component kind")),
                 req("bandwidth", quantity(dims::bandwidth(), "peak bandwidth shared by all initiators")),
                 opt("latency", quantity(dims::time(), "access latency", "100 ns", 0.0, false)),
                 opt("efficiency", number("share of peak bandwidth reachable", "0.8", 0.0, 1.0)),
                 opt("capacity", quantity(dims::bytes(), "capacity", "8 GiB")),
                 opt("background_power", quantity(dims::power(), "standby and refresh power", "0 W", 0.0, false)),
                 opt("energy_per_byte_read", quantity(dims::energy_per_byte(), "read energy", "0 J/B", 0.0, false)),
                 opt("energy_per_byte_write", quantity(dims::energy_per_byte(), "write energy", "0 J/B", 0.0, false))});
}

schema_ptr platform_schema() {
  auto opp = object("operating point", {req("freq", quantity(dims::frequency(), "frequency")),
                                        req("volt", quantity(dims::voltage(), "voltage"))});
  auto domain = object("DVFS domain",
                       {req("opps", list_of(opp, "operating points (V-f table)")),
                        opt("transition_latency", quantity(dims::time(), "time for a frequency change to take effect",
                                                           "500 us", 0.0, false))});
  auto component = variant({{"cpu_cluster", cpu_cluster_schema()},
                            {"npu", npu_schema()},
                            {"noc", noc_schema()},
                            {"lpddr", memory_schema("LPDDR memory (LPDDR5/5X)")}},
                           "component by kind");
  return object("hardware platform",
                {opt("quantum", quantity(dims::time(), "TLM global quantum (temporal decoupling)", "50 us")),
                 req("domains", map_of(domain, "DVFS domains by name")),
                 req("components", map_of(component, "components by name"))});
}

schema_ptr workload_schema() {
  std::vector<std::string> models;
  for (const auto& m : tlm::model_zoo()) models.push_back(m.name);
  auto arrival = object("request arrivals",
                        {req("kind", enumeration({"fixed_rate", "poisson"}, "arrival process")),
                         req("rate", quantity(dims::frequency(), "mean arrival rate (e.g. \"30 Hz\")")),
                         opt("start", quantity(dims::time(), "first arrival", "0 s", 0.0, false))});
  auto stage = object("pipeline stage: one model on one unit",
                      {req("unit", str("compute unit (component name)")),
                       req("model", enumeration(models, "model from the zoo (ptsim list workloads)")),
                       opt("params", map_of(number("model parameter"), "model parameters")),
                       opt("precision", enumeration({"fp32", "fp16", "bf16", "fp8", "int8"}, "arithmetic precision"))});
  auto stream = object("a request stream",
                       {req("arrival", arrival),
                        opt("precision", enumeration({"fp32", "fp16", "bf16", "fp8", "int8"}, "default precision", "int8")),
                        req("stages", list_of(stage, "stages run in order for every request")),
                        opt("queue_limit", integer("requests waiting before new arrivals are dropped", "64", 1))});
  return object("ML workload", {req("streams", map_of(stream, "request streams by name"))});
}

schema_ptr thermal_schema() {
  auto blk = object("floorplan block (origin bottom-left)",
                    {req("name", str("block name")),
                     req("x", quantity(dims::length(), "left edge", std::nullopt, 0.0, false)),
                     req("y", quantity(dims::length(), "bottom edge", std::nullopt, 0.0, false)),
                     req("width", quantity(dims::length(), "width")),
                     req("height", quantity(dims::length(), "height"))});
  auto k = [](const char* doc, const char* def) { return quantity(dims::thermal_conductivity(), doc, def); };
  auto rho_c = [](const char* doc, const char* def) { return quantity(dims::volumetric_heat_capacity(), doc, def); };
  auto len = [](const char* doc, const char* def) { return quantity(dims::length(), doc, def); };
  auto package = object(
      "HotSpot block-model package (HotSpot's parameter names and defaults)",
      {opt("t_chip", len("die thickness", "0.15 mm")), opt("k_chip", k("die conductivity", "100 W/(m*K)")),
       opt("p_chip", rho_c("die volumetric heat capacity", "1.75e6 J/(m^3*K)")),
       opt("t_interface", len("TIM thickness", "20 um")), opt("k_interface", k("TIM conductivity", "4 W/(m*K)")),
       opt("p_interface", rho_c("TIM volumetric heat capacity", "4e6 J/(m^3*K)")),
       opt("s_spreader", len("spreader side", "30 mm")), opt("t_spreader", len("spreader thickness", "1 mm")),
       opt("k_spreader", k("spreader conductivity", "400 W/(m*K)")),
       opt("p_spreader", rho_c("spreader volumetric heat capacity", "3.55e6 J/(m^3*K)")),
       opt("s_sink", len("sink side", "60 mm")), opt("t_sink", len("sink thickness", "6.9 mm")),
       opt("k_sink", k("sink conductivity", "400 W/(m*K)")),
       opt("p_sink", rho_c("sink volumetric heat capacity", "3.55e6 J/(m^3*K)")),
       opt("r_convec", quantity(dims::thermal_resistance(), "sink-to-ambient convection resistance", "0.1 K/W")),
       opt("c_convec", quantity(dims::heat_capacity(), "convection heat capacity", "140.4 J/K"))});
  auto solver = object("transient solver",
                       {opt("method", enumeration({"auto", "exponential", "backward_euler"},
                                                  "exact exponential stepping (dense), implicit Euler sub-steps "
                                                  "(sparse), or auto: exponential up to 500 nodes",
                                                  "auto")),
                        opt("substeps", integer("backward-Euler sub-steps per control period", "8", 1))});
  return object("thermal model",
                {req("ambient", temperature("ambient temperature")),
                 req("floorplan", list_of(blk, "die floorplan")),
                 opt("package", package),
                 opt("power_map", map_of(str("floorplan block"), "component -> block receiving its power "
                                                               "(default: the block of the same name)")),
                 opt("initial", enumeration({"ambient", "steady"}, "initial temperatures", "ambient")),
                 opt("solver", solver)});
}

schema_ptr policy_schema() {
  std::vector<std::string> govs;
  for (const auto& g : power::governor_registry::instance().list()) govs.push_back(g.name);
  auto gov_name = enumeration(govs, "cpufreq governor");
  auto gov_obj = object("cpufreq governor with tunables",
                        {req("governor", gov_name), opt("tunables", map_of(number("tunable value"), "tunables by name"))});
  std::vector<std::string> tgovs = {"none"};
  for (const auto& n : power::thermal_governor_names()) tgovs.push_back(n);
  auto thermal = object(
      "thermal governor (Linux thermal framework)",
      {opt("governor", enumeration(tgovs, "thermal governor", "none")),
       opt("control_temp", temperature("temperature to regulate to (step_wise's passive trip, IPA's control)",
                                       "85 degC")),
       opt("switch_on_temp", temperature("IPA switch-on temperature (default control_temp - 10 K)")),
       opt("hysteresis", quantity(dims::temperature(), "trip hysteresis", "2 K", 0.0, false)),
       opt("polling_period", quantity(dims::time(), "governor period (passive delay)", "100 ms")),
       opt("sustainable_power", quantity(dims::power(), "IPA sustainable power (default: estimated)")),
       opt("sensor", str("floorplan block read as the zone's sensor (default: the hottest block)")),
       opt("domains", list_of(str("DVFS domain"), "cooling devices (default: every domain)"))});
  auto power_cap = object(
      "power capping on the platform's power (RAPL PL1/PL2 style, a board limit, or a two-threshold datacenter cap)",
      {req("limit", quantity(dims::power(), "limit on the average platform power over `window` (PL1; the hard threshold)")),
       opt("window", quantity(dims::time(), "averaging window of `limit`", "1 s")),
       opt("short_limit", quantity(dims::power(), "short-term limit (PL2)")),
       opt("short_window", quantity(dims::time(), "averaging window of `short_limit`", "10 ms")),
       opt("soft_limit", quantity(dims::power(), "first threshold: only `low_priority` domains are cut to meet it")),
       opt("settle", quantity(dims::time(), "time over which the average is brought back to the limit", "50 ms")),
       opt("domains", list_of(str("DVFS domain"), "capped domains (default: every domain)")),
       opt("low_priority", list_of(str("DVFS domain"), "domains cut first at the soft limit"))});
  return object("DVFS and thermal policy",
                {opt("governor", enumeration(govs, "cpufreq governor of every domain without its own", "schedutil")),
                 opt("governors", map_of(one_of({gov_name, gov_obj}, "governor name, or {governor, tunables}"),
                                         "per-domain cpufreq governor overrides")),
                 opt("thermal", thermal),
                 opt("power_cap", power_cap)});
}

}  // namespace

schema_ptr scenario_schema() {
  // Rebuilt when a governor has been registered since (its name joins the enumeration).
  static std::size_t built_for = 0;
  static schema_ptr root;
  const std::size_t gen = power::governor_registry::instance().generation();
  if (root && built_for == gen) return root;
  built_for = gen;
  root = object(
      "ptsim scenario",
      {req("name", str("scenario name (used in result file names)")),
       req("duration", quantity(dims::time(), "simulated time")),
       opt("control_period", quantity(dims::time(), "closed-loop tick: power, thermal and governors", "1 ms")),
       opt("record_period", quantity(dims::time(), "timeseries sampling period", "10 ms")),
       opt("seed", integer("random seed", "1", 0)),
       opt("description", str("free text")),
       opt("extends", str("base scenario file (relative to this one) that this file changes; mappings merge, "
                          "other values replace")),
       req("platform", platform_schema()),
       req("workload", workload_schema()),
       req("thermal", thermal_schema()),
       opt("policy", policy_schema())});
  return root;
}

}  // namespace ptsim::scenarios
