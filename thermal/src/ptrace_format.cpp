#include "ptsim/thermal/ptrace_format.hpp"

#include <stdexcept>
#include <unordered_map>

#include "ptsim/text/input_file.hpp"
#include "text_parse.hpp"

namespace ptsim::thermal {

ptrace_reader::ptrace_reader(const std::filesystem::path& path)
    : source_(path.string()) {
  if (auto problem = text::input_file_problem(path)) throw std::runtime_error(source_ + ": cannot open power trace: " + *problem);
  in_.open(path, std::ios::binary);
  if (!in_) throw std::runtime_error(source_ + ": cannot open power trace");
  if (!next_words(names_))
    throw std::runtime_error(source_ + ": expected a header line of block names, found an empty file");
  header_line_ = line_;
  std::unordered_map<std::string, std::size_t> seen;
  for (std::size_t i = 0; i < names_.size(); ++i) {
    if (!seen.emplace(names_[i], i).second) {
      throw std::runtime_error(source_ + ":" + std::to_string(line_) + ": block '" + names_[i] +
                               "' appears twice in the header");
    }
  }
}

bool ptrace_reader::next_words(std::vector<std::string>& words) {
  std::string line;
  while (std::getline(in_, line)) {
    ++line_;
    detail::split_words(line, words);
    if (!words.empty() && words.front().front() != '#') return true;
  }
  return false;
}

bool ptrace_reader::next(std::vector<double>& power_W) {
  if (!next_words(words_)) return false;
  const std::string where = source_ + ":" + std::to_string(line_) + ": ";
  if (words_.size() != names_.size()) {
    throw std::runtime_error(where + "expected " + std::to_string(names_.size()) +
                             " power values (one per block in the header), found " +
                             std::to_string(words_.size()));
  }
  power_W.resize(names_.size());
  for (std::size_t i = 0; i < words_.size(); ++i) {
    const std::string& w = words_[i];
    double v = 0;
    if (!detail::parse_double(w, v)) {
      throw std::runtime_error(where + "expected a power in W for block '" + names_[i] +
                               "' (column " + std::to_string(i + 1) + "), found '" + w + "'");
    }
    power_W[i] = v;
  }
  return true;
}

}  // namespace ptsim::thermal
