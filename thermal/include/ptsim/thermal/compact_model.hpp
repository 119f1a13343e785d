#pragma once
// A thermal RC network seen through HotSpot's block-level view, the same for the block and
// grid models: power enters per block, temperatures are reported per block (and per package
// node), and initial temperatures are given per block. The HotSpot driver (`ptsim thermal`)
// and leakage coupling work on this view only.
#include <cstddef>
#include <string>
#include <vector>

#include "ptsim/thermal/floorplan.hpp"
#include "ptsim/thermal/package.hpp"
#include "ptsim/thermal/rc_network.hpp"

namespace ptsim::thermal {

/// A node index with a weight.
struct node_weight {
  std::size_t node;
  double weight;
};

/// How a probe reduces its nodes' temperatures to one (HotSpot's grid_map_mode).
enum class reduction { mean, min, max };

/// A reported temperature (a line of a .steady file): the weighted mean, min or max of nodes.
struct probe {
  std::string name;
  std::vector<node_weight> nodes;  ///< weights sum to 1 for `mean`; ignored for min/max
  reduction how = reduction::mean;
};

/// A block that dissipates power: its power (W) spreads over nodes with weights summing to 1.
struct power_input {
  std::string name;                 ///< block name as in the .ptrace
  std::size_t group = 0;            ///< power layer (ptrace columns are grouped by layer, in order)
  std::vector<node_weight> spread;  ///< node and fraction of the block's power
  std::size_t probe = 0;            ///< the probe that reports this block's temperature
  double area_m2 = 0;               ///< block area (for area-scaled leakage)
};

struct compact_model {
  rc_network net;
  std::vector<power_input> inputs;  ///< every power-dissipating block, grouped by layer
  std::size_t groups = 1;           ///< number of power layers
  std::vector<probe> probes;        ///< in HotSpot's .steady order
  /// Probes [0, top_probes) are the top layer's blocks (HotSpot clips -init_file on these).
  std::size_t top_probes = 0;
  /// Initial node temperatures from probe temperatures: for node k, sum of w * T(probe).
  /// Weights sum to 1 for every node. (`node_weight::node` is a probe index here.)
  std::vector<std::vector<node_weight>> init_from_probes;
  /// Grid models: the first layers*rows*cols nodes are cells, layer-major, row 0 at the north.
  std::size_t grid_layers = 0, grid_rows = 0, grid_cols = 0;

  /// Adds the power of every input (W, in `inputs` order) to `node_power_W` (zeroed first).
  void node_power(const double* input_W, std::vector<double>& node_power_W) const;
  /// Temperature of probe `p` from node temperatures (K).
  double probe_temperature(std::size_t p, const std::vector<double>& node_T_K) const;
  /// Node temperatures from probe temperatures (size probes.size()).
  std::vector<double> nodes_from_probes(const std::vector<double>& probe_T_K) const;
  /// The block that best describes node k for messages: "block 'x' (layer 0)" or the node name.
  std::string describe_node(std::size_t node) const;
};

/// HotSpot's block model in this view: one input per block, a probe per node.
compact_model make_block_compact_model(const floorplan& fp, const package_config& pkg);

}  // namespace ptsim::thermal
