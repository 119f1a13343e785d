// A unit with gemm_tiling times a GEMM of known shape from its tiles and waves (the
// cycles of tlm_config::fastest_tiling at the unit's clock), a GEMM without a shape and
// every other kind from its share of peak, as before.
#include "sc_test.hpp"

#include <vector>

using namespace sc_test;

// 4 cores x 256 int8 ops/cycle at 1 GHz, share 0.5, launch 5 us. Tiles 16x16 only, 64 B a
// cycle fed to a core, 200 cycles a wave, no split-K. A K step of a 16x16 tile:
// max(2*16*16/256 = 2, 32*1/64 = 0.5) = 2 cycles, 4 at share 0.5.
// GEMM 48 x 16 x 1024: 3 tiles on 4 cores, one wave: 4*1024 + 200 = 4296 cycles = 4.296 us.
// By share alone it would take 2*48*16*1024 / (4*256*0.5) = 3072 cycles: a quarter of the
// cores idle and the wave's fixed cycles make the difference.
// GEMM 80 x 16 x 1024: 5 tiles, two waves: 8592 cycles.
TEST_CASE("gemm_tiling: a GEMM of known shape takes its waves' cycles; others their share of peak") {
  platform_config pc = memory_system(100e9, 30e-9, 10e9, 0.8, 100e-9);
  compute_unit_config u = unit("gpu", "d0", 4, 256, 0.5);
  u.tiling.tiles = {{16, 16}};
  u.tiling.operand_bytes_per_cycle = 64;
  u.tiling.wave_cycles = 200;
  u.tiling.max_split_k = 1;
  pc.units.push_back(u);
  auto gemm = [](const std::string& name, double m, double n, double k) {
    op o;
    o.name = name;
    o.kind = op_kind::gemm;
    o.cls = op_class::tensor;
    o.prec = precision::int8;
    o.ops = 2 * m * n * k;
    o.bytes_read = 64;  // negligible traffic: the arithmetic bounds each
    o.bytes_written = 64;
    o.shape_m = m;
    o.shape_n = n;
    o.shape_k = k;
    return o;
  };
  op_graph g = one_op("x", op_class::tensor, 1, 64, 64);
  g.ops.clear();
  g.ops.push_back(gemm("one_wave", 48, 16, 1024));
  g.ops.push_back(gemm("two_waves", 80, 16, 1024));
  g.ops.push_back(gemm("no_shape", 48, 16, 1024));
  g.ops.back().shape_m = g.ops.back().shape_n = g.ops.back().shape_k = 0;
  g.ops.push_back(gemm("conv", 48, 16, 1024));
  g.ops.back().kind = op_kind::conv;
  const single_stream_run run = run_single_stream(pc, g, "gpu");
  const std::vector<op_record>& ops = run.ops;
  platform& plat = *run.plat;

  CHECK(plat.units()[0]->arithmetic_rate(g.ops[0]) == doctest::Approx(g.ops[0].ops / 4296.0));
  CHECK(plat.units()[0]->arithmetic_rate(g.ops[2]) == doctest::Approx(4 * 256 * 0.5));
  REQUIRE(ops.size() == 4);
  CHECK(ops[0].end_s - ops[0].start_s == near(5e-6 + 4296e-9).epsilon(0.01));
  CHECK(ops[1].end_s - ops[1].start_s == near(5e-6 + 8592e-9).epsilon(0.01));
  CHECK(ops[2].end_s - ops[2].start_s == near(5e-6 + 3072e-9).epsilon(0.01));
  CHECK(ops[3].end_s - ops[3].start_s == near(5e-6 + 3072e-9).epsilon(0.01));
  CHECK(ops[0].bound == bound_by::compute);
}
