// End to end through `ptsim run` and the HDF5 file: idle states chosen per idle period
// (energy and exit stalls by hand), wall power through VR and PSU curves (energy balance
// by hand), and the power cap on scenarios/server-llm-serving.yaml.
#include <doctest/doctest.h>

#include "relative_approx.hpp"

#include <cmath>
#include <fstream>
#include <numeric>

#include "ptsim/postproc/result_file.hpp"
#include "result_lookup.hpp"
#include "run_ptsim.hpp"

using namespace e2e;
using ptsim::postproc::result_reader;

namespace {

// One CPU cluster whose only power is a 1 W leakage, independent of voltage (exponent 0)
// and, for this test's few kelvin, of temperature (doubling 1e9 K): its power is then
// 1 W, less what its idle states save (c_eff 1e-30 F: dynamic power ~1e-21 W). The
// NoC and memory draw nothing. One 1 ms operator
// (1e9 ops at 1000 ops/cycle, 1 GHz, efficiency 1, no launch cost) per request.
std::string unit_yaml(const std::string& idle_states, const std::string& supply) {
  return R"(name: idle-e2e
duration: "1 s"
control_period: "1 ms"
record_period: "10 ms"
platform:
)" + supply + R"(  domains:
    d: { opps: [ { freq: "1 GHz", volt: "1 V" } ] }
  components:
    cpu: { kind: cpu_cluster, domain: d, connect: noc, ops_per_cycle: { fp32: 1000 }, efficiency: 1,
           launch_overhead: "0 s", c_eff: "1e-30 F",
           leakage: { power: "1 W", v_ref: "1 V", t_ref: "25 degC", doubling: "1e9 K", v_exponent: 0 })" +
         idle_states + R"( }
    noc: { kind: noc, connect: mem, bandwidth: "10 GB/s" }
    mem: { kind: lpddr, bandwidth: "10 GB/s" }
workload:
  streams:
    s: { arrival: { kind: fixed_rate, rate: "100 Hz", start: "5 ms" }, precision: fp32,
         stages: [ { unit: cpu, graph: one_ms.yaml } ] }
thermal:
  ambient: "25 degC"
  floorplan:
    - { name: cpu, x: "0 mm", y: "0 mm", width: "2 mm", height: "2 mm" }
    - { name: noc, x: "2 mm", y: "0 mm", width: "1 mm", height: "2 mm" }
    - { name: mem, x: "3 mm", y: "0 mm", width: "2 mm", height: "2 mm" }
policy: { governor: performance }
)";
}

void write(const fs::path& p, const std::string& text) { std::ofstream(p) << text; }


}  // namespace

TEST_CASE("idle states: the menu-like choice per idle period, its exit stalls and its energy, by hand") {
  scratch s("idle");
  write(s.dir / "one_ms.yaml", "ops:\n  - { name: work, kind: gemm, flops: 1000000000 }\n");
  // clock gating keeps the leakage, retention half of it, power gating a tenth.
  write(s.dir / "idle.yaml",
        unit_yaml(",\n           idle_states: [ { name: cg, leakage_fraction: 1 },\n"
                  "             { name: ret, leakage_fraction: 0.5, exit_latency: \"100 us\", target_residency: \"2 ms\" },\n"
                  "             { name: pg, leakage_fraction: 0.1, exit_latency: \"1 ms\", target_residency: \"20 ms\" } ]",
                  ""));
  const result r = run_ptsim(s.dir, "run idle.yaml -q -o idle.h5");
  REQUIRE_MESSAGE(r.exit_code == 0, r.err);
  result_reader f(s.dir / "idle.h5");
  // Requests at 5, 15, ..., 995 ms. The unit starts idle with no history: the deepest
  // state (pg) for [0, 5 ms). The first request pays pg's 1 ms exit and runs 1 ms; from
  // then on the predicted idle period (5, 8, 8.9 ms ...: never a steady mean, so the
  // shortest, 5 ms) always picks retention: 100 us exit + 1 ms work, 8.9 ms idle.
  //   [0, 5)        pg        5 ms x 0.1 W          0.5 mJ
  //   [5, 7)        exit+work 2 ms x 1 W            2 mJ
  //   [7, 15)       ret       8 ms x 0.5 W          4 mJ
  //   15 ... 985    98 x (1.1 ms x 1 W + 8.9 ms x 0.5 W) = 98 x 5.55 = 543.9 mJ
  //   [995, 1000)   1.1 ms x 1 W + 3.9 ms x 0.5 W   3.05 mJ
  const double energy = 0.5e-3 + 2e-3 + 4e-3 + 98 * 5.55e-3 + 3.05e-3;  // 553.45 mJ
  CHECK(metric(f, "energy_J") == ptsim_test::Approx(energy).epsilon(1e-6));
  // Exit stalls: one of pg (1 ms) and 99 of retention (100 us).
  const auto units = f.unit_summary();
  REQUIRE(units.size() == 1);
  CHECK(units[0].idle_exit_s == ptsim_test::Approx(1e-3 + 99 * 100e-6).epsilon(1e-9));
  // Residency in a low-power state per record period (10 ms), e.g. [10, 20 ms): idle
  // 10-15 and 16.1-20 ms = 8.9 ms -> 0.89.
  std::size_t nc = 0;
  const auto lp = f.variable("low_power_residency", &nc);
  REQUIRE(nc == 3);
  CHECK(lp[0] == ptsim_test::Approx(0.8).epsilon(1e-9));        // [0, 10): 5 ms of pg, 7-10 ms of ret
  CHECK(lp[1 * nc] == ptsim_test::Approx(0.89).epsilon(1e-9));  // [10, 20)
  CHECK(lp[2] == 0.0);                                       // the memory has no self-refresh
  // The same unit with no idle states draws 1 W throughout.
  write(s.dir / "plain.yaml", unit_yaml("", ""));
  REQUIRE(run_ptsim(s.dir, "run plain.yaml -q -o plain.h5").exit_code == 0);
  CHECK(metric(result_reader(s.dir / "plain.h5"), "energy_J") == ptsim_test::Approx(1.0).epsilon(1e-6));
}

