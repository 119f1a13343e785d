// Compute share and switching activity per operator kind and fusion rule set (op_efficiency
// `conv_eager`, op_activity `gemm_tensorrt`): an eager graph's convolutions take their own share
// of peak, a TensorRT graph's keep the kind's; a precision's own entry (`conv_fp16`) wins over
// the rule set's.
#include "sc_test.hpp"

#include <vector>

using namespace sc_test;

// Compute-bound time follows the share: 2e9 ops on 4 cores x 256 ops/cycle at 1 GHz =
// 1.953125 ms at share 1, so 6.5104 ms at 0.3 and 2.1701 ms at 0.9 (+ 5 us launch; the
// 1 KiB of traffic is negligible).
TEST_CASE("conv_eager, gemm_tensorrt: a rule set's own share and activity; else the kind's; a precision's own wins") {
  platform_config pc = memory_system(100e9, 30e-9, 10e9, 0.8, 100e-9);
  compute_unit_config u = unit("gpu", "d0", 4, 256, 0.75);
  u.ops_per_cycle[precision::fp16] = 256;
  u.op_efficiency[op_kind::conv] = 0.9;
  u.op_rules_efficiency[{op_kind::conv, fusion_rules::eager}] = 0.3;
  u.op_precision_efficiency[{op_kind::conv, precision::fp16}] = 0.5;
  u.op_activity[op_kind::gemm] = 0.9;
  u.op_rules_activity[{op_kind::gemm, fusion_rules::tensorrt}] = 1.2;
  u.op_precision_activity[{op_kind::gemm, precision::fp16}] = 0.7;
  pc.units.push_back(u);
  op_graph g = one_op("conv_eager", op_class::tensor, 2e9, 512, 512);
  g.ops[0].kind = op_kind::conv;
  g.ops[0].rules = fusion_rules::eager;
  g.ops.push_back(g.ops[0]);
  g.ops[1].name = "conv_trt";
  g.ops[1].rules = fusion_rules::tensorrt;
  const single_stream_run run = run_single_stream(pc, g, "gpu");
  const std::vector<op_record>& ops = run.ops;
  platform& plat = *run.plat;

  REQUIRE(g.ops[0].prec != precision::fp16);
  CHECK(plat.units()[0]->efficiency_for(g.ops[0]) == 0.3);
  CHECK(plat.units()[0]->efficiency_for(g.ops[1]) == 0.9);
  op fp16 = g.ops[0];
  fp16.prec = precision::fp16;
  CHECK(plat.units()[0]->efficiency_for(fp16) == 0.5);
  op gemm = g.ops[0];
  gemm.kind = op_kind::gemm;
  CHECK(plat.units()[0]->efficiency_for(gemm) == 0.75);
  // The activity its computing time is booked at resolves as the share does: at its
  // precision, then under its rule set, then for its kind, then 1.
  CHECK(plat.units()[0]->activity_for(gemm) == 0.9);  // an eager graph's GEMM: the kind's
  gemm.rules = fusion_rules::tensorrt;
  CHECK(plat.units()[0]->activity_for(gemm) == 1.2);
  gemm.prec = precision::fp16;
  CHECK(plat.units()[0]->activity_for(gemm) == 0.7);
  CHECK(plat.units()[0]->activity_for(g.ops[1]) == 1.0);  // a convolution: none given
  REQUIRE(ops.size() == 2);
  CHECK(ops[0].end_s - ops[0].start_s == near(5e-6 + 2e9 / (4 * 256 * 1e9 * 0.3)).epsilon(0.01));
  CHECK(ops[1].end_s - ops[1].start_s == near(5e-6 + 2e9 / (4 * 256 * 1e9 * 0.9)).epsilon(0.01));
  CHECK(ops[0].bound == bound_by::compute);
}
