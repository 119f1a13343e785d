#pragma once
// HotSpot layer configuration files (.lcf, -grid_layer_file): per layer, seven non-comment
// lines: layer number (0 = farthest from the heat sink), lateral heat flow (Y/N), power
// dissipation (Y/N), volumetric heat capacity (J/(m^3 K)) or a material name, resistivity
// (m K/W; absent after a material name), thickness (m), floorplan file.
#include <cstddef>
#include <filesystem>
#include <string>
#include <vector>

#include "ptsim/thermal/materials.hpp"

namespace ptsim::thermal {

struct lcf_layer {
  int number = 0;
  bool lateral = true;
  bool power = false;
  double heat_capacity_J_per_m3K = 0;
  double conductivity_W_per_mK = 0;
  double thickness_m = 0;
  std::string floorplan_file;  ///< as written in the file
  std::string source;          ///< "file:line" of the layer number, for messages
};

/// Reads a .lcf; layers are returned sorted by number, which must run 0..n-1 without repeats.
/// Material names are looked up in `materials`. Throws std::runtime_error "file:line: ...".
std::vector<lcf_layer> read_lcf(const std::filesystem::path& path, const material_list& materials);
std::vector<lcf_layer> parse_lcf(const std::string& text, const std::string& source,
                                 const material_list& materials);

}  // namespace ptsim::thermal
