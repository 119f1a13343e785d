// The closed loop's thermal side: initial states (steady, file), zone sensors (lag, noise),
// and fans as a cooling device of a datacenter model.
#include <doctest/doctest.h>

#include "relative_approx.hpp"

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>

#include "ptsim/cosim/control_loop.hpp"
#include "ptsim/scenarios/scenario.hpp"
#include "ptsim/thermal/package.hpp"
#include "ptsim/thermal/solver.hpp"

using namespace ptsim;

namespace {

// One CPU cluster (no leakage: its power does not follow temperature), a NoC and an LPDDR
// on a 3-block die; `thermal_extra` and `policy` complete the scenario.
std::string thermal_scenario_text(const std::string& thermal_extra, const std::string& policy, int seed = 1) {
  return R"(
name: thermal-loop-test
duration: "1 s"
control_period: "1 ms"
record_period: "1 ms"
seed: )" + std::to_string(seed) + R"(
platform:
  domains:
    d:
      opps:
        - { freq: "1000 MHz", volt: "0.7 V" }
        - { freq: "2000 MHz", volt: "1.0 V" }
  components:
    cpu: { kind: cpu_cluster, domain: d, connect: noc, ops_per_cycle: { fp32: 8 }, c_eff: "1 nF" }
    noc: { kind: noc, connect: mem, bandwidth: "10 GB/s", background_power: "20 mW" }
    mem: { kind: lpddr, bandwidth: "10 GB/s", background_power: "80 mW" }
workload:
  streams:
    s: { arrival: { kind: fixed_rate, rate: "10 Hz" }, precision: fp32,
         stages: [ { unit: cpu, model: classifier_postprocess } ] }
thermal:
  ambient: "25 degC"
  floorplan:
    - { name: cpu, x: "0 mm", y: "0 mm", width: "2 mm", height: "2 mm" }
    - { name: noc, x: "2 mm", y: "0 mm", width: "1 mm", height: "2 mm" }
    - { name: mem, x: "3 mm", y: "0 mm", width: "1 mm", height: "2 mm" }
)" + thermal_extra + R"(
policy:
  governor: performance
)" + policy + "\n";
}

// The cpu busy for half of every period at 2 GHz, 1 V: 1e-9 x 1 x 2e9 x 0.5 = 1 W.
const std::vector<cosim::component_input> busy = {{0.5, 0, 0, 0, 0, {}}, {}, {}};
const std::vector<cosim::domain_input> at_2ghz = {{2e9, 1.0, 2e9}};

}  // namespace

TEST_CASE("initial: steady starts in the steady state of the first period's power (dT/dt = 0)") {
  const auto sc = scenarios::load_scenario_text(thermal_scenario_text("  initial: steady\n", ""), "test");
  cosim::control_loop loop(sc);
  loop.initial_points();
  loop.tick(1e-3, busy, at_2ghz);
  // The steady state of this power, solved here on its own: cpu 1 W, noc 0.02 W, mem 0.08 W.
  const auto net = thermal::build_block_model(sc.thermal.fp, sc.thermal.package);
  std::vector<double> P(net.size(), 0.0);
  P[0] = 1.0, P[1] = 0.02, P[2] = 0.08;
  const auto want = thermal::steady_state(net, P, sc.thermal.ambient.value());
  for (std::size_t b = 0; b < 3; ++b) CHECK(loop.block_temperature_K()[b] == ptsim_test::Approx(want[b]).epsilon(1e-12));
  CHECK(want[0] > sc.thermal.ambient.value() + 0.5);  // not trivially the ambient
  // Held power: the temperatures stay where they started.
  const auto T1 = loop.block_temperature_K();
  for (int k = 2; k <= 100; ++k) loop.tick(k * 1e-3, busy, at_2ghz);
  for (std::size_t b = 0; b < 3; ++b) CHECK(std::abs(loop.block_temperature_K()[b] - T1[b]) < 1e-9);
  // From the ambient the same load heats the die.
  const auto cold_sc = scenarios::load_scenario_text(thermal_scenario_text("", ""), "test");
  cosim::control_loop cold(cold_sc);  // the loop keeps a reference to its scenario
  cold.initial_points();
  for (double t : cold.block_temperature_K()) CHECK(t == sc.thermal.ambient.value());  // initial: ambient
  cold.tick(1e-3, busy, at_2ghz);
  CHECK(cold.block_temperature_K()[0] < want[0] - 0.1);
}

