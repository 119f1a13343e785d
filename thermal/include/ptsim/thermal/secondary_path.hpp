#pragma once
// HotSpot 7's secondary heat path (its -model_secondary 1, grid model only): below the die,
// heat also flows through the metal layers and the C4 bumps / underfill into the package
// substrate, the solder balls and the PCB, which convects to ambient through r_convec_sec.
// In the grid these are layers of die-sized cells (the substrate, solder and PCB with
// periphery nodes out to their own sizes, like the spreader and the sink).
#include <cstddef>
#include <limits>
#include <vector>

#include "ptsim/thermal/floorplan.hpp"
#include "ptsim/thermal/rc_network.hpp"

namespace ptsim::thermal {

/// Geometry and convection of the secondary path (SI; defaults are HotSpot 7's).
struct secondary_path_config {
  double r_convec_sec = 1.0;    ///< K/W, PCB to ambient, whole PCB
  double c_convec_sec = 140.4;  ///< J/K
  double t_metal = 10e-6;       ///< on-chip metal layers (without a layer file)
  double t_c4 = 0.0001;         ///< C4 bumps and underfill (without a layer file)
  double s_sub = 0.021, t_sub = 0.001;         ///< package substrate, square side and thickness
  double s_solder = 0.021, t_solder = 0.00094; ///< solder balls
  double s_pcb = 0.1, t_pcb = 0.002;           ///< printed circuit board
};

/// The secondary path's materials: HotSpot 7's "typical thermal properties for secondary path
/// layers" (temperature.h): conductivity W/(m K) from its resistivities, volumetric heat
/// capacity J/(m^3 K).
struct secondary_material {
  double k, p;
};
inline constexpr secondary_material metal_layers{1.0 / 0.0025, 3.55e6};
inline constexpr secondary_material c4_underfill{1.0 / 0.8, 1.65e6};
inline constexpr secondary_material substrate{1.0 / 0.5, 1.6e6};
inline constexpr secondary_material solder_balls{1.0 / 0.06, 2.1e6};
inline constexpr secondary_material pcb{1.0 / 0.333, 1.32e6};

/// The secondary path in block form (ptsim's, for the block-level packages; HotSpot has it in
/// the grid model only): under every block's silicon node silicon[i], one node per block in
/// each of the metal, C4/underfill, substrate, solder-ball and PCB layers ("metal_<b>",
/// "c4_<b>", "sub_<b>", "solder_<b>", "pcb_<b>", layer by layer), then inode_12..27 as in
/// the grid model. HotSpot's block-model rules applied to these layers: vertical links
/// through the full thickness of the upper layer, lateral links between adjacent blocks, edge
/// blocks to their side's ring node through (1 + r1 G_edge) / g_i. On a floorplan of equal
/// square blocks tiling the die this is exactly the grid model's secondary path on that grid.
/// The PCB nodes reach ambient through their area share of r_convec_sec, or, with
/// board_sink, the node board_sink instead (a phone's board screwed to its frame).
/// Throws std::invalid_argument for a bad configuration (positive values; c_convec_sec may be
/// 0) or a die that does not fit the substrate. Returns the index of the first node added.
std::size_t add_block_secondary_path(rc_network& net, const floorplan& fp, const std::vector<std::size_t>& silicon,
                                     const secondary_path_config& s,
                                     std::size_t board_sink = std::numeric_limits<std::size_t>::max());

}  // namespace ptsim::thermal
