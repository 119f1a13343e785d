// Fusion and memory efficiency through `ptsim run`: the fused kernel in the result's ops
// table under its '+'-joined name and with the time its bytes take, an operator kind at
// memory efficiency 0.5 taking twice as long while the DRAM's energy counts the same bytes;
// an operator kind at op_activity 0.25 taking as long at a quarter of the unit's energy.
#include <doctest/doctest.h>

#include "relative_approx.hpp"

#include <fstream>
#include <map>
#include <string>

#include "ptsim/postproc/result_file.hpp"
#include "run_ptsim.hpp"

using namespace e2e;
using ptsim::postproc::result_reader;

namespace {

// An NPU behind a 1 TB/s NoC on a 10 GB/s memory (efficiency 1, latency 0, 100 pJ/B, no
// background power); no launch overhead; 1 MiB tiles (each tile's 30 ns NoC latency adds
// well under 1 %). One request at t = 0 runs: conv (reads 8 MB, writes 8 MB), add (reads
// the conv's 8 MB and an 8 MB shortcut, writes 8 MB), out (reads 8 MB). Memory-bound:
//   eager:    conv 16 MB / 10 GB/s = 1.6 ms, add 24 MB -> 2.4 ms, out 0.8 ms
//   tensorrt: conv+add reads 16 MB, writes 8 MB -> 2.4 ms (the 8 MB written and read back
//             by the unfused pair, 1.6 ms, are gone); out 0.8 ms
//   eager with memory_efficiency.elementwise 0.5: add 4.8 ms; the DRAM still moves
//   16 + 24 + 8 = 48 MB = 4.8 mJ at 100 pJ/B, as in the eager run; fused: 24 + 8 = 32 MB.
const char* fusion_scenario_yaml = R"(name: fusion-e2e
duration: "100 ms"
control_period: "1 ms"
record_period: "10 ms"
platform:
  domains:
    d: { opps: [ { freq: "1 GHz", volt: "1 V" } ] }
  components:
    npu: { kind: npu, domain: d, connect: noc, ops_per_cycle: { int8: 1000 }, c_eff: "1e-30 F",
           launch_overhead: "0 s", tile: "1 MiB" }
    noc: { kind: noc, connect: mem, bandwidth: "1 TB/s", latency: "30 ns" }
    mem: { kind: lpddr, bandwidth: "10 GB/s", efficiency: 1, latency: "0 s",
           energy_per_byte_read: "100 pJ/B", energy_per_byte_write: "100 pJ/B" }
workload:
  streams:
    s: { arrival: { kind: fixed_rate, rate: "1 Hz" }, precision: int8, stages: [ { unit: npu, graph: g.yaml } ] }
thermal:
  ambient: "25 degC"
  floorplan:
    - { name: npu, x: "0 mm", y: "0 mm", width: "2 mm", height: "2 mm" }
    - { name: noc, x: "2 mm", y: "0 mm", width: "1 mm", height: "2 mm" }
    - { name: mem, x: "3 mm", y: "0 mm", width: "2 mm", height: "2 mm" }
policy: { governor: performance }
)";

const char* graph_yaml = R"(ops:
  - { name: conv, kind: conv, flops: 1000, bytes_read: 8e6, bytes_written: 8e6 }
  - { name: add, kind: elementwise, flops: 1000, bytes_read: 16e6, bytes_written: 8e6 }
  - { name: out, kind: other, flops: 1000, bytes_read: 8e6 }
)";

std::map<std::string, double> op_seconds(const result_reader& f) {
  std::map<std::string, double> out;
  for (const auto& r : f.ops().rows) out[r.op] += r.end_s - r.start_s;
  return out;
}

double energy_J(const result_reader& f, const std::string& component) {
  const auto comps = f.coord("component");
  std::size_t c = 0;
  while (c < comps.size() && comps[c] != component) ++c;
  REQUIRE(c < comps.size());
  std::size_t nc = 0;
  const auto power = f.variable("power", &nc);
  double sum = 0;
  for (std::size_t k = 0; k < power.size() / nc; ++k) sum += power[k * nc + c];
  return sum * f.record_period_s();
}

}  // namespace

