// The measurement table of a study: CSV with '#' comment lines, every cell's place kept
// for diagnostics.
#include <set>
#include <sstream>

#include "study.hpp"

namespace ptsim::cosim::calibration {

using scenarios::diagnostic;
using scenarios::scenario_error;

measurement_table parse_measurement_table(const std::string& text, const std::string& file) {
  measurement_table t;
  t.file = file;
  t.text = text;
  std::vector<diagnostic> diags;
  std::istringstream in(text);
  std::string line;
  int line_no = 0;
  bool header = false;
  while (std::getline(in, line)) {
    ++line_no;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.empty()) continue;
    if (line[0] == '#') {
      t.comments.push_back(line.size() > 1 && line[1] == ' ' ? line.substr(2) : line.substr(1));
      continue;
    }
    std::vector<std::string> cells;
    std::vector<where> at;
    std::size_t i = 0;
    bool bad = false;
    while (true) {
      std::string cell;
      const int col = static_cast<int>(i) + 1;
      if (i < line.size() && line[i] == '"') {
        ++i;
        while (true) {
          if (i >= line.size()) {
            diags.push_back({file, line_no, col, "", "a quoted field without its closing '\"'", false});
            bad = true;
            break;
          }
          if (line[i] == '"') {
            if (i + 1 < line.size() && line[i + 1] == '"') {
              cell += '"';
              i += 2;
              continue;
            }
            ++i;
            break;
          }
          cell += line[i++];
        }
        if (bad) break;
        if (i < line.size() && line[i] != ',') {
          diags.push_back({file, line_no, static_cast<int>(i) + 1, "", "expected ',' after a quoted field", false});
          bad = true;
          break;
        }
      } else {
        while (i < line.size() && line[i] != ',') cell += line[i++];
        const auto a = cell.find_first_not_of(' '), b = cell.find_last_not_of(' ');
        cell = a == std::string::npos ? "" : cell.substr(a, b - a + 1);
      }
      cells.push_back(cell);
      at.push_back({file, line_no, col});
      if (i >= line.size()) break;
      ++i;  // the comma
    }
    if (bad) continue;
    if (!header) {
      t.columns = cells;
      t.column_at = at;
      header = true;
      std::set<std::string> seen;
      for (std::size_t k = 0; k < cells.size(); ++k) {
        if (cells[k].empty()) diags.push_back({file, line_no, at[k].column, "", "an empty column name", false});
        else if (!seen.insert(cells[k]).second)
          diags.push_back({file, line_no, at[k].column, cells[k], "column '" + cells[k] + "' given twice", false});
      }
      continue;
    }
    if (cells.size() != t.columns.size()) {
      diags.push_back({file, line_no, 1, "",
                       "expected " + std::to_string(t.columns.size()) + " fields as in the header, found " +
                           std::to_string(cells.size()),
                       false});
      continue;
    }
    t.cells.push_back(std::move(cells));
    t.cell_at.push_back(std::move(at));
  }
  if (!header) diags.push_back({file, line_no, 1, "", "expected a header line of column names, found none", false});
  else if (t.cells.empty()) diags.push_back({file, line_no, 1, "", "expected at least one row of measurements, found none", false});
  if (!diags.empty()) throw scenario_error(diags);
  return t;
}

}  // namespace ptsim::cosim::calibration
