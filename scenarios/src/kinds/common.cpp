#include "component_kind.hpp"

#include "ptsim/tlm_config/op.hpp"
// What the kinds' files share: leakage and idle-state keys, per-precision tables, the
// memory-model power row.
namespace ptsim::scenarios::detail {

schema_ptr leakage_schema() {
  return object("Leakage: P = power * (V/v_ref)^v_exponent * 2^((T - t_ref)/doubling)",
                {opt("power", quantity(dims::power(), "leakage power at v_ref and t_ref", "0 W", 0.0, false)),
                 opt("v_ref", quantity(dims::voltage(), "reference voltage", "1 V")),
                 opt("t_ref", temperature("reference temperature", "25 degC")),
                 opt("doubling", quantity(dims::temperature(), "temperature rise that doubles leakage", "20 K")),
                 opt("v_exponent", number("exponent of the voltage dependence", "2", 0.0))});
}

schema_ptr idle_state_schema() {
  return object("idle state: its power (or the share of leakage it keeps), latencies and target residency",
                {req("name", str("state name (e.g. clock_gated, retention, power_gated)")),
                 opt("power", quantity(dims::power(), "power while resident", std::nullopt, 0.0, false)),
                 opt("leakage_fraction", number("share of the unit's leakage drawn while resident (instead of power)",
                                                std::nullopt, 0.0, 1.0)),
                 opt("entry_latency", quantity(dims::time(), "time from going idle to being in the state", "0 s", 0.0,
                                               false)),
                 opt("exit_latency", quantity(dims::time(), "wake-up time, paid by the next operator", "0 s", 0.0, false)),
                 opt("target_residency", quantity(dims::time(), "shortest idle period worth entering the state for",
                                                  "0 s", 0.0, false))});
}

schema_ptr per_precision_schema(const std::string& what) {
  return map_of(number(what, std::nullopt, 0.0), what + ", by precision (fp32, fp16, bf16, fp8, int8)");
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

std::map<tlm_config::precision, double> per_precision(const view& m) {
  return parsed_number_map<tlm_config::precision>(m, tlm_config::parse_precision);
}

void add_memory_power(scenario& sc, const std::string& name, double background_W, double read_J, double write_J) {
  component_power cp;
  cp.component = name;
  cp.kind = component_power::model::memory;
  cp.memory.background_W = background_W;
  cp.memory.energy_per_byte_read_J = read_J;
  cp.memory.energy_per_byte_write_J = write_J;
  sc.power.push_back(cp);
}

}  // namespace ptsim::scenarios::detail

namespace ptsim::scenarios {

std::unique_ptr<power::component_power_model> component_power::make_model() const {
  switch (kind) {
    case model::compute: return power::make_compute_unit_power(compute, idle_states);
    case model::memory: return power::make_memory_device_power(memory);
    case model::custom: break;
  }
  return make_custom();
}

}  // namespace ptsim::scenarios
