// A training step's backward kernels at their own share of the forward's efficiency
// (compute_unit_config::backward_efficiency, per kind and per kind at one precision): the
// forward convolution keeps its time, the backward one (twice the arithmetic) takes
// 2 / share times it; a precision's own factor wins over the kind's.
#include "sc_test.hpp"

#include "ptsim/tlm_config/training.hpp"

#include <vector>

using namespace sc_test;

// Compute-bound: 2e9 ops on 4 cores x 256 ops/cycle at 1 GHz at share 0.5 = 3.90625 ms
// (+ 5 us launch; the 1 KiB of traffic is negligible). Its backward: 4e9 ops at 0.5 x 0.25
// (the fp32 factor; the kind's 0.8 is overridden) = 31.25 ms.
TEST_CASE("backward_efficiency: the backward convolution at its share of the forward's efficiency") {
  platform_config pc = memory_system(100e9, 30e-9, 10e9, 0.8, 100e-9);
  compute_unit_config u = unit("gpu", "d0", 4, 256, 0.75);
  u.ops_per_cycle[precision::fp32] = 256;
  u.op_efficiency[op_kind::conv] = 0.5;
  u.backward_efficiency[op_kind::conv] = 0.8;
  u.backward_precision_efficiency[{op_kind::conv, precision::fp32}] = 0.25;
  pc.units.push_back(u);
  op_graph fwd = one_op("conv", op_class::tensor, 2e9, 512, 512);
  fwd.ops[0].kind = op_kind::conv;
  fwd.ops[0].prec = precision::fp32;
  fwd.prec = precision::fp32;
  op_graph step = ptsim::tlm_config::training_step(fwd, {});
  // The forward and its backward only: no weights, so no optimiser step.
  REQUIRE(step.ops.size() == 2);
  REQUIRE(step.ops[1].backward);
  const single_stream_run run = run_single_stream(pc, step, "gpu");
  platform& plat = *run.plat;
  CHECK(plat.units()[0]->efficiency_for(step.ops[0]) == 0.5);
  CHECK(plat.units()[0]->efficiency_for(step.ops[1]) == near(0.125));
  op fp16_bwd = step.ops[1];
  fp16_bwd.prec = precision::fp16;  // no fp16 factor: the kind's
  CHECK(plat.units()[0]->efficiency_for(fp16_bwd) == near(0.4));
  op gemm_bwd = step.ops[1];
  gemm_bwd.kind = op_kind::gemm;  // no factor for the kind: the forward's share
  CHECK(plat.units()[0]->efficiency_for(gemm_bwd) == 0.75);
  const std::vector<op_record>& ops = run.ops;
  REQUIRE(ops.size() == 2);
  CHECK(ops[0].end_s - ops[0].start_s == near(5e-6 + 2e9 / (4 * 256 * 1e9 * 0.5)).epsilon(0.01));
  CHECK(ops[1].end_s - ops[1].start_s == near(5e-6 + 4e9 / (4 * 256 * 1e9 * 0.125)).epsilon(0.01));
  CHECK(ops[1].bound == bound_by::compute);
}
