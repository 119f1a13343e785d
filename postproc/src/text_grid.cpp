#include "text_grid.hpp"

#include <algorithm>

namespace ptsim::postproc {

namespace {

// Width in characters, counting a UTF-8 sequence ("±", "°") as one.
std::size_t display_width(const std::string& s) {
  return static_cast<std::size_t>(
      std::count_if(s.begin(), s.end(), [](char c) { return (static_cast<unsigned char>(c) & 0xC0) != 0x80; }));
}

std::string markdown_cell(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (c == '|') out += '\\';
    out += c;
  }
  return out;
}

std::string csv_field(const std::string& s) {
  if (s.find_first_of(",\"\r\n") == std::string::npos) return s;
  std::string out = "\"";
  for (char c : s) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + "\"";
}

}  // namespace

std::string text_grid::table() const {
  std::vector<std::size_t> width(header.size(), 0);
  auto widen = [&](const std::vector<std::string>& row) {
    for (std::size_t c = 0; c < row.size() && c < width.size(); ++c)
      width[c] = std::max(width[c], display_width(row[c]));
  };
  widen(header);
  for (const auto& r : rows) widen(r);
  std::string out;
  auto emit = [&](const std::vector<std::string>& row) {
    std::string line;
    for (std::size_t c = 0; c < width.size(); ++c) {
      const std::string cell = c < row.size() ? row[c] : "";
      if (c) line += "  ";
      const std::string pad(width[c] - display_width(cell), ' ');
      line += c < text_columns ? cell + pad : pad + cell;
    }
    line.erase(line.find_last_not_of(' ') + 1);
    out += line + "\n";
  };
  emit(header);
  std::vector<std::string> rule;
  for (std::size_t w : width) rule.push_back(std::string(w, '-'));
  emit(rule);
  for (const auto& r : rows) emit(r);
  return out;
}

std::string text_grid::markdown() const {
  std::string out;
  auto emit = [&](const std::vector<std::string>& row) {
    out += "|";
    for (std::size_t c = 0; c < header.size(); ++c)
      out += " " + markdown_cell(c < row.size() ? row[c] : "") + " |";
    out += "\n";
  };
  emit(header);
  out += "|";
  for (std::size_t c = 0; c < header.size(); ++c) out += c < text_columns ? "---|" : "---:|";
  out += "\n";
  for (const auto& r : rows) emit(r);
  return out;
}

std::string text_grid::csv() const {
  std::string out;
  auto emit = [&](const std::vector<std::string>& row) {
    for (std::size_t c = 0; c < header.size(); ++c)
      out += (c ? "," : "") + csv_field(c < row.size() ? row[c] : "");
    out += "\n";
  };
  emit(header);
  for (const auto& r : rows) emit(r);
  return out;
}

}  // namespace ptsim::postproc
