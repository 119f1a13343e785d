// Profile-driven operator times end to end: a GPU with a measured profile (a CSV next to
// the scenario) runs a graph of a GEMM (in the profile) and an elementwise operator (not
// in it); the result file says what the profile timed, and the HBM's energy is the same as
// in the same run timed by the roofline (the same bytes cross it).
#include <doctest/doctest.h>

#include "relative_approx.hpp"

#include <fstream>

#include "ptsim/postproc/result_file.hpp"
#include "run_ptsim.hpp"

using namespace e2e;
using ptsim::postproc::result_reader;

namespace {

// One GPU at a fixed 990 MHz; a request every 10 ms for 0.2 s (20 requests, each done in
// a few ms). The GEMM 4096 x 4096 x 4096 bf16: the roofline's arithmetic at 990 MHz is
// 2 x 4096^3 / (132 x 4096 x 0.75 x 0.99e9) = 0.3427 ms; the profile says 2 ms at 1980 MHz
// with compute fraction 0.5, so at 990 MHz 2 ms x (0.5 x 2 + 0.5) = 3 ms. Its bytes,
// 3 x 4096^2 x 2 B = 100.7 MB, take 33.6 us at 3 TB/s: hidden under either time. The HBM
// never self-refreshes within the run (self_refresh_after 1 s): its idle periods, which the
// longer GEMMs shorten, would otherwise move its energy besides the bytes'.
const char* profile_scenario_yaml = R"(name: profile-e2e
duration: "200 ms"
control_period: "1 ms"
record_period: "1 ms"
platform:
  domains:
    g: { opps: [ { freq: "990 MHz", volt: "0.8 V" } ] }
  components:
    gpu0: { kind: gpu, domain: g, connect: hbm0, sms: 132, tensor_ops_per_cycle: { bf16: 4096 },
            vector_ops_per_cycle: { bf16: 512 }, efficiency: 0.75, launch_overhead: "3 us", c_eff: "100 nF" PROFILE }
    hbm0: { kind: hbm, bandwidth: "3 TB/s", efficiency: 1.0, capacity: "80 GB", preset: hbm3, self_refresh_after: "1 s" }
workload:
  streams:
    s: { arrival: { kind: fixed_rate, rate: "100 Hz" }, precision: bf16,
         stages: [ { unit: gpu0, graph: gemm_and_add.yaml } ] }
thermal:
  ambient: "25 degC"
  floorplan:
    - { name: gpu0, x: "0 mm", y: "0 mm", width: "15 mm", height: "15 mm" }
    - { name: hbm0, x: "15 mm", y: "0 mm", width: "5 mm", height: "15 mm" }
policy: { governor: performance }
)";

std::string with_profile(const std::string& profile) {
  std::string s = profile_scenario_yaml;
  s.replace(s.find(" PROFILE"), 8, profile);
  return s;
}

// Mean power of `component` over the run (one row per 1 ms control period).
double mean_power(const result_reader& f, const std::string& component) {
  const auto comps = f.coord("component");
  std::size_t c = 0;
  while (c < comps.size() && comps[c] != component) ++c;
  REQUIRE(c < comps.size());
  std::size_t nc = 0;
  const auto p = f.variable("power", &nc);
  double sum = 0;
  for (std::size_t k = 0; k < p.size() / nc; ++k) sum += p[k * nc + c];
  return sum / static_cast<double>(p.size() / nc);
}

}  // namespace