TEST_CASE("initial: file reads every node of the model from a HotSpot .steady file") {
  const auto dir = std::filesystem::temp_directory_path() / "ptsim_test_thermal_loop";
  std::filesystem::create_directories(dir);
  const auto file = dir / "init.steady";
  {
    const auto base = scenarios::load_scenario_text(thermal_scenario_text("", ""), "test");
    const auto net = thermal::build_block_model(base.thermal.fp, base.thermal.package);
    std::ofstream out(file);
    out << "# HotSpot's .steady layout: name, then kelvin\n";
    for (std::size_t i = 0; i < net.size(); ++i) out << net.name(i) << "\t" << (i < 3 ? 330.0 + i : 320.0) << "\n";
  }
  const auto sc = scenarios::load_scenario_text(
      thermal_scenario_text("  initial: file\n  initial_file: " + file.string() + "\n",
                    "  thermal: { governor: step_wise, control_temp: \"80 degC\", sensor: mem }"),
      "test");
  cosim::control_loop loop(sc);
  CHECK(loop.block_temperature_K() == std::vector<double>{330.0, 331.0, 332.0});
  CHECK(loop.zone_sensor_K() == std::vector<double>{332.0});
  // A file that misses a node is refused when the scenario loads.
  { std::ofstream out(file); out << "cpu 330\nnoc 331\nmem 332\n"; }
  CHECK_THROWS_WITH(scenarios::load_scenario_text(thermal_scenario_text("  initial: file\n  initial_file: " + file.string() + "\n", ""), "test"),
                    doctest::Contains("no temperature for node 'iface_cpu'"));
  std::filesystem::remove_all(dir);
}

TEST_CASE("zone sensors: lag behind the node while it heats; seeded noise repeats per seed") {
  auto readings = [](const std::string& sensor, int seed) {
    const auto sc = scenarios::load_scenario_text(
        thermal_scenario_text("", "  thermal: { governor: step_wise, control_temp: \"90 degC\", sensor: " + sensor + " }", seed),
        "test");
    cosim::control_loop loop(sc);
    loop.initial_points();
    std::vector<std::pair<double, double>> out;  // (sensor, true cpu temperature)
    for (int k = 1; k <= 200; ++k) {
      loop.tick(k * 1e-3, busy, at_2ghz);
      out.emplace_back(loop.zone_sensor_K()[0], loop.block_temperature_K()[0]);
    }
    return out;
  };
  for (const auto& [s, t] : readings("cpu", 1)) CHECK(s == t);  // exact sensor
  const auto lagged = readings("{ node: cpu, time_constant: \"50 ms\" }", 1);
  for (const auto& [s, t] : lagged) CHECK(s < t);
  const auto noisy = readings("{ node: cpu, noise: \"0.2 K\" }", 1);
  CHECK(noisy == readings("{ node: cpu, noise: \"0.2 K\" }", 1));
  CHECK(noisy != readings("{ node: cpu, noise: \"0.2 K\" }", 2));
  double ss = 0;
  for (const auto& [s, t] : noisy) ss += (s - t) * (s - t);
  CHECK(std::sqrt(ss / static_cast<double>(noisy.size())) == ptsim_test::Approx(0.2).epsilon(0.2));
}

namespace {
// Two dies in one air stream: cpu upstream, noc + mem downstream; small, fast sinks.
const std::string datacenter = R"(  package: { s_spreader: "5 mm", t_spreader: "0.5 mm", s_sink: "10 mm", t_sink: "1 mm", r_convec: "2 K/W", c_convec: "0.1 J/K" }
  model: datacenter
  datacenter:
    dies: { cpu: {}, rest: { blocks: [noc, mem] } }
    streams: { s: [cpu, rest] }
    fan: { flow: "0.001 m^3/s", power: "15 W", speed: 0.3, min_speed: 0.3, max_speed: 1.0, levels: 8 }
)";
}  // namespace

