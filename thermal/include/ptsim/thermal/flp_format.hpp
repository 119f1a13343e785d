#pragma once
// HotSpot .flp floorplan files: one block per line, whitespace separated,
// `name width height left_x bottom_y` in metres; `#` comments and blank lines ignored.
#include <filesystem>
#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

#include "ptsim/thermal/floorplan.hpp"

namespace ptsim::thermal {

/// The two optional per-block columns of a .flp (HotSpot's detailed_3D materials).
struct block_material {
  double heat_capacity_J_per_m3K;  ///< volumetric
  double resistivity_mK_per_W;
};

/// A .flp with its optional per-block materials (same order as the blocks).
struct flp_contents {
  floorplan fp;
  std::vector<std::optional<block_material>> materials;
};

/// Reads a .flp keeping the optional material columns. HotSpot's connectivity lines
/// (`name1 name2 wire_density`) are skipped. Errors as read_flp.
flp_contents read_flp_contents(const std::filesystem::path& path);
flp_contents parse_flp_contents(const std::string& text, const std::string& source_name);

/// Reads a HotSpot .flp file. The two optional grid-model columns (specific heat,
/// resistivity) are accepted and ignored. Throws std::runtime_error as
/// "file:line: message" (what was expected, what was found) for malformed lines,
/// duplicate names and non-positive sizes, and when the file cannot be opened.
floorplan read_flp(const std::filesystem::path& path);

/// Parses .flp text; `source_name` prefixes error messages in place of a file name.
floorplan parse_flp(const std::string& text, const std::string& source_name);

/// Writes a floorplan in .flp format with shortest round-trip number formatting,
/// so that read_flp(write_flp(fp)) reproduces every coordinate exactly. Throws
/// std::invalid_argument for a block name the format cannot hold (whitespace, leading '#').
void write_flp(std::ostream& out, const floorplan& fp);

}  // namespace ptsim::thermal
