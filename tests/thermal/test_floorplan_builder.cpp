// Floorplans generated from component lists.
#include <doctest/doctest.h>

#include "relative_approx.hpp"

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
    CHECK(fp.blocks()[i].area() == ptsim_test::Approx(soc[i].area_m2).epsilon(1e-12));
  }
  CHECK(fp.problems().empty());  // no overlaps, no gaps
  CHECK(fp.width() / fp.height() == ptsim_test::Approx(1.5).epsilon(1e-12));
  CHECK(fp.width() * fp.height() == ptsim_test::Approx(46 * mm2).epsilon(1e-12));
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
  CHECK(white / (spaced.width() * spaced.height()) == ptsim_test::Approx(0.2).epsilon(1e-12));
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

namespace {
// Whether blocks a and b share an edge of positive length, by the floorplan's own adjacency test.
bool share_edge(const floorplan& fp, const std::string& a, const std::string& b) {
  const std::size_t i = fp.index_of(a), j = fp.index_of(b);
  for (const adjacency& e : fp.adjacencies())
    if ((e.a == i && e.b == j) || (e.a == j && e.b == i)) return e.shared_length_m > 0;
  return false;
}

void check_sound(const floorplan& fp, const std::vector<floorplan_component>& c, double whitespace) {
  CHECK(fp.problems().empty());  // no overlap, no gap
  double used = 0;
  for (const auto& k : c) {
    CHECK(fp.blocks()[fp.index_of(k.name)].area() == ptsim_test::Approx(k.area_m2).epsilon(1e-12));
    used += k.area_m2;
  }
  CHECK(fp.width() * fp.height() == ptsim_test::Approx(used / (1 - whitespace)).epsilon(1e-12));
}
}  // namespace

TEST_CASE("next_to: four equal squares, the diagonal pair of the plain layout made neighbours") {
  // Without hints, four 1 mm^2 squares on a square die are cut 2 x 2 in list order: a and b
  // on the left (a on top), c and d on the right (c on top), so a and d touch only at a corner.
  std::vector<floorplan_component> c{{"a", 1 * mm2}, {"b", 1 * mm2}, {"c", 1 * mm2}, {"d", 1 * mm2}};
  const floorplan plain = build_floorplan(c);
  check_sound(plain, c, 0);
  REQUIRE_FALSE(share_edge(plain, "a", "d"));
  c[0].next_to = {"d"};
  const floorplan fp = build_floorplan(c);
  check_sound(fp, c, 0);
  CHECK(share_edge(fp, "a", "d"));
  CHECK(unmet_neighbours(c, fp).empty());
  // Still four 1 mm squares in a 2 mm die: the hint changes the arrangement, not the shapes.
  for (const block& b : fp.blocks()) {
    CHECK(b.width_m == ptsim_test::Approx(1e-3).epsilon(1e-12));
    CHECK(b.height_m == ptsim_test::Approx(1e-3).epsilon(1e-12));
  }
  CHECK(unmet_neighbours(c, plain) == std::vector<std::pair<std::string, std::string>>{{"a", "d"}});
}

TEST_CASE("next_to: a small SRAM beside the NPU, a triangle and a chain on a phone SoC, with white space") {
  std::vector<floorplan_component> soc{
      {"gpu", 12 * mm2},    {"npu", 10 * mm2},       {"cpu_big", 9 * mm2, 1.0, {"cpu_little", "l3"}},
      {"modem", 6 * mm2},   {"cpu_little", 4 * mm2}, {"isp", 3 * mm2, 1.0, {"npu"}},
      {"l3", 2.5 * mm2, 1.0, {"cpu_little"}},  // triangle cpu_big - cpu_little - l3
      {"sram", 2 * mm2, 1.0, {"npu"}},         {"ddr_phy", 2 * mm2, 4.0, {"modem"}}};
  floorplan_options o;
  o.die_aspect = 1.25;
  o.whitespace = 0.1;
  const floorplan fp = build_floorplan(soc, o);
  check_sound(fp, soc, 0.1);
  for (const auto& [a, b] : std::vector<std::pair<std::string, std::string>>{{"cpu_big", "cpu_little"},
                                                                             {"cpu_big", "l3"},
                                                                             {"cpu_little", "l3"},
                                                                             {"isp", "npu"},
                                                                             {"sram", "npu"},
                                                                             {"ddr_phy", "modem"}}) {
    const std::string pair = a + " next to " + b;  // INFO's lambda cannot capture bindings (clang)
    INFO(pair);
    CHECK(share_edge(fp, a, b));
  }
  CHECK(unmet_neighbours(soc, fp).empty());
  // A chain of six: every consecutive pair shares an edge.
  std::vector<floorplan_component> chain;
  const double areas[] = {5, 1, 3, 2, 4, 1.5};
  for (int i = 0; i < 6; ++i) chain.push_back({"s" + std::to_string(i), areas[i] * mm2, 1.0, {}});
  for (int i = 0; i < 5; ++i) chain[i].next_to = {chain[i + 1].name};
  const floorplan line = build_floorplan(chain);
  check_sound(line, chain, 0);
  CHECK(unmet_neighbours(chain, line).empty());
}

TEST_CASE("next_to naming nothing or itself is refused") {
  CHECK_THROWS_WITH_AS(build_floorplan({{"a", mm2, 1.0, {"b"}}}),
                       "build_floorplan: component 'a' is next_to 'b', which is not a component",
                       std::invalid_argument);
  CHECK_THROWS_AS(build_floorplan({{"a", mm2, 1.0, {"a"}}}), std::invalid_argument);
}
