// The tile is the unit of booking (how finely initiators share a memory), not of timing: an
// operator streamed in 256 KiB tiles and the same operator in 4 MiB tiles take the same time.
//
// As test_tlm_memory_bound: memory 10 GB/s x 0.8 = 8e9 B/s, 100 ns; NoC 100 GB/s, 30 ns;
// 48 MiB read + 16 MiB written, negligible arithmetic. npu_fine books 256 tiles of 256 KiB
// at t = 0, npu_coarse 16 tiles of 4 MiB at t = 0.1 s (alone: the first ends at ~8.4 ms).
//   both: T = 5 us + 67108864 / 8e9 + 130 ns = 8.393738 ms
// Had every tile waited out the latency, the fine one would take 8.426888 ms and the coarse
// one 8.395688 ms, 0.37 % apart; here they agree to 1e-5.
// Near the ridge, with partial tiles: 48.5 MiB read + 16.25 MiB written (whole 256 KiB tiles;
// 13 + 5 tiles of 4 MiB, the last of each partial) and arithmetic for 0.8 of the memory time
// (5.2157e9 ops at 4 x 256 x 0.75 ops a cycle, 1 GHz: 6.7895 ms), at 0.2 s and 0.3 s. Each tile
// carries its bytes' share of the arithmetic, so the memory bounds every tile:
//   both: T = 5 us + 67895296 / 8e9 + 130 ns = 8.491917 ms
// (with an equal share per tile the coarse one's two partial tiles would wait for 2 x 0.377 ms
// of arithmetic instead of 0.098 ms of bytes: 7.7 % longer). Its 6.79 ms of work is 7 control
// periods of 1 ms, fewer than its 18 pieces of bytes, so the bytes cut it (test_tlm_stalls_io:
// an operator cut by time).
#include "sc_test.hpp"

using namespace sc_test;

TEST_CASE("an operator's time does not depend on its tile size, near the ridge with partial tiles too") {
  const double MiB = 1024.0 * 1024.0;
  const double read_B = 48 * MiB, written_B = 16 * MiB;
  const double expect = 5e-6 + (read_B + written_B) / (10e9 * 0.8) + 130e-9;

  platform_config pc = memory_system(100e9, 30e-9, 10e9, 0.8, 100e-9);
  pc.units.push_back(unit("npu_fine", "d0", 4, 256, 0.75));
  compute_unit_config coarse = unit("npu_coarse", "d0", 4, 256, 0.75);
  coarse.tile_bytes = 4 * MiB;
  pc.units.push_back(coarse);
  const op_graph g = one_op("copy", op_class::vector, 1000, read_B, written_B);
  const double ridge_read = 48.5 * MiB, ridge_written = 16.25 * MiB;
  const double ridge_mem_s = (ridge_read + ridge_written) / 8e9;
  const op_graph ridge = one_op("gemm", op_class::tensor, 0.8 * ridge_mem_s * 768e9, ridge_read, ridge_written);
  const double expect_ridge = 5e-6 + ridge_mem_s + 130e-9;
  workload_config wc;
  wc.streams.push_back(stream("fine", "npu_fine", g, 1.0, 0.0));
  wc.streams.push_back(stream("coarse", "npu_coarse", g, 1.0, 0.1));
  wc.streams.push_back(stream("fine_ridge", "npu_fine", ridge, 1.0, 0.2));
  wc.streams.push_back(stream("coarse_ridge", "npu_coarse", ridge, 1.0, 0.3));
  platform plat(pc, wc, {{"d0", {1e9, 0.8}}}, 1e-3, 1);
  sc_core::sc_start(sc_core::sc_time(0.5, sc_core::SC_SEC));

  const auto& recs = plat.workload().finished();
  REQUIRE(recs.size() == 4);
  // The same operator on both units: each at the closed form, and the two alike.
  const auto same_time = [&recs](const char* fine, const char* coarse, double expect_s) {
    CAPTURE(fine);
    const request_record* f = record_of(recs, fine);
    const request_record* c = record_of(recs, coarse);
    REQUIRE(f);
    REQUIRE(c);
    const double t_f = f->finish_s - f->start_s, t_c = c->finish_s - c->start_s;
    CHECK(t_f == near(expect_s).epsilon(5e-4));
    CHECK(t_c == near(expect_s).epsilon(5e-4));
    CHECK(t_f == near(t_c).epsilon(1e-5));
  };
  same_time("fine", "coarse", expect);
  same_time("fine_ridge", "coarse_ridge", expect_ridge);
  CHECK(plat.units()[0]->transactions() == 256 + 259);
  CHECK(plat.units()[1]->transactions() == 16 + 18);
}
