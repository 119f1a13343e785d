// A unit's `overlap` per operator kind: per tile, max(compute, memory) + (1 - overlap) x
// min(compute, memory); a kind without an entry runs the roofline, max(compute, memory).
//
// Unit: 4 cores x 256 int8 ops/cycle x efficiency 0.75 at 1 GHz = 768e9 ops/s; launch 5 us.
// Memory: 10 GB/s x 0.8 = 8e9 B/s, 100 ns; NoC 100 GB/s, 30 ns (shorter, runs alongside).
// Each operator reads 64 MiB in 256 KiB tiles: 256 tiles of 32.768 us + 130 ns = 32.898 us.
//   compute-heavy: 65.536 us of arithmetic a tile, overlap 0.25:
//     5 us + 256 x (65.536 + 0.75 x 32.898) us = 23.0986 ms  (the roofline: 16.7822 ms)
//   memory-heavy: 16.384 us a tile: 5 us + 256 x (32.898 + 0.75 x 16.384) us = 11.5726 ms
//   the compute-heavy one as kind `other` (no entry): 5 us + 256 x 65.536 us = 16.7822 ms
// The same unit has op_activity 0.25 for gemm: of the GEMMs' computing seconds (256 x
// (65.536 + 16.384) us = 20.9715 ms) 0.75 are booked quiet; `other`'s none.
#include "sc_test.hpp"

#include <vector>

using namespace sc_test;

TEST_CASE("gemm overlap 0.25: a tile takes the longer of its arithmetic and memory times plus 3/4 of the shorter; "
          "gemm op_activity 0.25: 3/4 of its computing time quiet") {
  const double MiB = 1024.0 * 1024.0, tiles = 256, rate = 768e9;
  const double mem_tile = 256 * 1024 / 8e9 + 130e-9;
  const double heavy_tile = 2 * 32.768e-6, light_tile = 0.5 * 32.768e-6;
  const double heavy = 5e-6 + tiles * (heavy_tile + 0.75 * mem_tile);
  const double light = 5e-6 + tiles * (mem_tile + 0.75 * light_tile);
  const double roofline = 5e-6 + tiles * heavy_tile;

  platform_config pc = memory_system(100e9, 30e-9, 10e9, 0.8, 100e-9);
  compute_unit_config u = unit("npu", "d0", 4, 256, 0.75);
  u.overlap[op_kind::gemm] = 0.25;
  u.op_activity[op_kind::gemm] = 0.25;
  pc.units.push_back(u);
  op_graph g = one_op("heavy", op_class::tensor, tiles * heavy_tile * rate, 64 * MiB, 0);
  g.ops.push_back(one_op("light", op_class::tensor, tiles * light_tile * rate, 64 * MiB, 0).ops[0]);
  g.ops.push_back(one_op("other", op_class::tensor, tiles * heavy_tile * rate, 64 * MiB, 0).ops[0]);
  g.ops[0].kind = g.ops[1].kind = op_kind::gemm;  // the third stays op_kind::other
  const single_stream_run run = run_single_stream(pc, g, "npu");
  const std::vector<op_record>& ops = run.ops;
  platform& plat = *run.plat;

  REQUIRE(ops.size() == 3);
  CHECK(ops[0].end_s - ops[0].start_s == near(heavy).epsilon(0.005));
  CHECK(ops[1].end_s - ops[1].start_s == near(light).epsilon(0.005));
  CHECK(ops[0].bound == bound_by::compute);
  CHECK(ops[1].bound == bound_by::memory);
  CHECK(ops[2].end_s - ops[2].start_s == near(roofline).epsilon(0.005));
  CHECK(plat.units()[0]->overlap_for(g.ops[2]) == 1.0);
  CHECK(plat.units()[0]->activity_for(g.ops[2]) == 1.0);
  const period_activity a = total(plat.units()[0]->ledger(), 500);
  CHECK(a.compute_s == near(tiles * (heavy_tile + light_tile + heavy_tile)).epsilon(1e-9));
  CHECK(a.quiet_s == near(0.75 * tiles * (heavy_tile + light_tile)).epsilon(1e-9));
}
