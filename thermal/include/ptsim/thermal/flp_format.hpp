#pragma once
// HotSpot .flp floorplan files: one block per line, whitespace separated,
// `name width height left_x bottom_y` in metres; `#` comments and blank lines ignored.
#include <filesystem>
#include <iosfwd>
#include <string>

#include "ptsim/thermal/floorplan.hpp"

namespace ptsim::thermal {

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
