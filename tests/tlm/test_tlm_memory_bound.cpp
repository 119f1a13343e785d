// Memory-bound operator: many bytes, almost no arithmetic.
//
// Memory: 10 GB/s peak x efficiency 0.8 = 8e9 B/s, 100 ns latency; NoC 100 GB/s, 30 ns.
// Operator: 48 MiB read + 16 MiB written = 64 MiB in 256 KiB tiles = 256 tiles, 1000 ops.
// Each tile is one transaction; the tiles stream back to back, so the path's latency
// (30 ns NoC + 100 ns DRAM) is waited out once, by the first. The NoC's own 2.6 us per tile
// runs alongside and is shorter. The arithmetic is negligible (1000/256 ops at 256 ops/cycle).
//   T = 5 us + 67108864 / 8e9 + 130 ns = 5 us + 8.388608 ms + 0.13 us = 8.393738 ms
// Each tile paying the latency would add 255 x 130 ns = 33.2 us (0.4 %): the checks below
// hold to 0.05 %. (test_tlm_tile_size: the time does not depend on the tile size.)
#include "sc_test.hpp"

#include <vector>

using namespace sc_test;

TEST_CASE("memory-bound time is bytes / (bandwidth * efficiency) plus the path's latency once") {
  const double MiB = 1024.0 * 1024.0;
  const double read_B = 48 * MiB, written_B = 16 * MiB;
  const double mem_Bps = 10e9 * 0.8;
  const double expect = 5e-6 + (read_B + written_B) / mem_Bps + (30e-9 + 100e-9);

  platform_config pc = memory_system(100e9, 30e-9, 10e9, 0.8, 100e-9);
  pc.units.push_back(unit("npu", "d0", 4, 256, 0.75));
  const op_graph g = one_op("copy", op_class::vector, 1000, read_B, written_B);
  const single_stream_run run = run_single_stream(pc, g, "npu");
  const std::vector<op_record>& ops = run.ops;
  platform& plat = *run.plat;

  const auto& recs = plat.workload().finished();
  REQUIRE(recs.size() == 1);
  const double took = recs[0].finish_s - recs[0].start_s;
  CHECK(took == near(expect).epsilon(5e-4));
  REQUIRE(ops.size() == 1);
  CHECK(ops[0].bound == bound_by::memory);
  CHECK(plat.units()[0]->memory_bound_s() == near(expect).epsilon(5e-4));

  // One transaction per tile, seen by the unit and by the memory.
  CHECK(plat.units()[0]->transactions() == 256);
  CHECK(plat.memories()[0]->transactions() == 256);
  CHECK(plat.transactions() == 256);
  // Every byte reaches the ledgers of the NoC and the memory, reads and writes apart.
  const auto m = total(plat.memories()[0]->ledger(), 20);
  CHECK(m.bytes_read == near(read_B));
  CHECK(m.bytes_written == near(written_B));
  const auto n = total(plat.interconnects()[0]->ledger(), 20);
  CHECK(n.bytes_read == near(read_B));
  CHECK(n.bytes_written == near(written_B));
  // The unit was busy the whole time: mostly stalled on memory.
  const auto u = total(plat.units()[0]->ledger(), 20);
  CHECK(u.busy_s() == near(expect).epsilon(5e-4));
  CHECK(u.stall_s > 0.99 * (u.busy_s() - u.overhead_s));
  CHECK(u.ops == near(1000));
}
