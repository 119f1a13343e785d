#include "ptsim/text/input_file.hpp"

#include <sys/stat.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace ptsim::text {

std::optional<std::string> input_file_problem(const std::filesystem::path& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) return std::string(std::strerror(errno));  // follows links
  if (S_ISDIR(st.st_mode)) return std::string("is a directory");
  if (S_ISREG(st.st_mode) || S_ISFIFO(st.st_mode)) return std::nullopt;
  return std::string("is a device, not a file");  // character or block device, socket
}

std::optional<std::string> read_input_file(const std::filesystem::path& path, std::string& why) {
  if (auto problem = input_file_problem(path)) {
    why = *problem;
    return std::nullopt;
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    why = std::strerror(errno);
    return std::nullopt;
  }
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) {
    why = "read error";
    return std::nullopt;
  }
  return text.str();
}

std::string read_input_file_or_throw(const std::filesystem::path& path, const std::string& what) {
  std::string why;
  auto content = read_input_file(path, why);
  if (!content) throw std::runtime_error(path.string() + ": cannot open " + what + ": " + why);
  return std::move(*content);
}

}  // namespace ptsim::text
