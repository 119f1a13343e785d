#include "output_file.hpp"

#include <filesystem>
#include <iostream>

namespace ptsim::cosim::cli {

bool may_write_output(const std::string& command, const std::string& output, bool force) {
  if (force || !std::filesystem::exists(output)) return true;
  std::cerr << "ptsim " << command << ": " << output << " exists; refusing to overwrite it (use --force)\n";
  return false;
}

}  // namespace ptsim::cosim::cli
