#pragma once
// HotSpot-equivalent block model: silicon, interface (TIM), heat spreader and heat sink
// layers over a floorplan, with spreader/sink periphery nodes and convection to ambient.
// Parameters and fitting factors are HotSpot's (see shared reference hotspot-model.md).
#include <vector>

#include "ptsim/thermal/floorplan.hpp"
#include "ptsim/thermal/rc_network.hpp"

namespace ptsim::thermal {

/// HotSpot package parameters (SI). Defaults are HotSpot 7's hotspot.config defaults.
struct package_config {
  double t_chip = 0.15e-3, k_chip = 100.0, p_chip = 1.75e6;
  double t_interface = 20e-6, k_interface = 4.0, p_interface = 4.0e6;
  double s_spreader = 0.03, t_spreader = 1e-3, k_spreader = 400.0, p_spreader = 3.55e6;
  double s_sink = 0.06, t_sink = 6.9e-3, k_sink = 400.0, p_sink = 3.55e6;
  double r_convec = 0.1;    ///< K/W, sink to ambient, whole sink
  double c_convec = 140.4;  ///< J/K
  bool omit_lateral = false;  ///< HotSpot's block_omit_lateral (silicon lateral links dropped)
};

/// What a package parameter measures (its unit: m, W/(m K), J/(m^3 K), K/W, J/K).
enum class package_quantity { length, conductivity, volumetric_heat_capacity, thermal_resistance, heat_capacity };

/// One package parameter: the HotSpot option and scenario key, where it lives, what it
/// measures, what it means and HotSpot's default as written in scenarios. The one list
/// behind `ptsim thermal`'s options, the scenario schema and the scenario reader.
struct package_field {
  const char* key;
  double package_config::*member;
  package_quantity quantity;
  const char* doc;
  const char* default_text;  ///< package_config's default, with its unit
  bool may_be_zero;          ///< c_convec: 0 = no convection capacitance; the rest must be > 0
};

/// The 16 numeric package parameters, in HotSpot's order.
const std::vector<package_field>& package_fields();

/// Builds the HotSpot block model (4n + 12 nodes). Node order and names follow HotSpot:
/// blocks "<name>" (0..n-1), "iface_<name>", "hsp_<name>", "hsink_<name>", then
/// "inode_0".."inode_11" (spreader periphery W,E,N,S; sink inner W,E,N,S; sink outer W,E,N,S).
/// Throws std::invalid_argument when the die does not fit the spreader or sink.
rc_network build_block_model(const floorplan& fp, const package_config& pkg);

}  // namespace ptsim::thermal
