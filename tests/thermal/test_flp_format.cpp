// HotSpot .flp reading and writing.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "ptsim/thermal/flp_format.hpp"

using namespace ptsim::thermal;

TEST_CASE("parse_flp: comments, blank lines, tabs or spaces, optional columns") {
  const std::string text =
      "# a comment\n"
      "\n"
      "core\t0.004\t0.002\t0\t0\n"
      "   # indented comment\n"
      "l2   0.004 0.003 0 0.002  1.75e6 0.01\r\n";
  const floorplan fp = parse_flp(text, "mem.flp");
  REQUIRE(fp.size() == 2);
  CHECK(fp.blocks()[0].name == "core");
  CHECK(fp.blocks()[0].width_m == 0.004);
  CHECK(fp.blocks()[1].name == "l2");
  CHECK(fp.blocks()[1].height_m == 0.003);
  CHECK(fp.blocks()[1].y_m == 0.002);
}

TEST_CASE("write_flp then read_flp reproduces every coordinate exactly") {
  // Values with no short decimal form: a round trip through 6 significant digits would fail.
  const floorplan fp({{"a", 0.1 + 0.2, 1e-3 / 3, 0, 0},
                      {"b_with_long_name", 2.0 / 7 * 1e-3, 1e-3 / 3, 0.1 + 0.2, 1e-17}});
  const auto path = std::filesystem::temp_directory_path() / "ptsim_test_roundtrip.flp";
  {
    std::ofstream out(path);
    write_flp(out, fp);
  }
  const floorplan back = read_flp(path);
  std::filesystem::remove(path);
  REQUIRE(back.size() == fp.size());
  for (std::size_t i = 0; i < fp.size(); ++i) {
    const block& a = fp.blocks()[i];
    const block& b = back.blocks()[i];
    CHECK(a.name == b.name);
    CHECK(a.width_m == b.width_m);
    CHECK(a.height_m == b.height_m);
    CHECK(a.x_m == b.x_m);
    CHECK(a.y_m == b.y_m);
  }
}

TEST_CASE("malformed lines are reported as file:line: expected, found") {
  CHECK_THROWS_WITH_AS(parse_flp("# header\na 1 1 0 0\nb 1 1 0\n", "chip.flp"),
                       doctest::Contains("chip.flp:3: expected 5 fields"), std::runtime_error);
  CHECK_THROWS_WITH_AS(parse_flp("# header\na 1 1 0 0\nb 1 1 0\n", "chip.flp"),
                       doctest::Contains("found 4"), std::runtime_error);
  CHECK_THROWS_WITH_AS(parse_flp("a 1 1 0 0\n\nb 1 abc 0 0\n", "chip.flp"),
                       doctest::Contains("chip.flp:3: expected a number for height, found 'abc'"),
                       std::runtime_error);
  CHECK_THROWS_WITH_AS(parse_flp("a 1 1 0 0\nb 1 1mm 0 0\n", "chip.flp"),
                       doctest::Contains("chip.flp:2:"), std::runtime_error);
  CHECK_THROWS_WITH_AS(parse_flp("a 1 1 0 0\nb 0 1 1 0\n", "chip.flp"),
                       doctest::Contains("chip.flp:2: expected a positive width"), std::runtime_error);
  CHECK_THROWS_WITH_AS(parse_flp("a 1 1 0 0\n#\na 1 1 1 0\n", "chip.flp"),
                       doctest::Contains("chip.flp:3: duplicate block 'a' (first defined on line 1)"),
                       std::runtime_error);
  CHECK_THROWS_WITH_AS(parse_flp("# only a comment\n", "empty.flp"),
                       doctest::Contains("empty.flp:1: expected at least one block"),
                       std::runtime_error);
}

TEST_CASE("read_flp names a missing file") {
  CHECK_THROWS_WITH_AS(read_flp("/nonexistent/dir/x.flp"), doctest::Contains("/nonexistent/dir/x.flp"),
                       std::runtime_error);
}

TEST_CASE("write_flp refuses names the format cannot hold") {
  std::ostringstream out;
  CHECK_THROWS_AS(write_flp(out, floorplan({{"two words", 1, 1, 0, 0}})), std::invalid_argument);
  CHECK_THROWS_AS(write_flp(out, floorplan({{"#hash", 1, 1, 0, 0}})), std::invalid_argument);
}
