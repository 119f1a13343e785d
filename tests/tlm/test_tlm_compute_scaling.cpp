// Compute-bound scaling: one large tensor operator with a few bytes on two identical
// units in two DVFS domains, at f = 1 GHz and 2f = 2 GHz, run side by side.
//
// Each unit: 4 cores x 256 int8 ops/cycle x efficiency 0.75 = 768 ops/cycle.
// Operator: 7.68e9 ops, 8 KiB of traffic (one tile).
//   arithmetic at f:  7.68e9 / (768 * 1e9) = 10 ms;  at 2f: 5 ms
//   memory, one tile: 30 ns + 100 ns + 8192 B / 8e9 B/s = 1.15 us  (well below: compute-bound)
//   launch overhead:  5 us
// => T(f) = 10.005 ms, T(2f) = 5.005 ms, and T - overhead scales as 1/f.
#include "sc_test.hpp"

#include <vector>

using namespace sc_test;

TEST_CASE("compute-bound time scales as 1/f") {
  const double f = 1e9, overhead = 5e-6, ops = 7.68e9, peak = 4 * 256 * 0.75;
  const double expect_f = overhead + ops / (peak * f);        // 10.005 ms
  const double expect_2f = overhead + ops / (peak * 2 * f);   //  5.005 ms

  platform_config pc = memory_system(100e9, 30e-9, 10e9, 0.8, 100e-9);
  pc.units.push_back(unit("npu_f", "d_f", 4, 256, 0.75));
  pc.units.push_back(unit("npu_2f", "d_2f", 4, 256, 0.75));
  const op_graph g = one_op("gemm", op_class::tensor, ops, 4096, 4096);
  workload_config wc;
  wc.streams.push_back(stream("at_f", "npu_f", g, 1.0, 0.0));
  wc.streams.push_back(stream("at_2f", "npu_2f", g, 1.0, 0.0));

  const double control_period = 1e-3;
  platform plat(pc, wc, {{"d_f", {f, 0.8}}, {"d_2f", {2 * f, 1.0}}}, control_period, 1);
  std::vector<op_record> ops_f, ops_2f;
  plat.units()[0]->on_op = [&](const op_record& r) { ops_f.push_back(r); };
  plat.units()[1]->on_op = [&](const op_record& r) { ops_2f.push_back(r); };

  sc_core::sc_start(sc_core::sc_time(0.5, sc_core::SC_SEC));  // one request per stream (rate 1 Hz)

  const auto& recs = plat.workload().finished();
  REQUIRE(recs.size() == 2);
  const request_record* rf = record_of(recs, "at_f");
  const request_record* r2f = record_of(recs, "at_2f");
  REQUIRE(rf);
  REQUIRE(r2f);
  const double t_f = rf->finish_s - rf->start_s, t_2f = r2f->finish_s - r2f->start_s;
  CHECK(rf->start_s == 0.0);
  CHECK(t_f == near(expect_f).epsilon(0.01));
  CHECK(t_2f == near(expect_2f).epsilon(0.01));
  // Arithmetic time halves when the frequency doubles.
  CHECK((t_f - overhead) / (t_2f - overhead) == near(2.0).epsilon(0.01));

  // The operator reports itself compute-bound with the same span.
  REQUIRE(ops_f.size() == 1);
  REQUIRE(ops_2f.size() == 1);
  CHECK(ops_f[0].bound == bound_by::compute);
  CHECK(ops_2f[0].bound == bound_by::compute);
  CHECK(ops_f[0].end_s - ops_f[0].start_s == near(expect_f).epsilon(0.01));
  CHECK(plat.units()[0]->compute_bound_s() == near(expect_f).epsilon(0.01));
  CHECK(plat.units()[0]->memory_bound_s() == 0);
  CHECK(plat.units()[0]->ops_executed() == 1);

  // The ledger holds all the arithmetic: 7.68e9 ops over 10 ms of compute and 5 us of
  // overhead at f, spread over the 1 ms periods.
  const auto a = total(plat.units()[0]->ledger(), 20);
  CHECK(a.ops == near(ops));
  CHECK(a.compute_s == near(ops / (peak * f)).epsilon(0.01));
  CHECK(a.overhead_s == near(overhead).epsilon(0.01));
  // One tile each way through the NoC to the memory: 8 KiB per unit.
  const auto m = total(plat.memories()[0]->ledger(), 20);
  CHECK(m.bytes_read == near(2 * 4096.0));
  CHECK(m.bytes_written == near(2 * 4096.0));
}
