#pragma once
// A grid of text cells printed as an aligned text table, a markdown table or csv.
#include <string>
#include <vector>

namespace ptsim::postproc {

struct text_grid {
  std::vector<std::string> header;
  std::vector<std::vector<std::string>> rows;
  std::size_t text_columns = 1;  ///< leading columns aligned left; the rest (numbers) right

  /// Columns padded to their widest cell, a rule of dashes under the header.
  std::string table() const;
  /// Pipes escaped inside cells; number columns right-aligned.
  std::string markdown() const;
  /// RFC 4180: fields quoted when they hold a comma, a quote or a line break.
  std::string csv() const;
};

}  // namespace ptsim::postproc
