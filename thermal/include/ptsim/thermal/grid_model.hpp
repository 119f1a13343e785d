#pragma once
// HotSpot-equivalent grid model: every layer of the die stack, then the heat spreader and the
// heat sink, cut into the same rows x cols cells over the die, with HotSpot's 12 package
// nodes and package resistances (shared with the block model). Any rows and cols (not only
// powers of two). Blocks map to cells by overlap area: a block's power is spread over the
// cells it overlaps in proportion to the overlap, and its reported temperature is the
// average (or min, max, centre) of the cells it touches, as HotSpot's grid_map_mode.
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "ptsim/thermal/compact_model.hpp"
#include "ptsim/thermal/floorplan.hpp"
#include "ptsim/thermal/flp_format.hpp"
#include "ptsim/thermal/microchannel.hpp"
#include "ptsim/thermal/package.hpp"
#include "ptsim/thermal/secondary_path.hpp"

namespace ptsim::thermal {

/// HotSpot's grid_map_mode: a block's temperature from the cells it touches.
enum class grid_map_mode { avg, min, max, center };

/// One layer of the die stack (the spreader and the sink are appended from the package).
struct grid_layer {
  floorplan fp;                  ///< blocks: where power enters and what is reported
  bool lateral = true;           ///< lateral heat flow within the layer
  bool power = false;            ///< its blocks dissipate power
  double conductivity = 100.0;   ///< W/(m K)
  double heat_capacity = 1.75e6; ///< J/(m^3 K), volumetric
  double thickness = 0.15e-3;    ///< m
  std::string prefix;            ///< probe names: prefix + block name ("", "iface_", "layer_2_")
  /// Optional per-block materials (same order as fp); used when grid_config::per_block_materials.
  std::vector<std::optional<block_material>> materials;
  /// A microfluidic cooling layer (HotSpot's -use_microchannels 1): fp and materials must be
  /// microchannel_floorplan(network, config, ...) over the die; needs per_block_materials and
  /// a network of the grid's rows x cols; not the first layer. Coolant cells exchange heat
  /// with neighbouring wall or solid cells through the config's htc (the solid's half cell
  /// plus 1/(htc face area), as HotSpot) and carry heat by advection (add_coolant_flow).
  std::optional<microchannel_layer> channels;
};

struct grid_config {
  std::size_t rows = 64, cols = 64;
  std::vector<grid_layer> layers;  ///< top (farthest from the sink) first
  package_config package;
  grid_map_mode map_mode = grid_map_mode::center;  ///< HotSpot's default
  /// Cells take the conductivity and heat capacity of the blocks that cover them (weighted by
  /// overlap; uncovered area keeps the layer's values): HotSpot's detailed_3D, in a form
  /// whose steady and transient networks agree (see README).
  bool per_block_materials = false;
  /// HotSpot 7 (both builds) links cells of the same column (north-south neighbours) with
  /// rx = cw/(k ch t) and cells of the same row with ry = ch/(k cw t): the two lateral
  /// resistances are swapped, which matters when cells are not square (cw != ch). true
  /// reproduces HotSpot; false uses the geometric resistances (a neighbour at distance cw
  /// across a face ch*t has cw/(k ch t)). The periphery links are the same either way.
  bool hotspot_lateral = true;
  /// HotSpot's -model_secondary 1: the package substrate, solder-ball and PCB layers go
  /// before `layers` (over the first layer's floorplan; probes "sub_", "solder_", "pcb_"),
  /// the PCB's cells convect to ambient through their area share of r_convec_sec, and
  /// inode_12..27 follow the 12 package nodes. Without it the model is exactly as before.
  /// Not with per_block_materials.
  std::optional<secondary_path_config> secondary;
};

/// HotSpot's default stack without a layer file: silicon (dissipating power, probes named by
/// block) and interface material ("iface_"), both over `fp`, with the package's k, p and t.
/// With a secondary path, the C4/underfill ("c4_") and metal ("metal_") layers come first.
std::vector<grid_layer> default_grid_layers(const floorplan& fp, const package_config& pkg,
                                            const secondary_path_config* secondary = nullptr);

/// Builds the grid model. Nodes: cells (layer-major, row 0 at the north edge, column 0 at the
/// west edge), then inode_0..11 as in the block model (and inode_12..27 with a secondary path). Probes: per layer, per block of the
/// layer's floorplan (the spreader and the sink use the last die layer's floorplan, prefixes
/// "hsp_" and "hsink_"), then the package nodes. Layers whose floorplans have the same
/// extent are each moved to the origin, as HotSpot does; if the extents differ (dies of
/// unequal size), every layer keeps its coordinates relative to their common lower-left corner
/// and the grid covers the union. Throws std::invalid_argument for an empty layer list, zero
/// rows or cols, or a die that does not fit inside the spreader.
compact_model build_grid_model(const grid_config& cfg);

}  // namespace ptsim::thermal
