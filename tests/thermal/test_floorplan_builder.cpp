// Floorplans generated from component lists.
#include <doctest/doctest.h>

#include <cmath>
#include <sstream>

#include "ptsim/thermal/floorplan_builder.hpp"
#include "ptsim/thermal/flp_format.hpp"

using namespace ptsim::thermal;

namespace {
constexpr double mm2 = 1e-6;

double aspect_of(const floorplan& fp, const std::string& name) {
  const block& b = fp.blocks()[fp.index_of(name)];
  return b.width_m / b.height_m;
}
}  // namespace

TEST_CASE("exact areas, a tiled die of the requested aspect, in the caller's order") {
  const std::vector<floorplan_component> soc{{"cpu_big", 9 * mm2}, {"cpu_little", 4 * mm2}, {"gpu", 12 * mm2},
                                             {"npu", 10 * mm2},    {"isp", 3 * mm2},        {"modem", 6 * mm2},
                                             {"ddr_phy", 2 * mm2}};
  floorplan_options o;
  o.die_aspect = 1.5;
  const floorplan fp = build_floorplan(soc, o);
  REQUIRE(fp.size() == soc.size());
  for (std::size_t i = 0; i < soc.size(); ++i) {
    CHECK(fp.blocks()[i].name == soc[i].name);
    CHECK(fp.blocks()[i].area() == doctest::Approx(soc[i].area_m2).epsilon(1e-12));
  }
  CHECK(fp.problems().empty());  // no overlaps, no gaps
  CHECK(fp.width() / fp.height() == doctest::Approx(1.5).epsilon(1e-12));
  CHECK(fp.width() * fp.height() == doctest::Approx(46 * mm2).epsilon(1e-12));
  CHECK(fp.min_x() == 0.0);
  CHECK(fp.min_y() == 0.0);
  // Blocks touch along shared edges, so the HotSpot model links them laterally.
  CHECK(fp.adjacencies().size() >= soc.size() - 1);
}

TEST_CASE("aspect preferences steer the cuts; white space keeps the die tiled") {
  std::vector<floorplan_component> c{{"a", 4 * mm2}, {"b", 4 * mm2}, {"bus", 2 * mm2, 8.0}};
  const floorplan square = build_floorplan({{"a", 4 * mm2}, {"b", 4 * mm2}, {"bus", 2 * mm2}});
  const floorplan wide = build_floorplan(c);
  CHECK(std::abs(std::log(aspect_of(wide, "bus") / 8.0)) < std::abs(std::log(aspect_of(square, "bus") / 8.0)));
  floorplan_options o;
  o.whitespace = 0.2;
  const floorplan spaced = build_floorplan(c, o);
  CHECK(spaced.problems().empty());
  double white = 0;
  for (const block& b : spaced.blocks())
    if (b.name.rfind("whitespace_", 0) == 0) white += b.area();
  CHECK(white / (spaced.width() * spaced.height()) == doctest::Approx(0.2).epsilon(1e-12));
}

TEST_CASE("written as .flp, read back identically") {
  const floorplan fp = build_floorplan({{"x", 1.1 * mm2, 2.0}, {"y", 2.3 * mm2}, {"z", 0.7 * mm2, 0.5}});
  std::ostringstream text;
  write_flp(text, fp);
  const floorplan back = parse_flp(text.str(), "generated.flp");
  REQUIRE(back.size() == 3);
  for (std::size_t i = 0; i < 3; ++i) {
    CHECK(back.blocks()[i].x_m == fp.blocks()[i].x_m);
    CHECK(back.blocks()[i].width_m == fp.blocks()[i].width_m);
  }
}

TEST_CASE("bad component lists are refused") {
  CHECK_THROWS_AS(build_floorplan({}), std::invalid_argument);
  CHECK_THROWS_AS(build_floorplan({{"a", 0.0}}), std::invalid_argument);
  CHECK_THROWS_AS(build_floorplan({{"a", 1e-6, -1.0}}), std::invalid_argument);
  CHECK_THROWS_AS(build_floorplan({{"a", 1e-6}, {"a", 2e-6}}), std::invalid_argument);
}