TEST_CASE("fans as a cooling device: a zone cooling the fans raises the speed, which lowers the temperature") {
  auto run = [](const std::string& policy) {
    const auto sc = scenarios::load_scenario_text(thermal_scenario_text(datacenter, policy), "test");
    cosim::control_loop loop(sc);
    loop.initial_points();
    REQUIRE(loop.component_names().back() == "fans");
    REQUIRE(loop.input_components() == 3);
    std::vector<double> speeds;
    for (int k = 1; k <= 3000; ++k) {
      loop.tick(k * 1e-3, busy, at_2ghz);
      // The fans row: 15 W x s^3 for the speed that held over the period, in platform power.
      const double fans = loop.component_power_W().back();
      CHECK(fans == ptsim_test::Approx(15.0 * std::pow(speeds.empty() ? 0.3 : speeds.back(), 3)).epsilon(1e-12));
      double sum = 0;
      for (double p : loop.component_power_W()) sum += p;
      CHECK(loop.platform_power_W() == ptsim_test::Approx(sum).epsilon(1e-12));
      speeds.push_back(loop.fan_speed());
    }
    return std::make_pair(loop.block_temperature_K()[0], speeds);
  };
  const auto [free_T, free_speeds] = run("");
  for (double s : free_speeds) CHECK(s == 0.3);
  const auto [fan_T, fan_speeds] =
      run("  thermal_zones: { fans: { control_temp: \"26 degC\", hysteresis: \"0.5 K\", polling_period: \"10 ms\", "
              "sensor: cpu, cooling: [fans] } }");
  // step_wise: one level (0.1 = 0.7 / 7) per polling period while hot and rising.
  CHECK(fan_speeds.front() <= 0.4 + 1e-12);

  double top = 0;
  for (std::size_t k = 1; k < fan_speeds.size(); ++k) {
    const double step = fan_speeds[k] - fan_speeds[k - 1];
    CHECK((step == 0.0 || std::abs(std::abs(step) - 0.1) < 1e-12));
    top = std::max(top, fan_speeds[k]);
  }
  CHECK(top > 0.5);
  CHECK(fan_T < free_T - 1.0);
}

TEST_CASE("two zones cool one domain: either one hot enough holds it at its lowest OPP") {
  // The cpu at 1 W warms its block above the 25 degC ambient, so a zone tripping at
  // 20 degC steps d down (2000 -> 1000 MHz, its lowest) at its first poll and holds it;
  // a zone tripping at 200 degC never asks anything. Whichever of the two is the main
  // zone, d's ceiling is the lower claim: 1000 MHz.
  auto final_ceiling = [](const std::string& main_C, const std::string& skin_C) {
    const std::string policy = "  thermal: { governor: step_wise, control_temp: \"" + main_C +
                               " degC\", polling_period: \"10 ms\" }\n"
                               "  thermal_zones:\n    skin: { control_temp: \"" + skin_C +
                               " degC\", polling_period: \"20 ms\", sensor: cpu, cooling: [d] }\n";
    const auto sc = scenarios::load_scenario_text(thermal_scenario_text("", policy), "test");
    cosim::control_loop loop(sc);
    loop.initial_points();
    REQUIRE(loop.zone_names() == std::vector<std::string>{"thermal", "skin"});
    for (int k = 1; k <= 100; ++k) loop.tick(k * 1e-3, busy, at_2ghz);
    return loop.domain_ceiling_hz().at(0);
  };
  CHECK(final_ceiling("200", "200") == 2e9);
  CHECK(final_ceiling("20", "200") == 1e9);
  CHECK(final_ceiling("200", "20") == 1e9);
}

TEST_CASE("a zone cooling the fans and a zone cooling a domain, each at its own period") {
  // The fans zone trips at 20 degC (below the 25 degC ambient): one level up per 10 ms
  // poll from 0.3 by 0.1; the thermal zone trips at 200 degC and never limits d.
  const std::string policy =
      "  thermal: { governor: step_wise, control_temp: \"200 degC\" }\n"
      "  thermal_zones:\n    fans: { control_temp: \"20 degC\", polling_period: \"10 ms\", sensor: cpu, "
      "cooling: [fans] }\n";
  const auto sc = scenarios::load_scenario_text(thermal_scenario_text(datacenter, policy), "test");
  cosim::control_loop loop(sc);
  loop.initial_points();
  REQUIRE(loop.zone_names() == std::vector<std::string>{"thermal", "fans"});
  CHECK(loop.fan_speed() == 0.3);
  // Polls at t = 1, 11, 21 ms: above the trip and rising each time (the first reading
  // counts as rising), so each raises the level: 0.4, 0.5, 0.6.
  std::vector<double> read;
  for (int k = 1; k <= 21; ++k) {
    loop.tick(k * 1e-3, busy, at_2ghz);
    if (k % 10 == 1) {
      read.push_back(loop.zone_sensor_K().at(1));
      CHECK(loop.fan_speed() == ptsim_test::Approx(0.3 + 0.1 * static_cast<double>(read.size())).epsilon(1e-12));
    }
  }
  REQUIRE(read.size() == 3);
  CHECK(read[0] > 293.15);
  CHECK(read[1] > read[0]);
  CHECK(read[2] > read[1]);
  CHECK(loop.domain_ceiling_hz().at(0) == 2e9);
}
