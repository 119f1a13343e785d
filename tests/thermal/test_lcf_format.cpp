// Layer configuration files and materials files.
#include <doctest/doctest.h>

#include "relative_approx.hpp"

#include <functional>
#include <stdexcept>

#include "ptsim/thermal/lcf_format.hpp"
#include "ptsim/thermal/materials.hpp"
#include "fixtures.hpp"

using namespace ptsim::thermal;

using test::error_of;

TEST_CASE("materials: solids and fluids, later definitions win") {
  material_list m;
  m.add_text("# name, type, k, cp[, viscosity]\nsi\nsolid\n130\n1.63e6\n\nwater\nfluid\n0.6\n4.17e6\n8.9e-4\nsi\nsolid\n150\n1.6e6\n",
             "m.materials");
  REQUIRE(m.find("si") != nullptr);
  CHECK(m.find("si")->conductivity_W_per_mK == 150);
  CHECK(m.find("water")->fluid);
  CHECK(m.find("water")->viscosity_Pa_s == 8.9e-4);
  CHECK(m.all().size() == 2);
  CHECK(error_of([&] { m.add_text("cu\nmetal\n", "bad.materials"); }) ==
        "bad.materials:2: expected 'solid' or 'fluid' for material 'cu', found 'metal'");
  CHECK(error_of([&] { m.add_text("cu\nsolid\n400\n", "short.materials"); }).find("short.materials:1: material 'cu' is incomplete") !=
        std::string::npos);
}

TEST_CASE("lcf: layers sorted by number, Y/N flags, resistivity or material") {
  material_list mats;
  mats.add_text("tim\nsolid\n5\n4e6\n", "m");
  const auto layers = parse_lcf(
      "# two layers, listed out of order\n"
      "1\nN\nn\ntim\n2e-5\ntim.flp\n\n"
      "0\nYes\nY\n1.75e6\n0.01\n0.00015\n  die.flp\n",
      "stack.lcf", mats);
  REQUIRE(layers.size() == 2);
  CHECK(layers[0].number == 0);
  CHECK(layers[0].lateral);
  CHECK(layers[0].power);
  CHECK(layers[0].heat_capacity_J_per_m3K == 1.75e6);
  CHECK(layers[0].conductivity_W_per_mK == ptsim_test::Approx(100.0));
  CHECK(layers[0].thickness_m == 0.00015);
  CHECK(layers[0].floorplan_file == "die.flp");
  CHECK(layers[0].source == "stack.lcf:9");
  CHECK_FALSE(layers[1].lateral);
  CHECK_FALSE(layers[1].power);
  CHECK(layers[1].conductivity_W_per_mK == 5);  // from the material, no resistivity line
  CHECK(layers[1].thickness_m == 2e-5);
}

TEST_CASE("lcf errors carry file:line") {
  const material_list none;
  CHECK(error_of([&] { parse_lcf("0\nX\n", "a.lcf", none); }) == "a.lcf:2: expected Y or N (lateral heat flow) for layer 0, found 'X'");
  CHECK(error_of([&] { parse_lcf("0\nY\nY\nunobtainium\n", "b.lcf", none); }).find("b.lcf:4: expected a volumetric heat capacity") !=
        std::string::npos);
  CHECK(error_of([&] { parse_lcf("0\nY\nY\n1e6\n-1\n", "c.lcf", none); }) ==
        "c.lcf:5: expected a positive resistivity in m K/W for layer 0, found '-1'");
  CHECK(error_of([&] { parse_lcf("0\nY\nY\n1e6\n0.01\n", "d.lcf", none); }).find("layer 0 (d.lcf:1) is incomplete") !=
        std::string::npos);
  const std::string two = "0\nY\nY\n1e6\n0.01\n1e-4\na.flp\n";
  CHECK(error_of([&] { parse_lcf(two + two, "e.lcf", none); }) ==
        "e.lcf:8: layer number 0 appears twice; the 2 layers must be numbered 0..1");
  CHECK(error_of([&] { parse_lcf("2\nY\nY\n1e6\n0.01\n1e-4\na.flp\n", "f.lcf", none); }) ==
        "f.lcf:1: layer number 2 leaves a gap; the 1 layers must be numbered 0..0");
}
