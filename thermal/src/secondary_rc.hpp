#pragma once
// Private: the secondary path's package nodes (inode_12..27) around a die of W x H, and
// their links to the substrate, solder and PCB layers' edge cells (grid model only).
#include <cstddef>

#include "ptsim/thermal/rc_network.hpp"
#include "ptsim/thermal/secondary_path.hpp"

namespace ptsim::thermal::detail {

/// Throws std::invalid_argument for a non-positive or non-finite value, or a die that does not
/// fit inside the substrate and the solder-ball field, or solder wider than the PCB.
void check_secondary(const secondary_path_config& s, double W, double H);

/// Where the secondary layers' cells are: node of (row 0, column 0) of each layer.
struct secondary_cells {
  std::size_t pcb = 0, solder = 0, sub = 0;
  std::size_t rows = 0, cols = 0;
  double cw = 0, ch = 0;  ///< cell width (along a row) and height (m)
};

/// Adds inode_12..27 (substrate W,E,N,S; solder W,E,N,S; PCB under the solder W,E,N,S; PCB
/// outer W,E,N,S) with their capacitances, links among them, to the edge cells and to ambient.
void add_secondary_nodes(rc_network& net, const secondary_path_config& s, double W, double H,
                         const secondary_cells& cells);

}  // namespace ptsim::thermal::detail
