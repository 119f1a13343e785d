// Interconnects: NoCs, PCIe and NVLink links, switches. One sc_module
// (tlm_models::interconnect); power: background plus energy per byte (the memory model without
// refresh).
#include "component_kind.hpp"

namespace ptsim::scenarios::detail {
namespace {

std::vector<field> link_power_fields() {
  return {opt("energy_per_byte", quantity(dims::energy_per_byte(), "energy per byte moved", "0 J/B", 0.0, false)),
          opt("background_power", quantity(dims::power(), "static power (PHYs, idle)", "0 W", 0.0, false))};
}

schema_ptr with_power(const std::string& doc, std::vector<field> f) {
  for (auto& x : link_power_fields()) f.push_back(x);
  return object(doc, f);
}

schema_ptr noc_schema() {
  return with_power("On-chip interconnect (NoC or bus) between units and one memory",
                    {req("kind", str("component kind")),
                     req("connect", str("memory (or interconnect) behind it")),
                     req("bandwidth", quantity(dims::bandwidth(), "aggregate bandwidth")),
                     opt("latency", quantity(dims::time(), "traversal latency", "30 ns", 0.0, false))});
}

schema_ptr pcie_schema() {
  return with_power(
      "PCIe link (point to point, full duplex): lanes x per-lane rate of its generation, per direction "
      "(gen3 0.985, gen4 1.969, gen5 3.938, gen6 7.563 GB/s per lane after encoding; PCI-SIG)",
      {req("kind", str("component kind")),
       opt("connect", str("component at its far end (none: the link itself ends transfers)")),
       opt("lanes", integer("lanes", "16", 1)),
       opt("generation", enumeration({"3", "4", "5", "6"}, "PCIe generation", "5")),
       opt("bandwidth", quantity(dims::bandwidth(), "per-direction bandwidth (overrides lanes x generation)")),
       opt("latency", quantity(dims::time(), "one-way latency (illustrative default)", "1 us", 0.0, false))});
}

schema_ptr nvlink_schema() {
  return with_power(
      "NVLink-class link (point to point, full duplex): links x per-link rate, per direction "
      "(NVLink 4: 18 links x 25 GB/s = 450 GB/s each way, 900 GB/s total per H100)",
      {req("kind", str("component kind")),
       opt("connect", str("component at its far end (none: the link itself ends transfers, e.g. between two GPUs)")),
       opt("links", integer("links", "18", 1)),
       opt("link_bandwidth", quantity(dims::bandwidth(), "per-direction bandwidth of one link", "25 GB/s")),
       opt("latency", quantity(dims::time(), "one-way latency per hop (illustrative default)", "1 us", 0.0, false))});
}

schema_ptr switch_schema() {
  return with_power(
      "Switch (NVSwitch, PCIe switch): many upstream links, routes to its ports by address; with no ports it is a "
      "terminal that collectives cross and end in",
      {req("kind", str("component kind")),
       opt("ports", list_of(str("component"), "downstream components (none: a terminal fabric)")),
       req("bandwidth", quantity(dims::bandwidth(), "aggregate switching bandwidth")),
       opt("latency", quantity(dims::time(), "traversal latency (illustrative default)", "500 ns", 0.0, false))});
}

// Per-lane PCIe rate per direction after line encoding (PCI-SIG: 8, 16, 32 GT/s with
// 128b/130b; 64 GT/s PAM4 with 242/256 FLIT efficiency), in B/s.
double pcie_lane_Bps(const std::string& gen) {
  if (gen == "3") return 8e9 * 128 / 130 / 8;
  if (gen == "4") return 16e9 * 128 / 130 / 8;
  if (gen == "6") return 64e9 * 242 / 256 / 8;
  return 32e9 * 128 / 130 / 8;
}

// The keys every interconnect has; `bandwidth` by kind.
void resolve_link(const std::string& name, const std::string& kind, const view& c, scenario& sc,
                  void (*own)(const view& c, tlm_config::interconnect_config& ic)) {
  tlm_config::interconnect_config ic;
  ic.name = name;
  ic.kind = kind;
  ic.latency = units::seconds(c.si("latency"));
  if (c.has("connect")) ic.connect = c.str("connect");
  own(c, ic);
  sc.platform.interconnects.push_back(ic);
  add_memory_power(sc, name, c.si("background_power"), c.si("energy_per_byte"), c.si("energy_per_byte"));
}

void noc_keys(const view& c, tlm_config::interconnect_config& ic) {
  ic.bandwidth_Bps = c.si("bandwidth");
  ic.needs_connect = true;
}

void pcie_keys(const view& c, tlm_config::interconnect_config& ic) {
  ic.bandwidth_Bps = c.has("bandwidth") ? c.si("bandwidth") : c.integer("lanes") * pcie_lane_Bps(c.str("generation"));
  ic.duplex = ic.point_to_point = true;
}

void nvlink_keys(const view& c, tlm_config::interconnect_config& ic) {
  ic.bandwidth_Bps = static_cast<double>(c.integer("links")) * c.si("link_bandwidth");
  ic.duplex = ic.point_to_point = true;
}

void switch_keys(const view& c, tlm_config::interconnect_config& ic) {
  for (const auto& p : c.at("ports").items()) ic.ports.push_back(p.scalar());
  ic.bandwidth_Bps = c.si("bandwidth");
}

}  // namespace

std::vector<component_kind> interconnect_kinds() {
  auto kind = [](const char* name, schema_ptr (*schema)(), void (*own)(const view&, tlm_config::interconnect_config&)) {
    return component_kind{name, tlm_config::component_role::interconnect, schema,
                          [name, own](const std::string& n, const view& c, const view&, scenario& sc) {
                            resolve_link(n, name, c, sc, own);
                          }};
  };
  return {kind("noc", noc_schema, noc_keys), kind("pcie", pcie_schema, pcie_keys),
          kind("nvlink", nvlink_schema, nvlink_keys), kind("switch", switch_schema, switch_keys)};
}

}  // namespace ptsim::scenarios::detail
