// Host work (README "Request streams, batching, serving") end to end through `ptsim run` and
// the HDF5 file: a stage's per-step host time on a host CPU, synchronous and asynchronous,
// its busy time and its energy by hand; the llm stream's host keys through the schema.
#include <doctest/doctest.h>

#include "relative_approx.hpp"

#include <fstream>

#include "ptsim/postproc/result_file.hpp"
#include "result_lookup.hpp"
#include "run_ptsim.hpp"

using namespace e2e;
using ptsim::postproc::result_reader;

namespace {

// An accelerator `acc` runs one 1 ms operator per request (1e9 ops at 1000 ops/cycle,
// 1 GHz, efficiency 1, no launch cost); its only power is a constant 1 W leakage (voltage
// exponent 0, doubling 1e9 K; c_eff 1e-30 F). The host CPU `host` (4 cores) has no leakage
// and c_eff 1 nF: at 1 V and 1 GHz a fully busy unit draws 1 nF x 1 V^2 x 1 GHz = 1 W, so
// host work on one core of four draws 0.25 W. Requests at 5, 15, ..., 995 ms: 100 steps,
// each with `step` of host work.
std::string scenario(const std::string& host) {
  return R"(name: host-e2e
duration: "1 s"
control_period: "1 ms"
record_period: "10 ms"
platform:
  domains:
    d: { opps: [ { freq: "1 GHz", volt: "1 V" } ] }
  components:
    acc: { kind: cpu_cluster, domain: d, connect: noc, ops_per_cycle: { fp32: 1000 }, efficiency: 1,
           launch_overhead: "0 s", c_eff: "1e-30 F",
           leakage: { power: "1 W", v_ref: "1 V", t_ref: "25 degC", doubling: "1e9 K", v_exponent: 0 } }
    host: { kind: cpu_cluster, domain: d, connect: noc, cores: 4, ops_per_cycle: { fp32: 16 }, c_eff: "1 nF" }
    noc: { kind: noc, connect: mem, bandwidth: "10 GB/s" }
    mem: { kind: lpddr, bandwidth: "10 GB/s" }
workload:
  streams:
    s: { arrival: { kind: fixed_rate, rate: "100 Hz", start: "5 ms" }, precision: fp32,
         stages: [ { unit: acc, graph: one_ms.yaml)" +
         host + R"( } ] }
thermal:
  ambient: "25 degC"
  floorplan:
    - { name: acc, x: "0 mm", y: "0 mm", width: "2 mm", height: "2 mm" }
    - { name: host, x: "2 mm", y: "0 mm", width: "2 mm", height: "2 mm" }
    - { name: noc, x: "4 mm", y: "0 mm", width: "1 mm", height: "2 mm" }
    - { name: mem, x: "5 mm", y: "0 mm", width: "2 mm", height: "2 mm" }
policy: { governor: performance }
)";
}

void write(const fs::path& p, const std::string& text) { std::ofstream(p) << text; }


double host_busy(const result_reader& f) {
  for (const auto& u : f.unit_summary())
    if (u.unit == "host") return u.compute_bound_s;
  FAIL("no host row in unit_summary");
  return 0;
}

}  // namespace

TEST_CASE("per-step host work: synchronous adds it, asynchronous overlaps it; busy time and energy by hand") {
  scratch s("hostwork");
  write(s.dir / "one_ms.yaml", "ops:\n  - { name: work, kind: gemm, flops: 1000000000 }\n");

  // No host work: 1 ms per request; energy = acc's 1 W for 1 s (the host draws nothing).
  write(s.dir / "none.yaml", scenario(""));
  REQUIRE(run_ptsim(s.dir, "run none.yaml -q -o none.h5").exit_code == 0);
  result_reader none(s.dir / "none.h5");
  CHECK(metric(none, "latency_p50_s") == ptsim_test::Approx(1e-3).epsilon(1e-9));
  CHECK(metric(none, "energy_J") == ptsim_test::Approx(1.0).epsilon(1e-6));
  CHECK(host_busy(none) == 0.0);

  // Synchronous 2 ms per step: latency 2 + 1 = 3 ms; the host busy 100 x 2 ms = 0.2 s on one
  // core of four: 0.2 s x 0.25 W = 0.05 J on top of the accelerator's 1 J.
  write(s.dir / "sync.yaml", scenario(", host: { unit: host, per_step: \"2 ms\" }"));
  const result r = run_ptsim(s.dir, "run sync.yaml -q -o sync.h5");
  REQUIRE_MESSAGE(r.exit_code == 0, r.err);
  result_reader sync(s.dir / "sync.h5");
  CHECK(metric(sync, "latency_p50_s") == ptsim_test::Approx(3e-3).epsilon(1e-9));
  CHECK(host_busy(sync) == ptsim_test::Approx(0.2).epsilon(1e-9));
  CHECK(metric(sync, "energy_J") == ptsim_test::Approx(1.05).epsilon(1e-6));
  // Each step's jobs row carries its host time too: 100 rows of 10 mJ (acc's 1 J over its
  // 100 busy ms) + 0.5 mJ (the host's 0.05 J over its 200 busy ms, 2 ms each).
  const auto jobs = sync.jobs();
  REQUIRE(jobs.size() == 100);
  for (const auto& j : jobs) CHECK(j.energy_J == ptsim_test::Approx(10.5e-3).epsilon(1e-6));

  // Asynchronous: 0.5 ms of host work under a 1 ms step adds nothing; 2 ms makes the step
  // take the host's 2 ms. Two cores of four: 0.5 W while busy, 0.1 J for 0.2 s.
  write(s.dir / "hidden.yaml", scenario(", host: { unit: host, per_step: \"0.5 ms\", scheduling: asynchronous }"));
  REQUIRE(run_ptsim(s.dir, "run hidden.yaml -q -o hidden.h5").exit_code == 0);
  result_reader hidden(s.dir / "hidden.h5");
  CHECK(metric(hidden, "latency_p50_s") == ptsim_test::Approx(1e-3).epsilon(1e-9));
  CHECK(host_busy(hidden) == ptsim_test::Approx(0.05).epsilon(1e-9));
  CHECK(metric(hidden, "energy_J") == ptsim_test::Approx(1.0 + 0.05 * 0.25).epsilon(1e-6));
  write(s.dir / "async.yaml", scenario(", host: { unit: host, per_step: \"2 ms\", scheduling: asynchronous, cores: 2 }"));
  REQUIRE(run_ptsim(s.dir, "run async.yaml -q -o async.h5").exit_code == 0);
  result_reader async(s.dir / "async.h5");
  CHECK(metric(async, "latency_p50_s") == ptsim_test::Approx(2e-3).epsilon(1e-9));
  CHECK(host_busy(async) == ptsim_test::Approx(0.2).epsilon(1e-9));
  CHECK(metric(async, "energy_J") == ptsim_test::Approx(1.1).epsilon(1e-6));
}

TEST_CASE("llm host keys: through the schema, with units; a wrong unit or key is refused before anything runs") {
  scratch s("hostkeys");
  const std::string yaml = PTSIM_SOURCE_DIR "/validation/mlenergy-h100-llama31-70b-vllm/scenario.yaml";
  const std::string base = "run " + yaml +
                           " -q --set 'duration=1 s' --set workload.streams.chat.arrival.users=8"
                           " --set workload.streams.chat.batching.max_batch=8 ";
  const result ok = run_ptsim(s.dir, base + "-o ok.h5 --set 'workload.streams.chat.llm.host.per_iteration=1 ms' "
                                              "--set 'workload.streams.chat.llm.host.per_sequence=10 us' "
                                              "--set workload.streams.chat.llm.host.scheduling=asynchronous "
                                              "--set workload.streams.chat.llm.host.cuda_graphs=true "
                                              "--set 'workload.streams.chat.llm.host.graph_launch=3 us'");
  REQUIRE_MESSAGE(ok.exit_code == 0, ok.err);
  // The default host is the preset's first cpu_cluster, cpu0: busy for the engine's work.
  result_reader f(s.dir / "ok.h5");
  double cpu0 = -1;
  for (const auto& u : f.unit_summary())
    if (u.unit == "cpu0") cpu0 = u.compute_bound_s;
  CHECK(cpu0 > 0);
  const result bad_unit = run_ptsim(s.dir, base + "-o bad.h5 --set 'workload.streams.chat.llm.host.per_token=3 W'");
  CHECK(bad_unit.exit_code == 2);
  CHECK(bad_unit.err.find("per_token") != std::string::npos);
  const result bad_key = run_ptsim(s.dir, base + "-o bad.h5 --set 'workload.streams.chat.llm.host.per_iteraton=1 ms'");
  CHECK(bad_key.exit_code == 2);
  CHECK(bad_key.err.find("per_iteration") != std::string::npos);  // the nearest valid key
  const result no_such = run_ptsim(s.dir, base + "-o bad.h5 --set workload.streams.chat.llm.host.unit=cpu9");
  CHECK(no_such.exit_code == 2);
  CHECK(no_such.err.find("cpu9") != std::string::npos);
  CHECK(!fs::exists(s.dir / "bad.h5"));
}
