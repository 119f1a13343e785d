// A GPU's DRAM traffic passes its L2, which runs on the core clock: a streaming kernel moves
// at most l2_bytes_per_cycle x the clock, whatever the DRAM could give.
//
// As test_tlm_memory_clock: memory 10 GB/s peak, efficiency 0.8 (8 GB/s), 100 ns latency
// (waited once); NoC 100 GB/s, 30 ns; 64 MiB in 256 tiles of 256 KiB, negligible arithmetic;
// 5 us launch. Two units, each in its own domain at 1 GHz, then 3 GHz from 0.1 s; their
// requests never overlap, so neither waits for the other's bytes.
// Unit "l2" moves 4 B per cycle through its L2; requests at 0 and 0.2 s:
//   first:  the L2 gives 4 GB/s < 8: T = 5 us + 130 ns + 67108864 / 4e9 = 16.782346 ms
//   second: the L2 gives 12 GB/s > 8: T = 5 us + 130 ns + 67108864 / 8e9 =  8.393738 ms
// Unit "plain" has no L2 limit; requests at 0.05 and 0.25 s: both take the second's time.
#include "sc_test.hpp"

using namespace sc_test;

TEST_CASE("a GPU's L2 bounds its DRAM traffic at a low core clock") {
  const double MiB = 1024.0 * 1024.0;
  const double read_B = 48 * MiB, written_B = 16 * MiB;
  const double fixed = 5e-6 + (30e-9 + 100e-9);
  const double l2_bound = fixed + (read_B + written_B) / 4e9;
  const double dram_bound = fixed + (read_B + written_B) / 8e9;

  platform_config pc = memory_system(100e9, 30e-9, 10e9, 0.8, 100e-9);
  pc.units.push_back(unit("l2", "d0", 4, 256, 0.75));
  pc.units.back().l2_bytes_per_cycle = 4.0;
  pc.units.push_back(unit("plain", "d1", 4, 256, 0.75));
  const op_graph g = one_op("copy", op_class::vector, 1000, read_B, written_B);
  workload_config wc;
  wc.streams.push_back(stream("a", "l2", g, 5.0, 0.0));
  wc.streams.push_back(stream("b", "plain", g, 5.0, 0.05));
  platform plat(pc, wc, {{"d0", {1e9, 0.8}}, {"d1", {1e9, 0.8}}}, 1e-3, 1);
  plat.clock("d0").request(0.0, 3e9, 1.0, 0.1);  // 3 GHz from 0.1 s
  plat.clock("d1").request(0.0, 3e9, 1.0, 0.1);

  sc_core::sc_start(sc_core::sc_time(0.35, sc_core::SC_SEC));

  std::vector<double> a, b;
  for (const auto& r : plat.workload().finished()) (r.stream == "a" ? a : b).push_back(r.finish_s - r.start_s);
  REQUIRE(a.size() == 2);
  REQUIRE(b.size() == 2);
  CHECK(a[0] == near(l2_bound).epsilon(5e-4));
  CHECK(a[1] == near(dram_bound).epsilon(5e-4));
  CHECK(b[0] == near(dram_bound).epsilon(5e-4));
  CHECK(b[1] == near(dram_bound).epsilon(5e-4));
}
