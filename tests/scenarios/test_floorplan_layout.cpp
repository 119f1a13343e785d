// thermal.floorplan as a component list: generated, validated with positions.
#include <doctest/doctest.h>

#include "relative_approx.hpp"

#include "helpers.hpp"
#include "layout_text.hpp"

using namespace scen_test;

namespace {
constexpr double mm2 = 1e-6;

bool share_edge(const ptsim::thermal::floorplan& fp, const std::string& a, const std::string& b) {
  const std::size_t i = fp.index_of(a), j = fp.index_of(b);
  for (const auto& e : fp.adjacencies())
    if ((e.a == i && e.b == j) || (e.a == j && e.b == i)) return true;
  return false;
}
}  // namespace

TEST_CASE("a component-list floorplan: exact areas, a tiled die, hinted neighbours touching") {
  const std::string text = with_layout(default_text());
  REQUIRE_FALSE(text.empty());
  const auto sc = ps::load_scenario_text(text, "layout.yaml");
  const auto& fp = sc.thermal.fp;
  CHECK(fp.problems().empty());
  const std::pair<const char*, double> areas[] = {{"npu", 25},     {"cpu_big", 9}, {"cpu_mid", 9},
                                                  {"cpu_little", 12}, {"noc", 10},   {"mem_ctrl", 15}};
  for (const auto& [name, a] : areas) CHECK(fp.blocks()[fp.index_of(name)].area() == ptsim_test::Approx(a * mm2));
  // 80 mm^2 of components is 95 % of the die.
  CHECK(fp.width() * fp.height() == ptsim_test::Approx(80 * mm2 / 0.95));
  CHECK(fp.width() / fp.height() == ptsim_test::Approx(1.25));
  CHECK(share_edge(fp, "npu", "noc"));
  CHECK(share_edge(fp, "cpu_big", "cpu_mid"));
  CHECK(share_edge(fp, "cpu_mid", "noc"));
  CHECK(share_edge(fp, "noc", "mem_ctrl"));
  CHECK(sc.thermal.power_map.at("lpddr") == "mem_ctrl");
}

TEST_CASE("component-list mistakes are reported at their line and column") {
  const std::string text = with_layout(default_text());
  SUBCASE("next_to naming no component") {
    const std::string bad = replace_once(text, "next_to: [cpu_mid]", "next_to: [cpu_mdi]");
    const auto d = only_at(load_errors(bad), "thermal.floorplan.components[1].next_to[0]");
    const position p = position_of(bad, "cpu_mdi");
    CHECK(d.line == p.line);
    CHECK(d.column == p.column);
    CHECK(contains(d.message, "'cpu_mdi' is not one of the floorplan's components"));
  }
  SUBCASE("a component next_to itself") {
    const std::string bad = replace_once(text, "next_to: [mem_ctrl]", "next_to: [noc]");
    CHECK(contains(only_at(load_errors(bad), "thermal.floorplan.components[4].next_to[0]").message, "itself"));
  }
  SUBCASE("duplicate names") {
    const std::string bad = replace_once(text, "name: cpu_little", "name: cpu_big");
    CHECK(contains(only_at(load_errors(bad), "thermal.floorplan.components[3].name").message, "duplicate"));
  }
  SUBCASE("an area with the wrong unit") {
    const std::string bad = replace_once(text, "\"12 mm^2\"", "\"12 mm\"");
    const auto d = only_at(load_errors(bad), "thermal.floorplan.components[3].area");
    CHECK(d.line == position_of(bad, "\"12 mm\"").line);
  }
  SUBCASE("an unknown key in a component") {
    const std::string bad = replace_once(text, "area: \"15 mm^2\"", "area: \"15 mm^2\", nexto: [npu]");
    CHECK(contains(only_at(load_errors(bad), "thermal.floorplan.components[5].nexto").message, "next_to"));
  }
  SUBCASE("neither a list nor a mapping") {
    const std::string bad = replace_once(default_text(), "  floorplan:                     # 10 mm x 8 mm die\n",
                                         "  floorplan: square\n  floorplan_was:\n");
    const auto ds = load_errors(bad);
    bool found = false;
    for (const auto& d : ds)
      if (d.path == "thermal.floorplan") found = found || contains(d.message, "a list or a mapping");
    CHECK(found);
  }
}

TEST_CASE("--set reaches into a component list and into an explicit list") {
  const std::string text = with_layout(default_text());
  const auto sc = ps::load_scenario_text(text, "layout.yaml", with_sets({"thermal.floorplan.components.5.area=20 mm^2"}));
  CHECK(sc.thermal.fp.blocks()[sc.thermal.fp.index_of("mem_ctrl")].area() == ptsim_test::Approx(20 * mm2));
  const auto explicit_fp = ps::load_scenario_text(default_text(), "d.yaml", with_sets({"thermal.floorplan.5.name=dram",
                                                                                       "thermal.power_map.lpddr=dram"}));
  CHECK(explicit_fp.thermal.fp.index_of("dram") == 5);
}