TEST_CASE("ptsim run: a tensorrt unit runs conv+add as one kernel; memory efficiency 0.5 doubles a kind's time, not its energy") {
  scratch s("fusion");
  std::ofstream(s.dir / "g.yaml") << graph_yaml;
  std::ofstream(s.dir / "f.yaml") << fusion_scenario_yaml;
  result r = run_ptsim(s.dir, "run f.yaml -q -o eager.h5");
  REQUIRE_MESSAGE(r.exit_code == 0, r.err);
  r = run_ptsim(s.dir, "run f.yaml -q -o trt.h5 --set platform.components.npu.fusion=tensorrt");
  REQUIRE_MESSAGE(r.exit_code == 0, r.err);
  r = run_ptsim(s.dir, "run f.yaml -q -o slow.h5 --set platform.components.npu.memory_efficiency.elementwise=0.5");
  REQUIRE_MESSAGE(r.exit_code == 0, r.err);

  const auto eager = op_seconds(result_reader(s.dir / "eager.h5"));
  CHECK(eager.at("conv") == ptsim_test::Approx(1.6e-3).epsilon(0.01));
  CHECK(eager.at("add") == ptsim_test::Approx(2.4e-3).epsilon(0.01));
  const auto trt = op_seconds(result_reader(s.dir / "trt.h5"));
  REQUIRE(trt.count("conv+add") == 1);
  CHECK(trt.count("conv") == 0);
  CHECK(trt.at("conv+add") == ptsim_test::Approx(2.4e-3).epsilon(0.01));
  CHECK(trt.at("out") == ptsim_test::Approx(0.8e-3).epsilon(0.01));
  const auto slow = op_seconds(result_reader(s.dir / "slow.h5"));
  CHECK(slow.at("add") == ptsim_test::Approx(4.8e-3).epsilon(0.01));
  CHECK(slow.at("conv") == ptsim_test::Approx(1.6e-3).epsilon(0.01));

  // DRAM energy: 48 MB x 100 pJ/B = 4.8 mJ unfused, at either memory efficiency; fused 32 MB.
  CHECK(energy_J(result_reader(s.dir / "eager.h5"), "mem") == ptsim_test::Approx(4.8e-3).epsilon(1e-6));
  CHECK(energy_J(result_reader(s.dir / "slow.h5"), "mem") == ptsim_test::Approx(4.8e-3).epsilon(1e-6));
  CHECK(energy_J(result_reader(s.dir / "trt.h5"), "mem") == ptsim_test::Approx(3.2e-3).epsilon(1e-6));

  // The report names the fused kernel among the heaviest operators.
  const result rep = run_ptsim(s.dir, "report trt.h5");
  REQUIRE_MESSAGE(rep.exit_code == 0, rep.err);
  CHECK(rep.out.find("where the time went by operator") != std::string::npos);
  CHECK(rep.out.find("conv+add") != std::string::npos);
}

TEST_CASE("ptsim run: a GEMM at op_activity 0.25 (1.5) takes as long and draws a quarter (1.5x) of the unit's dynamic energy; a precision's share wins") {
  // The NPU above with c_eff 1 nF at 1 GHz and 1 V (1 W while computing at activity 1, no
  // leakage), running one compute-bound GEMM (1e9 operations, 1 kB read: its memory time,
  // ~130 ns, is hidden under the arithmetic). Its energy is 1 W x the GEMM's time x activity.
  scratch s("activity");
  std::string text = fusion_scenario_yaml;
  const std::string tiny = "c_eff: \"1e-30 F\"";
  text.replace(text.find(tiny), tiny.size(), "c_eff: \"1 nF\"");
  std::ofstream(s.dir / "g.yaml") << "ops:\n  - { name: mm, kind: gemm, flops: 1e9, bytes_read: 1e3, bytes_written: 1e3 }\n";
  std::ofstream(s.dir / "f.yaml") << text;
  result r = run_ptsim(s.dir, "run f.yaml -q -o full.h5");
  REQUIRE_MESSAGE(r.exit_code == 0, r.err);
  r = run_ptsim(s.dir, "run f.yaml -q -o quarter.h5 --set platform.components.npu.op_activity.gemm=0.25");
  REQUIRE_MESSAGE(r.exit_code == 0, r.err);
  const result_reader full(s.dir / "full.h5"), quarter(s.dir / "quarter.h5");
  const double t = op_seconds(full).at("mm");
  CHECK(t > 1e-3);  // 1e9 / (1000 x 1 GHz x the NPU's efficiency): ~1.4 ms
  CHECK(op_seconds(quarter).at("mm") == ptsim_test::Approx(t).epsilon(1e-9));
  CHECK(energy_J(full, "npu") == ptsim_test::Approx(1.0 * t).epsilon(0.005));
  CHECK(energy_J(quarter, "npu") == ptsim_test::Approx(0.25 * t).epsilon(0.005));
  // Above 1: kernels that toggle more than the work c_eff describes.
  r = run_ptsim(s.dir, "run f.yaml -q -o more.h5 --set platform.components.npu.op_activity.gemm=1.5");
  REQUIRE_MESSAGE(r.exit_code == 0, r.err);
  const result_reader more(s.dir / "more.h5");
  CHECK(op_seconds(more).at("mm") == ptsim_test::Approx(t).epsilon(1e-9));
  CHECK(energy_J(more, "npu") == ptsim_test::Approx(1.5 * t).epsilon(0.005));
  // A share for the kind at the stream's precision (int8) wins over the kind's; one for another
  // precision does not apply.
  r = run_ptsim(s.dir, "run f.yaml -q -o int8.h5 --set platform.components.npu.op_activity.gemm=0.5"
                       " --set platform.components.npu.op_activity.gemm_int8=0.25");
  REQUIRE_MESSAGE(r.exit_code == 0, r.err);
  r = run_ptsim(s.dir, "run f.yaml -q -o fp16.h5 --set platform.components.npu.op_activity.gemm=0.5"
                       " --set platform.components.npu.op_activity.gemm_fp16=0.25");
  REQUIRE_MESSAGE(r.exit_code == 0, r.err);
  CHECK(energy_J(result_reader(s.dir / "int8.h5"), "npu") == ptsim_test::Approx(0.25 * t).epsilon(0.005));
  CHECK(energy_J(result_reader(s.dir / "fp16.h5"), "npu") == ptsim_test::Approx(0.5 * t).epsilon(0.005));
}
