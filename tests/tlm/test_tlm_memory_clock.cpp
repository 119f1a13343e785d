// Memory DVFS: a memory's bandwidth follows its clock (bus width x data rate, the data rate
// a fixed multiple of the clock), so a transfer at a lower memory clock takes longer.
//
// As test_tlm_memory_bound: memory 10 GB/s peak at its top clock 2 GHz, efficiency 0.8,
// 100 ns latency (waited once: the tiles stream back to back); NoC 100 GB/s, 30 ns; 64 MiB in
// 256 tiles of 256 KiB, negligible arithmetic.
// Requests arrive at 0 and 0.2 s. The memory clock starts at 1 GHz (half the top) and is
// switched to 2 GHz at 0.1 s, between the two requests:
//   first:  T = 5 us + 67108864 / (8e9 x 1/2) + 130 ns = 5 us + 16.777216 ms + 0.13 us = 16.782346 ms
//   second: T = 5 us + 67108864 / 8e9         + 130 ns = 5 us +  8.388608 ms + 0.13 us =  8.393738 ms
#include "sc_test.hpp"

using namespace sc_test;

TEST_CASE("a memory's transfer time follows its clock") {
  const double MiB = 1024.0 * 1024.0;
  const double read_B = 48 * MiB, written_B = 16 * MiB;
  const double fixed = 5e-6 + (30e-9 + 100e-9);
  const double slow = fixed + (read_B + written_B) / (8e9 * 0.5);
  const double fast = fixed + (read_B + written_B) / 8e9;

  platform_config pc = memory_system(100e9, 30e-9, 10e9, 0.8, 100e-9);
  pc.memories[0].domain = "mif";
  pc.memories[0].clock_max_hz = 2e9;
  pc.units.push_back(unit("npu", "d0", 4, 256, 0.75));
  const op_graph g = one_op("copy", op_class::vector, 1000, read_B, written_B);
  workload_config wc;
  wc.streams.push_back(stream("s", "npu", g, 5.0, 0.0));
  platform plat(pc, wc, {{"d0", {1e9, 0.8}}, {"mif", {1e9, 1.0}}}, 1e-3, 1);
  plat.clock("mif").request(0.0, 2e9, 1.0, 0.1);  // the top clock from 0.1 s

  sc_core::sc_start(sc_core::sc_time(0.35, sc_core::SC_SEC));

  const auto& recs = plat.workload().finished();
  REQUIRE(recs.size() == 2);
  CHECK(recs[0].finish_s - recs[0].start_s == near(slow).epsilon(5e-4));
  CHECK(recs[1].finish_s - recs[1].start_s == near(fast).epsilon(5e-4));
  // Both moved every byte: energy per byte does not depend on the clock.
  const auto m = total(plat.memories()[0]->ledger(), 400);
  CHECK(m.bytes_read == near(2 * read_B));
}