TEST_CASE("wall power: platform power divided by the VR's and the PSU's efficiency at their loads") {
  scratch s("wall");
  write(s.dir / "one_ms.yaml", "ops:\n  - { name: work, kind: gemm, flops: 1000000000 }\n");
  // A constant 1 W load (no idle states). VR rated 2 W on its default curve: load 0.5,
  // eta 0.92 -> 1.086957 W in. PSU rated 10 W on its own curve (80 % at 0, 90 % at
  // 20 % load): load 0.1086957, eta 0.8 + 0.1 x 0.1086957 / 0.2 = 0.8543478 ->
  // wall 1.086957 / 0.8543478 = 1.272265 W.
  write(s.dir / "wall.yaml",
        unit_yaml("", "  supply:\n    vr: { rated: \"2 W\" }\n"
                      "    psu: { rated: \"10 W\", efficiency: [ { load: 0, efficiency: 0.8 }, { load: 0.2, efficiency: 0.9 } ] }\n"));
  const result r = run_ptsim(s.dir, "run wall.yaml -q -o wall.h5");
  REQUIRE_MESSAGE(r.exit_code == 0, r.err);
  result_reader f(s.dir / "wall.h5");
  const double vr_in = 1.0 / 0.92, psu_eta = 0.8 + 0.1 * (vr_in / 10) / 0.2;
  const double wall = vr_in / psu_eta;
  CHECK(metric(f, "avg_power_W") == ptsim_test::Approx(1.0).epsilon(1e-6));
  CHECK(metric(f, "avg_wall_power_W") == ptsim_test::Approx(wall).epsilon(1e-6));
  CHECK(metric(f, "wall_energy_J") == ptsim_test::Approx(wall * 1.0).epsilon(1e-6));
  CHECK(f.summary().metrics.at("wall_energy_J").units == "J");
  // The timeseries: wall_power(time), one value per sample, in W, every sample the same.
  std::size_t cols = 0;
  const auto w = f.variable("wall_power", &cols);
  CHECK(cols == 1);
  REQUIRE(w.size() == f.time().size());
  for (double x : w) CHECK(x == ptsim_test::Approx(wall).epsilon(1e-6));
  bool has_units = false;
  for (const auto& v : f.layout().variables)
    if (v.name == "wall_power") has_units = v.units == "W" && v.dim.empty();
  CHECK(has_units);
}

TEST_CASE("server-llm-serving: a cap at 60% of the uncapped average holds every 1 s window within 5%") {
  scratch s("llmcap");
  const std::string yaml = PTSIM_SOURCE_DIR "/scenarios/server-llm-serving.yaml";
  const std::string common = " -q --set 'duration=6 s'";
  REQUIRE(run_ptsim(s.dir, "run " + yaml + common + " -o free.h5").exit_code == 0);
  const double free_avg = metric(result_reader(s.dir / "free.h5"), "avg_power_W");
  const double limit = 0.6 * free_avg;
  const result r = run_ptsim(s.dir, "run " + yaml + common + " -o cap.h5 --set 'policy.power_cap.limit=" +
                                        std::to_string(limit) + " W' --set 'policy.power_cap.window=1 s'");
  REQUIRE_MESSAGE(r.exit_code == 0, r.err);
  result_reader f(s.dir / "cap.h5");
  std::size_t nc = 0;
  const auto power = f.variable("power", &nc);
  const auto time = f.time();
  const std::size_t per_window = static_cast<std::size_t>(1.0 / f.record_period_s() + 0.5);
  const std::size_t windows = time.size() / per_window;
  CHECK(windows == 6);
  for (std::size_t w = 0; w < windows; ++w) {
    double sum = 0;
    for (std::size_t t = w * per_window; t < (w + 1) * per_window; ++t)
      for (std::size_t c = 0; c < nc; ++c) sum += power[t * nc + c];
    const double avg = sum / static_cast<double>(per_window);
    CHECK_MESSAGE(std::abs(avg - limit) <= 0.05 * limit, "window " << w << ": " << avg << " W vs " << limit << " W");
  }
  CHECK(metric(f, "throttled_fraction_power") > 0.0);
}
