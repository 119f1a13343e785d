#pragma once
// A fresh folder per test case under the build tree (the test targets define PTSIM_BINARY_DIR).
#include <filesystem>
#include <string>

namespace ptsim::postproc::test {

inline std::filesystem::path scratch(const std::string& name) {
  const auto dir = std::filesystem::path(PTSIM_BINARY_DIR) / "tests" / "postproc" / "scratch" / name;
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir;
}

}  // namespace ptsim::postproc::test
