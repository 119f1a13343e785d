#pragma once
// Small floorplans and a scratch folder shared by the thermal tests.
#include <unistd.h>

#include <exception>
#include <filesystem>
#include <functional>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "ptsim/thermal/floorplan.hpp"

#include "error_of.hpp"

namespace ptsim::thermal::test {

constexpr double mm = 1e-3;

/// An uneven 3-block die, 8 mm x 6 mm: "big" left, "gpu" top right, "npu" bottom right.
inline floorplan three_blocks() {
  return floorplan({{"big", 4 * mm, 6 * mm, 0, 0},
                    {"gpu", 4 * mm, 2.5 * mm, 4 * mm, 3.5 * mm},
                    {"npu", 4 * mm, 3.5 * mm, 4 * mm, 0}});
}

/// 2 x 2 equal 4 mm squares: a b on top, c d below.
inline floorplan two_by_two() {
  return floorplan({{"a", 4 * mm, 4 * mm, 0, 4 * mm},
                    {"b", 4 * mm, 4 * mm, 4 * mm, 4 * mm},
                    {"c", 4 * mm, 4 * mm, 0, 0},
                    {"d", 4 * mm, 4 * mm, 4 * mm, 0}});
}

/// A node power vector for the block model (4n + 12 nodes) with the block powers on silicon.
inline std::vector<double> block_power(std::size_t n_blocks, const std::vector<double>& blocks_W) {
  std::vector<double> p(4 * n_blocks + 12, 0.0);
  for (std::size_t i = 0; i < blocks_W.size(); ++i) p[i] = blocks_W[i];
  return p;
}

using ptsim_test::error_of;

}  // namespace ptsim::thermal::test

namespace ptsim::thermal::test {

/// A fresh scratch folder for file-based tests, removed at the end.
struct scratch_dir {
  std::filesystem::path dir;
  explicit scratch_dir(const std::string& name) {
    dir = std::filesystem::temp_directory_path() /
          ("ptsim_thermal_" + name + "_" + std::to_string(::getpid()));
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
  }
  ~scratch_dir() { std::filesystem::remove_all(dir); }
  /// Writes `text` to dir/name and returns the path as a string.
  std::string write(const std::string& name, const std::string& text) const {
    std::ofstream(dir / name, std::ios::binary) << text;
    return (dir / name).string();
  }
  std::string path(const std::string& name) const { return (dir / name).string(); }
  std::string read(const std::string& name) const {
    std::ifstream in(dir / name, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), {});
  }
};

using ptsim_test::error_of;

}  // namespace ptsim::thermal::test
