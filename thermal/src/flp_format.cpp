#include "ptsim/thermal/flp_format.hpp"

#include <charconv>
#include <cmath>
#include <fstream>
#include <optional>
#include <ostream>
#include <sstream>
#include <stdexcept>
#include <unordered_map>
#include <vector>

#include "ptsim/text/input_file.hpp"
#include "text_parse.hpp"

namespace ptsim::thermal {

namespace {

std::vector<std::string> split_fields(const std::string& line) {
  std::vector<std::string> fields;
  std::istringstream in(line);
  for (std::string f; in >> f;) fields.push_back(f);
  return fields;
}

[[noreturn]] void fail(const std::string& source, std::size_t line, const std::string& msg) {
  throw std::runtime_error(source + ":" + std::to_string(line) + ": " + msg);
}

// from_chars: locale-independent and rejects trailing garbage ("1e-3mm").
double parse_number(const std::string& text, const char* what, const std::string& source,
                    std::size_t line) {
  double v = 0;
  if (!detail::parse_double(text, v))
    fail(source, line, std::string("expected a number for ") + what + ", found '" + text + "'");
  return v;
}

}  // namespace

flp_contents parse_flp_contents(const std::string& text, const std::string& source_name) {
  std::vector<block> blocks;
  std::vector<std::optional<block_material>> materials;
  std::unordered_map<std::string, std::size_t> first_line;
  std::istringstream in(text);
  std::size_t line_no = 0;
  for (std::string line; std::getline(in, line);) {
    ++line_no;
    if (!line.empty() && line.back() == '\r') line.pop_back();  // files edited on Windows
    const auto fields = split_fields(line);
    if (fields.empty() || fields.front().front() == '#') continue;
    double unused = 0;
    // HotSpot's connectivity lines (name1 name2 wire_density) carry nothing thermal.
    if (fields.size() == 3 && !detail::parse_double(fields[1], unused)) continue;
    if (fields.size() != 5 && fields.size() != 7) {
      fail(source_name, line_no,
           "expected 5 fields (name width height left_x bottom_y) or 7 (plus specific heat and "
           "resistivity), found " + std::to_string(fields.size()) + ": '" + line + "'");
    }
    block b;
    b.name = fields[0];
    b.width_m = parse_number(fields[1], "width", source_name, line_no);
    b.height_m = parse_number(fields[2], "height", source_name, line_no);
    b.x_m = parse_number(fields[3], "left_x", source_name, line_no);
    b.y_m = parse_number(fields[4], "bottom_y", source_name, line_no);
    std::optional<block_material> mat;
    if (fields.size() == 7) {
      mat = block_material{parse_number(fields[5], "specific heat", source_name, line_no),
                           parse_number(fields[6], "resistivity", source_name, line_no)};
      if (!(mat->heat_capacity_J_per_m3K > 0) || !(mat->resistivity_mK_per_W > 0))
        fail(source_name, line_no,
             "expected a positive specific heat and resistivity for block '" + b.name + "', found " +
                 fields[5] + " and " + fields[6]);
    }
    if (!(b.width_m > 0) || !(b.height_m > 0)) {
      fail(source_name, line_no,
           "expected a positive width and height for block '" + b.name + "', found " +
               fields[1] + " x " + fields[2]);
    }
    const auto [it, fresh] = first_line.emplace(b.name, line_no);
    if (!fresh) {
      fail(source_name, line_no,
           "duplicate block '" + b.name + "' (first defined on line " +
               std::to_string(it->second) + ")");
    }
    blocks.push_back(std::move(b));
    materials.push_back(mat);
  }
  if (blocks.empty()) fail(source_name, line_no, "expected at least one block, found none");
  return {floorplan(std::move(blocks)), std::move(materials)};
}

floorplan parse_flp(const std::string& text, const std::string& source_name) {
  return parse_flp_contents(text, source_name).fp;
}

flp_contents read_flp_contents(const std::filesystem::path& path) {
  return parse_flp_contents(text::read_input_file_or_throw(path, "floorplan file"), path.string());
}

floorplan read_flp(const std::filesystem::path& path) { return read_flp_contents(path).fp; }

void write_flp(std::ostream& out, const floorplan& fp) {
  // Shortest representation that reads back to the same double.
  auto num = [](double v) {
    char buf[32];
    const auto res = std::to_chars(buf, buf + sizeof buf, v);
    return std::string(buf, res.ptr);
  };
  for (const block& b : fp.blocks()) {
    // The format is whitespace separated and '#' starts a comment.
    if (b.name.front() == '#' ||
        b.name.find_first_of(" \t\r\n\v\f") != std::string::npos) {
      throw std::invalid_argument("write_flp: block name '" + b.name +
                                  "' cannot be written to .flp (whitespace or leading '#')");
    }
  }
  out << "# HotSpot floorplan: name\twidth\theight\tleft_x\tbottom_y (metres)\n";
  for (const block& b : fp.blocks()) {
    out << b.name << '\t' << num(b.width_m) << '\t' << num(b.height_m) << '\t' << num(b.x_m)
        << '\t' << num(b.y_m) << '\n';
  }
}

}  // namespace ptsim::thermal
