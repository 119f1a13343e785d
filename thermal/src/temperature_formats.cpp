#include "ptsim/thermal/temperature_formats.hpp"

#include <charconv>
#include <cmath>
#include <fstream>
#include <ostream>
#include <sstream>
#include <stdexcept>

#include "ptsim/text/input_file.hpp"
#include "text_parse.hpp"

namespace ptsim::thermal {

void append_fixed(std::string& out, double T_K, int decimals) {
  // to_chars: locale independent and several times faster than printf for long traces.
  char buf[64];
  const auto res = std::to_chars(buf, buf + sizeof buf, T_K, std::chars_format::fixed, decimals);
  if (res.ec != std::errc()) {
    out += std::isfinite(T_K) ? "overflow" : (std::isnan(T_K) ? "nan" : "inf");
    return;
  }
  out.append(buf, res.ptr);
}

void write_names_line(std::ostream& out, const std::vector<std::string>& names) {
  std::string line;
  for (std::size_t i = 0; i < names.size(); ++i) {
    if (i) line += '\t';
    line += names[i];
  }
  line += '\n';
  out << line;
}

void write_values_line(std::ostream& out, const double* T_K, std::size_t n, int decimals) {
  std::string line;
  line.reserve(n * (decimals + 6));
  for (std::size_t i = 0; i < n; ++i) {
    if (i) line += '\t';
    append_fixed(line, T_K[i], decimals);
  }
  line += '\n';
  out << line;
}

void write_steady(std::ostream& out, const std::vector<std::string>& names,
                  const std::vector<double>& T_K, int decimals) {
  std::string text;
  for (std::size_t i = 0; i < names.size(); ++i) {
    text += names[i];
    text += '\t';
    append_fixed(text, T_K.at(i), decimals);
    text += '\n';
  }
  out << text;
}

void write_grid_cells(std::ostream& out, const double* cells_K, std::size_t layers,
                      std::size_t rows, std::size_t cols, int decimals) {
  std::string text;
  text.reserve(rows * cols * (decimals + 12));
  for (std::size_t l = 0; l < layers; ++l) {
    text += "Layer " + std::to_string(l) + ":\n";
    for (std::size_t k = 0; k < rows * cols; ++k) {
      text += std::to_string(k);
      text += '\t';
      append_fixed(text, cells_K[l * rows * cols + k], decimals);
      text += '\n';
    }
    out << text;
    text.clear();
  }
}

std::vector<named_temperature> parse_steady(const std::string& text, const std::string& source) {
  std::vector<named_temperature> out;
  std::istringstream in(text);
  std::vector<std::string> words;
  std::size_t line_no = 0;
  for (std::string line; std::getline(in, line);) {
    ++line_no;
    detail::split_words(line, words);
    if (words.empty() || words.front().front() == '#') continue;
    const std::string where = source + ":" + std::to_string(line_no) + ": ";
    if (words.size() != 2) {
      throw std::runtime_error(where + "expected 'name temperature', found " +
                               std::to_string(words.size()) + " words: '" + line + "'");
    }
    double v = 0;
    if (!detail::parse_double(words[1], v))
      throw std::runtime_error(where + "expected a temperature in K for '" + words[0] + "', found '" +
                               words[1] + "'");
    out.push_back({words[0], v, line_no});
  }
  return out;
}

std::vector<named_temperature> read_steady(const std::filesystem::path& path) {
  return parse_steady(text::read_input_file_or_throw(path, "temperature file"), path.string());
}

}  // namespace ptsim::thermal
