#pragma once
// Private: the secondary path's package nodes (inode_12..27) around a die of W x H, and
// their links to the substrate, solder and PCB layers' edge cells (grid model) or edge
// blocks (block form, block_secondary.cpp).
#include <cstddef>
#include <limits>

#include "ptsim/thermal/rc_network.hpp"
#include "ptsim/thermal/secondary_path.hpp"

namespace ptsim::thermal::detail {

/// Throws std::invalid_argument for a non-positive or non-finite value (c_convec_sec may be
/// 0: no convection capacitance), or a die that does not fit inside the substrate and the
/// solder-ball field, or solder wider than the PCB.
void check_secondary(const secondary_path_config& s, double W, double H);

/// Where the secondary layers' cells are: node of (row 0, column 0) of each layer.
struct secondary_cells {
  std::size_t pcb = 0, solder = 0, sub = 0;
  std::size_t rows = 0, cols = 0;
  double cw = 0, ch = 0;  ///< cell width (along a row) and height (m)
};

/// The ring nodes: substrate, solder, PCB under the solder, PCB outer; each W,E,N,S.
struct secondary_rings {
  std::size_t sub = 0, solder = 0, pcb_in = 0, pcb_out = 0;
};

inline constexpr std::size_t to_ambient = std::numeric_limits<std::size_t>::max();

/// Adds inode_12..27 with their capacitances, links among them, and the PCB rings' area
/// shares of r_convec_sec to ambient (board_sink == to_ambient) or to the node board_sink.
secondary_rings add_secondary_rings(rc_network& net, const secondary_path_config& s, double W, double H,
                                    std::size_t board_sink = to_ambient);

/// The ring's resistance from the die's edge on side d to the middle of its trapezoid (the
/// inner half): HotSpot's r_sp1 form for a layer of conductivity k, square side `side`,
/// thickness t.
double secondary_r1(double k, double side, double t, int d, double W, double H);

/// Adds the rings (to ambient) and links them to the edge cells of the grid's layers.
void add_secondary_nodes(rc_network& net, const secondary_path_config& s, double W, double H,
                         const secondary_cells& cells);

}  // namespace ptsim::thermal::detail
