// thermal.phone.board (the secondary heat path through the board) and thermal.datacenter.sink
// (HotSpot's heat-sink and fan model) in the scenario format: resolved values, --set, errors.
#include <doctest/doctest.h>

#include "relative_approx.hpp"

#include <string>

#include "helpers.hpp"
#include "ptsim/thermal/datacenter_package.hpp"
#include "ptsim/thermal/sink_fan_model.hpp"

namespace ps = ptsim::scenarios;
using ptsim_test::Approx;
using namespace scen_test;

namespace {
const std::string server_path = PTSIM_SOURCE_DIR "/scenarios/server-llm-serving.yaml";
}

TEST_CASE("thermal.phone.board: absent = no board; given = HotSpot's layers, the board to the frame") {
  const auto plain = ps::load_scenario_text(default_text(), "test.yaml", with_sets({"thermal.model=phone"}));
  CHECK_FALSE(plain.thermal.phone.board.has_value());
  const auto sc = ps::load_scenario_text(
      default_text(), "test.yaml", with_sets({"thermal.model=phone", "thermal.phone.board.r_board_frame=2 K/W",
                                              "thermal.phone.board.t_pcb=0.8 mm"}));
  REQUIRE(sc.thermal.phone.board.has_value());
  const auto& b = *sc.thermal.phone.board;
  CHECK(b.r_convec_sec == Approx(2.0));
  CHECK(b.c_convec_sec == 0.0);
  CHECK(b.t_pcb == Approx(0.8e-3));
  CHECK(b.s_pcb == Approx(0.06));
  // HotSpot 7's defaults for the package layers.
  CHECK(b.t_metal == Approx(10e-6));
  CHECK(b.t_c4 == Approx(1e-4));
  CHECK(b.s_sub == Approx(0.021));
  CHECK(b.t_solder == Approx(0.94e-3));
  // Only with the phone model; a non-positive value is refused at its key.
  const std::string text = replace_once(default_text(), "  ambient:", "  phone: { board: { t_sub: \"0 mm\" } }\n  ambient:");
  const auto ds = load_errors(text, with_sets({"thermal.model=phone"}));
  CHECK(contains(only_at(ds, "thermal.phone.board.t_sub").message, "expected a value > 0 m"));
}

TEST_CASE("thermal.datacenter.sink: every die's r_convec from the sink and fan; per-die changes; HotSpot's value") {
  // four.config's sink (tests/thermal_cli/data) with fan.package: HotSpot 7's -d wrote
  // -r_convec 0.378882 K/W, and `ptsim thermal` prints the same (test_thermal_cli).
  const auto sc = ps::load_scenario_file(
      server_path,
      with_sets({"thermal.datacenter.sink.fin_height=25 mm", "thermal.datacenter.sink.fin_width=1.2 mm",
                 "thermal.datacenter.sink.channel_width=2.5 mm", "thermal.datacenter.sink.fan_radius=25 mm",
                 "thermal.datacenter.sink.motor_radius=8 mm", "thermal.datacenter.sink.rpm=2500",
                 "thermal.datacenter.dies.gpu0.package.s_sink=50 mm", "thermal.datacenter.dies.gpu0.package.s_spreader=40 mm",
                 "thermal.datacenter.dies.gpu0.package.k_sink=380 W/(m*K)",
                 "thermal.datacenter.dies.gpu1.sink.type=pin_fin"}));
  const auto& dies = sc.thermal.datacenter.dies;
  REQUIRE_FALSE(dies.empty());
  for (const auto& d : dies) REQUIRE_MESSAGE(d.sink.has_value(), d.name);
  auto die = [&](const std::string& name) {
    for (const auto& d : dies)
      if (d.name == name) return d;
    FAIL("no die " << name);
    return dies.front();
  };
  ptsim::thermal::stream_die gpu0;
  gpu0.name = "gpu0";
  gpu0.package = die("gpu0").package;
  gpu0.sink = die("gpu0").sink;
  CHECK(ptsim::thermal::convection_resistance(gpu0, 1.0) == Approx(0.378882).epsilon(2e-6));
  CHECK_FALSE(die("gpu0").sink->pin_fins);
  CHECK(die("gpu1").sink->pin_fins);          // its own change
  CHECK(die("gpu1").sink->rpm == Approx(2500));  // the rest from datacenter.sink
  // Without datacenter.sink the dies keep r_convec x speed^-n.
  const auto plain = ps::load_scenario_file(server_path);
  for (const auto& d : plain.thermal.datacenter.dies) CHECK_FALSE(d.sink.has_value());
  // A hub wider than the fan moves no air: refused at the key.
  const auto ds = diagnostics_of(
      [&] { ps::load_scenario_file(server_path, with_sets({"thermal.datacenter.sink.motor_radius=40 mm"})); });
  bool seen = false;
  for (const auto& d : ds) seen = seen || contains(d.message, "motor_radius must be below fan_radius");
  CHECK(seen);
}
