// Compute share per operator kind and precision (op_efficiency `gemm_fp8`): FP8 GEMMs take
// their own share of peak; GEMMs at another precision keep the kind's, other kinds the unit's.
#include "sc_test.hpp"

#include <vector>

using namespace sc_test;

// Compute-bound time follows the share:
// 2e9 ops on 4 cores x 256 ops/cycle at 1 GHz = 1.953125 ms at share 1, so 4.8828 ms at 0.4
// and 2.6042 ms at 0.75 (+ 5 us launch; the 1 KiB of traffic is negligible).
TEST_CASE("gemm_fp8: FP8 GEMMs take their own share of peak; int8 GEMMs and other kinds do not") {
  platform_config pc = memory_system(100e9, 30e-9, 10e9, 0.8, 100e-9);
  pc.units.push_back(fp8_gemm_unit("npu"));
  op_graph g = one_op("gemm8", op_class::tensor, 2e9, 512, 512);
  g.ops[0].kind = op_kind::gemm;
  g.ops[0].prec = precision::fp8;
  g.ops.push_back(g.ops[0]);
  g.ops[1].name = "gemm_int8";
  g.ops[1].prec = precision::int8;
  const single_stream_run run = run_single_stream(pc, g, "npu");
  const std::vector<op_record>& ops = run.ops;
  platform& plat = *run.plat;

  CHECK(plat.units()[0]->efficiency_for(g.ops[0]) == 0.4);
  CHECK(plat.units()[0]->efficiency_for(g.ops[1]) == 0.75);
  op conv = g.ops[0];
  conv.kind = op_kind::conv;
  CHECK(plat.units()[0]->efficiency_for(conv) == 0.75);
  REQUIRE(ops.size() == 2);
  CHECK(ops[0].end_s - ops[0].start_s == near(5e-6 + 2e9 / (4 * 256 * 1e9 * 0.4)).epsilon(0.01));
  CHECK(ops[1].end_s - ops[1].start_s == near(5e-6 + 2e9 / (4 * 256 * 1e9 * 0.75)).epsilon(0.01));
  CHECK(ops[0].bound == bound_by::compute);
}