TEST_CASE("ptsim run with a profile: table times scaled to the clock, the rest by the roofline, HBM energy kept") {
  scratch s("profile");
  std::ofstream(s.dir / "gemm_and_add.yaml") << "ops:\n"
                                                "  - { name: proj, kind: gemm, m: 4096, n: 4096, k: 4096 }\n"
                                                "  - { name: add, kind: elementwise, elements: 16777216, inputs: 2 }\n";
  std::ofstream(s.dir / "gemm.csv") << "# illustrative, written for this test\n"
                                       "kind,precision,m,n,k,time_us,compute_fraction\n"
                                       "gemm,bf16,4096,4096,4096,2000,0.5\n";
  std::ofstream(s.dir / "profiled.yaml")
      << with_profile(", profile: { file: gemm.csv, clock: \"1980 MHz\" }");
  std::ofstream(s.dir / "roofline.yaml") << with_profile("");

  const result r = run_ptsim(s.dir, "run profiled.yaml -o profiled.h5");
  REQUIRE_MESSAGE(r.exit_code == 0, r.err);
  // Said once: 20 GEMMs from the table, 20 adds by the roofline.
  CHECK(r.err.find("gpu0: 20 operators timed from the profile") != std::string::npos);
  CHECK(r.err.find("20 by the roofline (no row for: elementwise 20)") != std::string::npos);
  const result q = run_ptsim(s.dir, "run roofline.yaml -q -o roofline.h5");
  REQUIRE_MESSAGE(q.exit_code == 0, q.err);
  CHECK(q.err.find("profile") == std::string::npos);

  const result_reader f(s.dir / "profiled.h5"), g(s.dir / "roofline.h5");
  // The profile's event, with the operators it did not hold as its value.
  bool seen = false;
  for (const auto& e : f.events())
    if (e.kind == "profile") {
      seen = true;
      CHECK(e.source == "gpu0");
      CHECK(e.value == 20);
    }
  CHECK(seen);
  // Every GEMM took the launch overhead and the table's 3 ms at 990 MHz; the roofline's
  // 0.3427 ms in the other run.
  int gemms = 0;
  for (const auto& o : f.ops().rows)
    if (o.op == "proj") {
      ++gemms;
      CHECK(o.end_s - o.start_s == ptsim_test::Approx(3e-6 + 3e-3).epsilon(1e-6));
    }
  CHECK(gemms == 20);
  const double roofline = 2.0 * 4096 * 4096 * 4096 / (132 * 4096 * 0.75 * 0.99e9);
  for (const auto& o : g.ops().rows)
    if (o.op == "proj") CHECK(o.end_s - o.start_s == ptsim_test::Approx(3e-6 + roofline).epsilon(1e-3));
  // The adds are the roofline's in both runs (to 1e-6: each is a difference of two times
  // that the kernel's 1 ps resolution rounds, ~37 us apart).
  for (std::size_t i = 0; i < f.ops().rows.size() && i < g.ops().rows.size(); ++i)
    if (f.ops().rows[i].op == "add")
      CHECK(f.ops().rows[i].end_s - f.ops().rows[i].start_s ==
            ptsim_test::Approx(g.ops().rows[i].end_s - g.ops().rows[i].start_s).epsilon(1e-6));
  // The same bytes crossed the HBM: its energy is the roofline run's; the GPU, busy longer,
  // drew more.
  CHECK(mean_power(f, "hbm0") == ptsim_test::Approx(mean_power(g, "hbm0")).epsilon(1e-9));
  CHECK(mean_power(f, "gpu0") > mean_power(g, "gpu0"));

  // The same profile given with --set (the schema knows the key) times the same way.
  const result viaset = run_ptsim(s.dir, "run roofline.yaml -q -o viaset.h5 --set platform.components.gpu0.profile.file="
                                         "gemm.csv --set 'platform.components.gpu0.profile.clock=1980 MHz'");
  REQUIRE_MESSAGE(viaset.exit_code == 0, viaset.err);
  const result_reader h(s.dir / "viaset.h5");
  REQUIRE(h.ops().rows.size() == f.ops().rows.size());
  for (std::size_t i = 0; i < f.ops().rows.size(); ++i)
    CHECK(h.ops().rows[i].end_s == f.ops().rows[i].end_s);
  const result schema = run_ptsim(s.dir, "schema");
  CHECK(schema.out.find("compute_fraction") != std::string::npos);
}

TEST_CASE("a bad profile is refused before the run, at its file, line and column") {
  scratch s("profile-bad");
  std::ofstream(s.dir / "gemm_and_add.yaml") << "ops:\n  - { name: proj, kind: gemm, m: 64, n: 64, k: 64 }\n";
  std::ofstream(s.dir / "bad.csv") << "kind,precision,m,n,k,time_us\ngemm,bf16,64,64,64,fast\n";
  std::ofstream(s.dir / "bad.yaml") << with_profile(", profile: { file: bad.csv, clock: \"1980 MHz\" }");
  const result r = run_ptsim(s.dir, "run bad.yaml -o bad.h5");
  CHECK(r.exit_code == 2);
  CHECK(r.err.find("bad.csv:2:20: column 'time_us': expected a time > 0, found 'fast'") != std::string::npos);
  CHECK(!fs::exists(s.dir / "bad.h5"));
  const result v = run_ptsim(s.dir, "validate bad.yaml");
  CHECK(v.exit_code == 2);
  CHECK(v.err.find("bad.csv:2:20") != std::string::npos);
}
