// Floorplan validation, bounding box, adjacency and problems().
#include <doctest/doctest.h>

#include "relative_approx.hpp"

#include <cmath>
#include <limits>
#include <stdexcept>

#include "fixtures.hpp"
#include "ptsim/thermal/floorplan.hpp"

using namespace ptsim::thermal;

using test::mm;

namespace {

// 2 x 2 equal 1 mm blocks: a b on top, c d below.
floorplan two_by_two() {
  return floorplan({{"a", 1 * mm, 1 * mm, 0, 1 * mm},
                    {"b", 1 * mm, 1 * mm, 1 * mm, 1 * mm},
                    {"c", 1 * mm, 1 * mm, 0, 0},
                    {"d", 1 * mm, 1 * mm, 1 * mm, 0}});
}

bool has_text(const std::vector<std::string>& list, const std::string& text) {
  for (const auto& s : list)
    if (s.find(text) != std::string::npos) return true;
  return false;
}
}  // namespace

TEST_CASE("floorplan rejects invalid blocks") {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  CHECK_THROWS_AS(floorplan({{"", 1, 1, 0, 0}}), std::invalid_argument);
  CHECK_THROWS_WITH_AS(floorplan({{"a", 1, 1, 0, 0}, {"a", 1, 1, 1, 0}}),
                       doctest::Contains("duplicate block name 'a'"), std::invalid_argument);
  CHECK_THROWS_AS(floorplan({{"a", 0, 1, 0, 0}}), std::invalid_argument);
  CHECK_THROWS_AS(floorplan({{"a", 1, -1, 0, 0}}), std::invalid_argument);
  CHECK_THROWS_AS(floorplan({{"a", nan, 1, 0, 0}}), std::invalid_argument);
  CHECK_THROWS_AS(floorplan({{"a", 1, inf, 0, 0}}), std::invalid_argument);
  CHECK_THROWS_AS(floorplan({{"a", 1, 1, inf, 0}}), std::invalid_argument);
}

TEST_CASE("index_of and bounding box") {
  const floorplan fp({{"x", 2 * mm, 1 * mm, 1 * mm, 3 * mm}, {"y", 1 * mm, 4 * mm, 3 * mm, 2 * mm}});
  CHECK(fp.index_of("y") == 1);
  CHECK_THROWS_WITH_AS(fp.index_of("zz"), doctest::Contains("'zz'"), std::out_of_range);
  // x spans [1, 3] mm, y spans [3, 4] mm and [3, 4] mm x [2, 6] mm: box [1, 4] x [2, 6] mm.
  CHECK(fp.min_x() == ptsim_test::Approx(1 * mm));
  CHECK(fp.min_y() == ptsim_test::Approx(2 * mm));
  CHECK(fp.width() == ptsim_test::Approx(3 * mm));
  CHECK(fp.height() == ptsim_test::Approx(4 * mm));
}

TEST_CASE("adjacencies: shared edges, not corners") {
  const auto adj = two_by_two().adjacencies();
  // a-b and c-d share vertical edges; a-c and b-d horizontal ones; a-d, b-c only corners.
  REQUIRE(adj.size() == 4);
  int vertical = 0;
  for (const auto& e : adj) {
    CHECK(e.shared_length_m == ptsim_test::Approx(1 * mm));
    CHECK_FALSE(((e.a == 0 && e.b == 3) || (e.a == 1 && e.b == 2)));
    if (e.vertical_edge) {
      ++vertical;
      CHECK(((e.a == 0 && e.b == 1) || (e.a == 2 && e.b == 3)));
    }
  }
  CHECK(vertical == 2);
}

TEST_CASE("adjacency tolerance is 1e-6 m on the edge position") {
  // b is 0.5 um to the right of a's east edge: adjacent; c is 2 um away: not adjacent.
  const floorplan near({{"a", 1 * mm, 1 * mm, 0, 0}, {"b", 1 * mm, 0.5 * mm, 1 * mm + 0.5e-6, 0.25 * mm}});
  const auto adj = near.adjacencies();
  REQUIRE(adj.size() == 1);
  CHECK(adj[0].vertical_edge);
  CHECK(adj[0].shared_length_m == ptsim_test::Approx(0.5 * mm));
  const floorplan far({{"a", 1 * mm, 1 * mm, 0, 0}, {"c", 1 * mm, 1 * mm, 1 * mm + 2e-6, 0}});
  CHECK(far.adjacencies().empty());
}

TEST_CASE("problems(): a sound floorplan has none") {
  CHECK(two_by_two().problems().empty());
}

TEST_CASE("problems(): overlap is found with its area") {
  // a = [0, 2] x [0, 1] mm, b = [1, 3] x [0, 1] mm: overlap 1 mm x 1 mm = 1e-6 m^2.
  const floorplan fp({{"a", 2 * mm, 1 * mm, 0, 0}, {"b", 2 * mm, 1 * mm, 1 * mm, 0}});
  const auto p = fp.problems();
  REQUIRE(p.size() == 1);
  CHECK(p[0].find("'a' and 'b' overlap") != std::string::npos);
  CHECK(p[0].find("1e-06 m^2") != std::string::npos);
}

TEST_CASE("problems(): gap is found with its share of the bounding box") {
  // Three of the four 1 mm squares: 1e-6 m^2 of the 4e-6 m^2 box uncovered = 25 %.
  const floorplan fp({{"a", 1 * mm, 1 * mm, 0, 1 * mm}, {"b", 1 * mm, 1 * mm, 1 * mm, 1 * mm},
                      {"c", 1 * mm, 1 * mm, 0, 0}});
  const auto p = fp.problems();
  REQUIRE(p.size() == 1);
  CHECK(has_text(p, "gap: 1e-06 m^2 (25 %"));
}
