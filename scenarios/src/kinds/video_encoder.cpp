// A fixed-function video encoder: it encodes pixels at pixels_per_cycle of its clock (its
// own DVFS domain) and draws busy_power while encoding, idle_power otherwise. Streams put
// it to work with a stage on it whose operators count pixels as their operations (e.g.
// one operator of `flops: 2073600` per 1080p frame, plus the frame's bytes).
//
// It is also the worked example of adding a kind: this file and its line
// X(video_encoder_kind) in registry.cpp. Its role (compute) gives it the TLM model of an
// initiator (tlm_models::compute_unit: a DVFS clock, operators in tiles over its connect path);
// its power model is power::make_busy_idle_power.
#include "component_kind.hpp"

namespace ptsim::scenarios::detail {
namespace {

schema_ptr video_encoder_schema() {
  return object(
      "Fixed-function video encoder: pixels per cycle of its DVFS domain; busy and idle power",
      {req("kind", str("component kind")),
       req("domain", str("DVFS domain (a key of platform.domains) that clocks this encoder")),
       req("connect", str("first hop of its frame traffic: an interconnect (noc)")),
       req("pixels_per_cycle", number("pixels encoded per clock cycle (an operator's flops count pixels)",
                                      std::nullopt, 0.0)),
       opt("launch_overhead", quantity(dims::time(), "fixed cost per operator (per frame set-up)", "20 us", 0.0,
                                       false)),
       opt("tile", ranged(quantity(dims::bytes(), "memory transaction size", "256 KiB"), 1.0, 2147483648.0, 64.0,
                          std::nullopt, "a transaction is at least a byte and at most 2 GiB")),
       req("busy_power", quantity(dims::power(), "power while encoding", std::nullopt, 0.0, false)),
       opt("idle_power", quantity(dims::power(), "power while idle (clock-gated)", "0 W", 0.0, false))});
}

void resolve_video_encoder(const std::string& name, const view& c, const view&, scenario& sc) {
  tlm_config::compute_unit_config u;
  u.name = name;
  u.kind = "video_encoder";
  u.domain = c.str("domain");
  u.connect = c.str("connect");
  // Pixels are its operations, whatever the stream's precision; no tensor/vector split.
  for (auto p : {tlm_config::precision::fp32, tlm_config::precision::fp16, tlm_config::precision::bf16, tlm_config::precision::fp8,
                 tlm_config::precision::int8})
    u.ops_per_cycle[p] = c.num("pixels_per_cycle");
  u.efficiency = u.vector_efficiency = 1.0;
  u.launch_overhead = units::seconds(c.si("launch_overhead"));
  u.tile_bytes = c.si("tile");
  sc.platform.units.push_back(u);

  component_power cp;
  cp.component = name;
  cp.kind = component_power::model::custom;
  const power::busy_idle_params p{c.si("busy_power"), c.si("idle_power")};
  if (p.busy_W < p.idle_W) c.fail("busy_power is below idle_power", "busy_power");
  cp.make_custom = [p] { return power::make_busy_idle_power(p); };
  sc.power.push_back(cp);
}

}  // namespace

std::vector<component_kind> video_encoder_kind() {
  return {{"video_encoder", tlm_config::component_role::compute, video_encoder_schema, resolve_video_encoder}};
}

}  // namespace ptsim::scenarios::detail
