// Memory DVFS end to end, read back from HDF5: an HBM's own temperature limit trips at its
// threshold and cuts its clock (not the GPU's); an LPDDR at its top clock under
// `performance` is the memory without DVFS; under simple_ondemand its clock follows the load.
#include <doctest/doctest.h>

#include "relative_approx.hpp"

#include <algorithm>
#include <cmath>
#include <fstream>

#include "ptsim/postproc/result_file.hpp"
#include "result_lookup.hpp"
#include "run_ptsim.hpp"

using namespace e2e;
using ptsim::postproc::result_reader;

namespace {

// One GPU at a fixed clock runs a GEMM every 10 ms; its HBM (its own floorplan block)
// draws 200 W of background whatever its clock (clock_scaled_background 0; a figure chosen
// to heat it quickly, not an HBM's), so it heats steadily from the 70 degC ambient through
// its 95 degC limit (about 24 ms in) and on. While over the limit the
// memory clock ceiling is the highest OPP at or below throttle_freq 2000 MHz: 1900 MHz.
// Transition latency 0: the clock changes at the tick that decides it.
const char* hbm_yaml = R"(name: hbm-throttle-e2e
duration: "300 ms"
control_period: "1 ms"
record_period: "1 ms"
platform:
  domains:
    g: { opps: [ { freq: "990 MHz", volt: "0.8 V" } ] }
    hbm_clk:
      transition_latency: "0 s"
      opps: [ { freq: "1000 MHz", volt: "1.1 V" }, { freq: "1900 MHz", volt: "1.1 V" }, { freq: "2619 MHz", volt: "1.1 V" } ]
  components:
    gpu0: { kind: gpu, domain: g, connect: hbm0, sms: 132, tensor_ops_per_cycle: { bf16: 4096 },
            vector_ops_per_cycle: { bf16: 512 }, efficiency: 0.75, launch_overhead: "3 us", c_eff: "100 nF" }
    hbm0: { kind: hbm, domain: hbm_clk, bandwidth: "3 TB/s", capacity: "80 GB", background_power: "200 W",
            clock_scaled_background: 0, throttle_temp: "95 degC", throttle_freq: "2000 MHz" }
workload:
  streams:
    s: { arrival: { kind: fixed_rate, rate: "100 Hz" }, precision: bf16, stages: [ { unit: gpu0, graph: gemm.yaml } ] }
thermal:
  ambient: "70 degC"
  floorplan:
    - { name: gpu0, x: "0 mm", y: "0 mm", width: "15 mm", height: "15 mm" }
    - { name: hbm0, x: "15 mm", y: "0 mm", width: "5 mm", height: "15 mm" }
policy: { governor: performance }
)";


}  // namespace

TEST_CASE("an HBM's own temperature limit trips at its threshold and cuts its clock, not the GPU's") {
  scratch s("hbm-throttle");
  std::ofstream(s.dir / "gemm.yaml") << "ops:\n  - { name: proj, kind: gemm, m: 4096, n: 4096, k: 4096 }\n";
  std::ofstream(s.dir / "hbm.yaml") << hbm_yaml;
  const result r = run_ptsim(s.dir, "run hbm.yaml -q -o hbm.h5");
  REQUIRE_MESSAGE(r.exit_code == 0, r.err);
  const result_reader f(s.dir / "hbm.h5");
  const auto t = f.time();
  std::size_t nb = 0, nd = 0;
  const auto T = f.variable("temperature", &nb);
  const auto hz = f.variable("frequency", &nd);
  const std::size_t hbm = index_of(f.coord("block"), "hbm0");
  const std::size_t mem = index_of(f.coord("domain"), "hbm_clk"), gpu = index_of(f.coord("domain"), "g");

  const auto ev = f.events();
  const auto start = std::find_if(ev.begin(), ev.end(), [](const auto& e) { return e.kind == "memory_throttle_start"; });
  REQUIRE(start != ev.end());
  CHECK(start->source == "hbm_clk");
  CHECK(start->message.find("hbm0 at 95.") != std::string::npos);
  CHECK(start->value == 1900e6);
  // The row of the event is the first at or above 95 degC: the limit reads the block itself.
  const auto k = static_cast<std::size_t>(std::find(t.begin(), t.end(), start->time_s) - t.begin());
  REQUIRE(k > 0);
  REQUIRE(k + 2 < t.size());
  CHECK(T[k * nb + hbm] >= 95.0);
  CHECK(T[(k - 1) * nb + hbm] < 95.0);
  for (std::size_t i = 0; i < k; ++i) CHECK(T[i * nb + hbm] < 95.0);
  // Before: the top clock; from the next period on, 1900 MHz (the heat keeps it there).
  for (std::size_t i = 0; i <= k; ++i) CHECK(hz[i * nd + mem] == ptsim_test::Approx(2619e6).epsilon(1e-12));
  for (std::size_t i = k + 1; i < t.size(); ++i) CHECK(hz[i * nd + mem] == ptsim_test::Approx(1900e6).epsilon(1e-12));
  // The GPU's clock is left alone: the memory's limit is its own, not the core's zone.
  for (std::size_t i = 0; i < t.size(); ++i) CHECK(hz[i * nd + gpu] == ptsim_test::Approx(990e6).epsilon(1e-12));
  // Throttling shows in the usual events too, as a thermal ceiling on the memory domain.
  CHECK(std::any_of(ev.begin(), ev.end(), [](const auto& e) {
    return e.kind == "throttle_start" && e.source == "hbm_clk" && e.message.find("thermal") == 0;
  }));
}

