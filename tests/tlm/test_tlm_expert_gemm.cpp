// An MoE's grouped GEMMs (op kind expert_gemm) through the simulator: they take a unit's
// gemm settings (share of peak at a precision, activity, overlap, memory efficiency) unless
// the unit gives their own.
#include "sc_test.hpp"

using namespace sc_test;

// Three units: one with gemm settings only, one with expert_gemm's own, one with a kind-wide
// expert_gemm share. The grouped GEMM (2e9 FP8 ops, compute-bound) run on the first takes
// gemm_fp8's 0.4: 2e9 / (4 x 256 x 1 GHz x 0.4) = 4.8828 ms, + 5 us launch.
TEST_CASE("expert_gemm takes gemm's share of peak, activity and overlap unless it has its own") {
  platform_config pc = memory_system(100e9, 30e-9, 10e9, 0.8, 100e-9);
  compute_unit_config u = fp8_gemm_unit("npu");
  u.op_activity[op_kind::gemm] = 0.8;
  u.overlap[op_kind::gemm] = 0.3;
  u.memory_efficiency[op_kind::gemm] = 0.9;
  pc.units.push_back(u);
  u.name = "npu_own";
  u.op_precision_efficiency[{op_kind::expert_gemm, precision::fp8}] = 0.2;
  u.op_activity[op_kind::expert_gemm] = 0.6;
  u.overlap[op_kind::expert_gemm] = 0;
  u.memory_efficiency[op_kind::expert_gemm] = 0.5;
  pc.units.push_back(u);
  compute_unit_config k = pc.units[0];
  k.name = "npu_kind";
  k.op_efficiency[op_kind::expert_gemm] = 0.3;
  pc.units.push_back(k);
  op_graph g = one_op("experts", op_class::tensor, 2e9, 512, 512);
  g.ops[0].kind = op_kind::expert_gemm;
  g.ops[0].prec = precision::fp8;
  const single_stream_run run = run_single_stream(pc, g, "npu");
  const compute_unit& fallback = *run.plat->units()[0];
  const compute_unit& own = *run.plat->units()[1];
  CHECK(fallback.efficiency_for(g.ops[0]) == 0.4);
  CHECK(fallback.activity_for(g.ops[0]) == 0.8);
  CHECK(fallback.overlap_for(g.ops[0]) == 0.3);
  CHECK(fallback.memory_efficiency_for(g.ops[0]) == 0.9);
  CHECK(own.efficiency_for(g.ops[0]) == 0.2);
  CHECK(own.activity_for(g.ops[0]) == 0.6);
  CHECK(own.overlap_for(g.ops[0]) == 0);
  CHECK(own.memory_efficiency_for(g.ops[0]) == 0.5);
  // A kind-wide expert_gemm entry beats gemm's precision-specific one; at a precision
  // neither kind has an entry for, the unit's share.
  CHECK(run.plat->units()[2]->efficiency_for(g.ops[0]) == 0.3);
  op other = g.ops[0];
  other.prec = precision::int8;
  CHECK(own.efficiency_for(other) == 0.75);
  REQUIRE(run.ops.size() == 1);
  CHECK(run.ops[0].end_s - run.ops[0].start_s == near(5e-6 + 2e9 / (4 * 256 * 1e9 * 0.4)).epsilon(0.01));
}
