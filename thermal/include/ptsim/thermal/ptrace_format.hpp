#pragma once
// HotSpot power traces (.ptrace): a header line of block names, then one line per sampling
// interval with the power (W) of every block, whitespace separated. Blank lines are skipped,
// as in HotSpot; ptsim also skips lines whose first word starts with '#'.
#include <cstddef>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

namespace ptsim::thermal {

/// Reads a .ptrace row by row, so that traces of any length stream through in constant memory.
class ptrace_reader {
 public:
  /// Opens the file and reads the header. Throws std::runtime_error "file:line: ..." when the
  /// file cannot be opened, has no header, or names a block twice.
  explicit ptrace_reader(const std::filesystem::path& path);

  const std::vector<std::string>& names() const { return names_; }
  /// Reads the next row into `power_W` (resized to names().size()). Returns false at the end.
  /// Throws std::runtime_error "file:line: ..." for a wrong number of values or a value that is
  /// not a finite number.
  bool next(std::vector<double>& power_W);
  /// Line number of the header (after next(): of the row just read).
  std::size_t line() const { return line_; }
  std::size_t header_line() const { return header_line_; }
  const std::string& source() const { return source_; }

 private:
  bool next_words(std::vector<std::string>& words);
  std::ifstream in_;
  std::string source_;
  std::vector<std::string> names_;
  std::vector<std::string> words_;
  std::size_t line_ = 0, header_line_ = 0;
};

}  // namespace ptsim::thermal
