#pragma once
// HotSpot's temperature files, all in kelvin with a fixed number of decimals (HotSpot: 2):
//  - .ttrace: a tab-separated header of block names, then one row per sampling interval;
//  - .steady (also the -init_file format): `name<TAB>T` lines, one per reported node;
//  - .grid.steady: per layer a `Layer n:` line, then rows*cols lines `index<TAB>T`,
//    index = i*cols + j, row i = 0 at the north (top) edge of the die;
//  - grid transient file: the .grid.steady layout after a `t = <seconds>` line, per row.
#include <cstddef>
#include <filesystem>
#include <iosfwd>
#include <string>
#include <vector>

namespace ptsim::thermal {

/// HotSpot's number of decimals in every temperature file.
inline constexpr int hotspot_decimals = 2;
/// ptsim's default: 0.01 K (HotSpot's resolution) hides real differences.
inline constexpr int default_decimals = 6;

/// Appends `T_K` with `decimals` digits after the point (C locale, no exponent).
void append_fixed(std::string& out, double T_K, int decimals);

/// One tab-separated line of names (the .ttrace header).
void write_names_line(std::ostream& out, const std::vector<std::string>& names);
/// One tab-separated line of temperatures (a .ttrace row).
void write_values_line(std::ostream& out, const double* T_K, std::size_t n, int decimals);
/// `name<TAB>T` lines (.steady).
void write_steady(std::ostream& out, const std::vector<std::string>& names,
                  const std::vector<double>& T_K, int decimals);
/// Grid cell temperatures, layer-major then row-major (`cells_K[(l*rows + i)*cols + j]`).
void write_grid_cells(std::ostream& out, const double* cells_K, std::size_t layers,
                      std::size_t rows, std::size_t cols, int decimals);

/// A `name value` line of a .steady / -init_file file.
struct named_temperature {
  std::string name;
  double T_K;
  std::size_t line;
};
/// Reads `name value` lines (blank lines and lines starting with '#' skipped). Throws
/// std::runtime_error "file:line: ..." for a line that is not a name and a finite number.
std::vector<named_temperature> read_steady(const std::filesystem::path& path);
/// The same from text; `source` names it in errors.
std::vector<named_temperature> parse_steady(const std::string& text, const std::string& source);

}  // namespace ptsim::thermal