TEST_CASE("policy.limits.<gpu>.memory_freq locks the GPU's memory clock in every sample, as nvidia-smi -lmc") {
  scratch s("hbm-lock");
  std::ofstream(s.dir / "gemm.yaml") << "ops:\n  - { name: proj, kind: gemm, m: 4096, n: 4096, k: 4096 }\n";
  std::ofstream(s.dir / "hbm.yaml") << hbm_yaml;
  // Cool enough that the HBM never reaches its throttle temperature in 50 ms.
  const result r = run_ptsim(s.dir, "run hbm.yaml -q -o lock.h5 --set \"duration=50 ms\" --set \"thermal.ambient=25 degC\" "
                                    "--set \"policy.limits.g.memory_freq=1000 MHz\"");
  REQUIRE_MESSAGE(r.exit_code == 0, r.err);
  const result_reader f(s.dir / "lock.h5");
  std::size_t nd = 0;
  const auto hz = f.variable("frequency", &nd);
  const std::size_t mem = index_of(f.coord("domain"), "hbm_clk"), gpu = index_of(f.coord("domain"), "g");
  REQUIRE(hz.size() / nd > 10);
  for (std::size_t i = 0; i < hz.size() / nd; ++i) {
    CHECK(hz[i * nd + mem] == ptsim_test::Approx(1000e6).epsilon(1e-12));
    CHECK(hz[i * nd + gpu] == ptsim_test::Approx(990e6).epsilon(1e-12));
  }
}

TEST_CASE("LPDDR on a memory clock: at the top clock it is the fixed memory; simple_ondemand lowers the clock") {
  scratch s("memdvfs-phone");
  const std::string dvfs = PTSIM_SOURCE_DIR "/scenarios/phone-memory-dvfs.yaml";
  const std::string shorter = " --set \"duration=2 s\"";
  result r = run_ptsim(s.dir, "run " + default_scenario() + " -q -o fixed.h5" + shorter);
  REQUIRE_MESSAGE(r.exit_code == 0, r.err);
  r = run_ptsim(s.dir, "run " + dvfs + " -q -o top.h5 --set policy.memory_governor=performance" + shorter);
  REQUIRE_MESSAGE(r.exit_code == 0, r.err);
  r = run_ptsim(s.dir, "run " + dvfs + " -q -o ondemand.h5" + shorter);
  REQUIRE_MESSAGE(r.exit_code == 0, r.err);
  const result_reader fixed(s.dir / "fixed.h5"), top(s.dir / "top.h5"), od(s.dir / "ondemand.h5");

  // At its top clock the memory moves its bytes at the given bandwidth (the same jobs, to
  // the bit) and draws the given background: the same power in every row. The clock's
  // period average (f x dt / dt) may differ from f in the last bit, so power is compared
  // to 1e-12.
  const auto ja = fixed.jobs(), jb = top.jobs();
  REQUIRE(ja.size() == jb.size());
  for (std::size_t i = 0; i < ja.size(); ++i) CHECK(ja[i].finish_s == jb[i].finish_s);
  std::size_t na = 0, nb = 0;
  const auto pa = fixed.variable("power", &na), pb = top.variable("power", &nb);
  REQUIRE(na == nb);
  REQUIRE(pa.size() == pb.size());
  for (std::size_t i = 0; i < pa.size(); ++i) CHECK(pb[i] == ptsim_test::Approx(pa[i]).epsilon(1e-12));

  // simple_ondemand: the camera's light traffic drops the clock to a table OPP below the
  // top, and the LPDDR's energy with it; every frame is still served.
  std::size_t nd = 0;
  const auto hz = od.variable("frequency", &nd);
  const std::size_t mif = index_of(od.coord("domain"), "mif");
  double lowest = 1e99;
  for (std::size_t i = 0; i * nd < hz.size(); ++i) lowest = std::min(lowest, hz[i * nd + mif]);
  CHECK(lowest < 3172e6);
  const std::size_t lp = index_of(od.coord("component"), "lpddr");
  std::size_t nc = 0;
  const auto po = od.variable("power", &nc);
  double e_fixed = 0, e_od = 0;
  for (std::size_t i = 0; i * nc < po.size(); ++i) e_fixed += pa[i * nc + lp], e_od += po[i * nc + lp];
  CHECK(e_od < e_fixed);
  CHECK(od.jobs().size() == ja.size());
}
