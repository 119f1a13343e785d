// Memory efficiency per operator kind: an operator whose kind reaches a share e of the
// memory's reachable bandwidth holds it for bytes / e; the memory's ledger, which its
// energy is computed from (E_read * bytes_read + E_write * bytes_written), counts the
// bytes moved.
//
// Memory: 10 GB/s peak x efficiency 0.8 = 8e9 B/s, 100 ns latency; NoC 100 GB/s, 30 ns.
// Each operator: 48 MiB read + 16 MiB written = 64 MiB in 256 KiB tiles = 256 tiles, streamed
// back to back (the path's 130 ns latency waited out once, by the first tile).
//   attention (memory_efficiency 0.5): 5 us + 67108864 / (8e9 * 0.5) + 130 ns
//                                    = 5 us + 16.777216 ms + 0.13 us = 16.782346 ms
//   other (no entry, 1):               5 us + 8.388608 ms + 0.13 us = 8.393738 ms
// The NoC's 2.6 us per tile runs alongside and is shorter in both.
#include "sc_test.hpp"

#include <vector>

using namespace sc_test;

TEST_CASE("an operator kind at memory efficiency 0.5 takes twice the memory time; the bytes booked are real") {
  const double MiB = 1024.0 * 1024.0;
  const double read_B = 48 * MiB, written_B = 16 * MiB;
  const double mem_Bps = 10e9 * 0.8;
  const double half = 5e-6 + (read_B + written_B) / (mem_Bps * 0.5) + 130e-9;
  const double full = 5e-6 + (read_B + written_B) / mem_Bps + 130e-9;

  platform_config pc = memory_system(100e9, 30e-9, 10e9, 0.8, 100e-9);
  compute_unit_config u = unit("npu", "d0", 4, 256, 0.75);
  u.memory_efficiency[op_kind::attention] = 0.5;
  pc.units.push_back(u);
  op_graph g = one_op("kv_read", op_class::vector, 1000, read_B, written_B);
  g.ops[0].kind = op_kind::attention;
  g.ops.push_back(one_op("copy", op_class::vector, 1000, read_B, written_B).ops[0]);
  g.ops[1].kind = op_kind::other;
  const single_stream_run run = run_single_stream(pc, g, "npu");
  const std::vector<op_record>& ops = run.ops;
  platform& plat = *run.plat;

  REQUIRE(ops.size() == 2);
  CHECK(ops[0].end_s - ops[0].start_s == near(half).epsilon(5e-4));
  CHECK(ops[1].end_s - ops[1].start_s == near(full).epsilon(5e-4));
  CHECK(ops[0].bound == bound_by::memory);
  CHECK(plat.units()[0]->memory_efficiency_for(g.ops[0]) == 0.5);
  CHECK(plat.units()[0]->memory_efficiency_for(g.ops[1]) == 1.0);
  // The memory and the NoC book the bytes moved, not the time-equivalent bytes.
  const auto m = total(plat.memories()[0]->ledger(), 40);
  CHECK(m.bytes_read == near(2 * read_B));
  CHECK(m.bytes_written == near(2 * written_B));
  const auto n = total(plat.interconnects()[0]->ledger(), 40);
  CHECK(n.bytes_read == near(2 * read_B));
  CHECK(n.bytes_written == near(2 * written_B));
}

