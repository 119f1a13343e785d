// End to end: `ptsim floorplan` writes a component-list floorplan as .flp (read back: the
// same rectangles as the library's layout), refuses to overwrite, and `ptsim run` simulates it.
#include <doctest/doctest.h>

#include "relative_approx.hpp"

#include <fstream>

#include "../scenarios/layout_text.hpp"
#include "ptsim/postproc/result_file.hpp"
#include "ptsim/thermal/floorplan_builder.hpp"
#include "ptsim/thermal/flp_format.hpp"
#include "run_ptsim.hpp"

using namespace e2e;

TEST_CASE("ptsim floorplan: export, read back, no overwrite; ptsim run on the generated floorplan") {
  scratch s("floorplan");
  const std::string text = scen_test::with_layout(slurp(default_scenario()));
  REQUIRE_FALSE(text.empty());
  { std::ofstream(s.dir / "layout.yaml") << text; }

  result r = run_ptsim(s.dir, "floorplan layout.yaml -o die.flp");
  REQUIRE_MESSAGE(r.exit_code == 0, r.err);
  const ptsim::thermal::floorplan back = ptsim::thermal::read_flp(s.dir / "die.flp");
  // The library's own layout of the same components (areas in m^2, as in layout_text.hpp).
  using ptsim::thermal::floorplan_component;
  const std::vector<floorplan_component> parts{{"npu", 25e-6, 1.0, {"noc"}},      {"cpu_big", 9e-6, 1.0, {"cpu_mid"}},
                                               {"cpu_mid", 9e-6, 1.0, {"noc"}},   {"cpu_little", 12e-6, 1.0, {}},
                                               {"noc", 10e-6, 2.5, {"mem_ctrl"}}, {"mem_ctrl", 15e-6, 1.0, {}}};
  ptsim::thermal::floorplan_options o;
  o.die_aspect = 1.25;
  o.whitespace = 0.05;
  const ptsim::thermal::floorplan want = ptsim::thermal::build_floorplan(parts, o);
  REQUIRE(back.size() == want.size());
  for (std::size_t i = 0; i < want.size(); ++i) {
    const auto &a = back.blocks()[i], &b = want.blocks()[i];
    CHECK(a.name == b.name);
    // "mm^2" converts to m^2 with rounding of its own, so equal to a few ulps, not bitwise.
    CHECK(a.x_m == ptsim_test::Approx(b.x_m).epsilon(1e-12));
    CHECK(a.y_m == ptsim_test::Approx(b.y_m).epsilon(1e-12));
    CHECK(a.width_m == ptsim_test::Approx(b.width_m).epsilon(1e-12));
    CHECK(a.height_m == ptsim_test::Approx(b.height_m).epsilon(1e-12));
  }
  CHECK(back.problems().empty());
  CHECK(ptsim::thermal::unmet_neighbours(parts, back).empty());

  // Written once; a second export is refused without --force and leaves the file alone.
  const std::string first = slurp(s.dir / "die.flp");
  { std::ofstream(s.dir / "die.flp") << "# keep\n"; }
  r = run_ptsim(s.dir, "floorplan layout.yaml -o die.flp");
  CHECK(r.exit_code == 2);
  CHECK(r.err.find("refusing to overwrite") != std::string::npos);
  CHECK(slurp(s.dir / "die.flp") == "# keep\n");
  r = run_ptsim(s.dir, "floorplan layout.yaml -o die.flp --force");
  CHECK(r.exit_code == 0);
  CHECK(slurp(s.dir / "die.flp") == first);
  // Standard output carries the same text.
  r = run_ptsim(s.dir, "floorplan layout.yaml");
  CHECK(r.out == first);
  // A bad scenario: an error, non-zero exit, no file.
  std::string bad = text;
  bad.replace(bad.find("[noc] }"), 5, "[nox]");
  { std::ofstream(s.dir / "bad.yaml") << bad; }
  r = run_ptsim(s.dir, "floorplan bad.yaml -o bad.flp");
  CHECK(r.exit_code == 2);
  CHECK(r.err.find("nox") != std::string::npos);
  CHECK_FALSE(fs::exists(s.dir / "bad.flp"));

  // The generated floorplan in the closed loop: every block, white space included, has a
  // temperature above the 25 degC ambient (white space heated laterally by its neighbours).
  r = run_ptsim(s.dir, "run layout.yaml -q -o run.h5 --set \"duration=0.5 s\"");
  REQUIRE_MESSAGE(r.exit_code == 0, r.err);
  ptsim::postproc::result_reader f(s.dir / "run.h5");
  const auto blocks = f.coord("block");
  REQUIRE(blocks.size() == want.size());
  CHECK(blocks.back() == "whitespace_0");
  std::size_t nb = 0;
  const auto T = f.variable("temperature", &nb);
  REQUIRE(nb == blocks.size());
  const std::size_t last = T.size() / nb - 1;
  for (std::size_t b = 0; b < nb; ++b) CHECK(T[last * nb + b] > 25.0);
}
