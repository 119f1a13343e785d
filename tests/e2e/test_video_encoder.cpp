// A component kind added as a plug-in (scenarios/src/kinds/video_encoder.cpp): a
// fixed-function video encoder used from a scenario, its power recorded in the HDF5
// timeseries `power` by `component`, and shown by `ptsim report`.
#include <doctest/doctest.h>

#include "relative_approx.hpp"

#include <algorithm>
#include <fstream>

#include "ptsim/postproc/result_file.hpp"
#include "run_ptsim.hpp"

using namespace e2e;
using ptsim::postproc::result_reader;

namespace {

// A CPU cluster with no power, an encoder at 500 MHz x 4 pixels/cycle = 2e9 pixels/s, a NoC
// and a memory that draw nothing. One 1080p frame (2,073,600 pixels, no bytes) every
// 10 ms: 1.0368 ms of encoding + 20 us set-up = 1.0568 ms busy per frame, so the encoder
// is busy 10.568 % of the time: P = 0.1 W + (2 W - 0.1 W) x 0.10568 = 0.300792 W.
const char* encoder_scenario_yaml = R"(name: venc-e2e
duration: "1 s"
control_period: "1 ms"
record_period: "10 ms"
platform:
  domains:
    d: { opps: [ { freq: "1 GHz", volt: "1 V" } ] }
    venc_clk: { opps: [ { freq: "500 MHz", volt: "0.8 V" } ] }
  components:
    cpu: { kind: cpu_cluster, domain: d, connect: noc, ops_per_cycle: { fp32: 1000 }, c_eff: "1e-30 F" }
    venc: { kind: video_encoder, domain: venc_clk, connect: noc, pixels_per_cycle: 4,
            busy_power: "2 W", idle_power: "100 mW" }
    noc: { kind: noc, connect: mem, bandwidth: "10 GB/s" }
    mem: { kind: lpddr, bandwidth: "10 GB/s" }
workload:
  streams:
    camera: { arrival: { kind: fixed_rate, rate: "100 Hz" }, precision: int8,
              stages: [ { unit: venc, graph: frame_1080p.yaml } ] }
thermal:
  ambient: "25 degC"
  floorplan:
    - { name: cpu, x: "0 mm", y: "0 mm", width: "2 mm", height: "2 mm" }
    - { name: venc, x: "2 mm", y: "0 mm", width: "1 mm", height: "2 mm" }
    - { name: noc, x: "3 mm", y: "0 mm", width: "1 mm", height: "2 mm" }
    - { name: mem, x: "4 mm", y: "0 mm", width: "2 mm", height: "2 mm" }
policy: { governor: performance }
)";

}  // namespace

TEST_CASE("video_encoder: a plug-in kind runs a stream, and its busy/idle power is in the result and the report") {
  scratch s("venc");
  std::ofstream(s.dir / "frame_1080p.yaml") << "ops:\n  - { name: encode, kind: other, flops: 2073600 }\n";
  std::ofstream(s.dir / "venc.yaml") << encoder_scenario_yaml;
  const result r = run_ptsim(s.dir, "run venc.yaml -q -o venc.h5");
  REQUIRE_MESSAGE(r.exit_code == 0, r.err);
  result_reader f(s.dir / "venc.h5");

  // The timeseries `power` by `component` has a column for the encoder.
  const auto comps = f.coord("component");
  const auto it = std::find(comps.begin(), comps.end(), "venc");
  REQUIRE(it != comps.end());
  const std::size_t c = static_cast<std::size_t>(it - comps.begin());
  std::size_t nc = 0;
  const auto power = f.variable("power", &nc);
  REQUIRE(nc == comps.size());
  const std::size_t n = power.size() / nc;
  REQUIRE(n == 100);
  // Its power over the run: idle + (busy - idle) x busy share, by hand.
  const double busy = 100 * (2073600 / 2e9 + 20e-6);  // frames/s x busy time per frame
  const double expected = 0.1 + (2.0 - 0.1) * busy;
  double sum = 0;
  for (std::size_t k = 0; k < n; ++k) sum += power[k * nc + c];
  CHECK(sum / static_cast<double>(n) == ptsim_test::Approx(expected).epsilon(1e-3));
  // Every record period: between idle and busy power, and tied to its domain's
  // utilisation (the encoder alone in venc_clk) by the same line.
  std::size_t nd = 0;
  const auto util = f.variable("utilization", &nd);
  const auto doms = f.coord("domain");
  const std::size_t d = static_cast<std::size_t>(std::find(doms.begin(), doms.end(), "venc_clk") - doms.begin());
  REQUIRE(d < doms.size());
  for (std::size_t k = 0; k < n; ++k) {
    CHECK(power[k * nc + c] >= 0.1 - 1e-12);
    CHECK(power[k * nc + c] <= 2.0 + 1e-12);
    CHECK(power[k * nc + c] == ptsim_test::Approx(0.1 + 1.9 * util[k * nd + d]).epsilon(1e-9));
  }
  // Energy balance: the platform's energy is the encoder's (the rest draws nothing).
  CHECK(f.summary().metrics.at("energy_J").value == ptsim_test::Approx(sum * f.record_period_s()).epsilon(1e-9));

  // `ptsim report` shows it: the encoder's row among the units (busy 10.6 %), and its
  // mean power in the table of power by component.
  const result rep = run_ptsim(s.dir, "report venc.h5");
  REQUIRE_MESSAGE(rep.exit_code == 0, rep.err);
  const auto table = rep.out.find("power by component (mean over the run)");
  REQUIRE(table != std::string::npos);
  const auto row = rep.out.find("\nvenc ", table);
  REQUIRE(row != std::string::npos);
  const std::string line = rep.out.substr(row + 1, rep.out.find('\n', row + 1) - row - 1);
  CHECK(std::stod(line.substr(line.find_last_of(' ') + 1)) == ptsim_test::Approx(expected).epsilon(1e-3));
  CHECK(rep.out.find("venc  10.6%") != std::string::npos);
}

TEST_CASE("video_encoder: its keys are checked like any kind's, and it is listed") {
  scratch s("venc-keys");
  std::string bad = encoder_scenario_yaml;
  bad.replace(bad.find("busy_power: \"2 W\""), 17, "busy_power: \"50 mW\"");
  std::ofstream(s.dir / "frame_1080p.yaml") << "ops:\n  - { name: encode, kind: other, flops: 2073600 }\n";
  std::ofstream(s.dir / "bad.yaml") << bad;
  const result r = run_ptsim(s.dir, "validate bad.yaml");
  CHECK(r.exit_code != 0);
  CHECK(r.err.find("busy_power is below idle_power") != std::string::npos);
  const result l = run_ptsim(s.dir, "list components");
  REQUIRE(l.exit_code == 0);
  CHECK(l.out.find("video_encoder: Fixed-function video encoder") != std::string::npos);
  CHECK(l.out.find("pixels_per_cycle") != std::string::npos);
}
