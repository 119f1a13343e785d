// Arrivals and batching, every time worked out by hand. Units serve compute-only graphs:
// 2 cores x 512 ops/cycle x 0.5 at 1 GHz = 5.12e11 ops/s, 5 us launch.
//
// dyn (dynamic, max 4, timeout 2.5 ms; 2.56e8 ops = 0.5 ms per request; 1 kHz): the
//   first batch leaves when its oldest request has waited 2.5 ms, with requests 0, 1, 2
//   (the 4th arrives at 3 ms); it runs 5 us + 3 x 0.5 ms and ends at 4.005 ms. The next
//   holds 3, 4, 5, leaves at 5.5 ms, ends at 7.005 ms.
// stat (static, max 4, no timeout): batches leave when full, at 3 and 7 ms; each runs
//   5 us + 4 x 0.5 ms: ends at 5.005 and 9.005 ms.
// rep (replicas u_r0, u_r1; 1.5 ms requests at 1 kHz): the least loaded replica takes
//   each request, so they alternate and no request waits: latency 1.505 ms.
// cl (closed loop, 2 users, think 1 ms, 2 ms requests): user 0 asks at 0, user 1 at
//   0.5 ms (staggered by think/users); service 2.005 ms, FIFO: (arrival, start, finish) =
//   (0, 0, 2.005), (0.5, 2.005, 4.01), (3.005, 4.01, 6.015), (5.01, 6.015, 8.02) ms.
// tr (trace at 1, 2, 2.5 ms; 1 ms requests): (1, 1, 2.005), (2, 2.005, 3.01), (2.5, 3.01, 4.015).
#include "sc_test.hpp"

using namespace sc_test;

TEST_CASE("batching, placement, closed loops and traces") {
  platform_config pc = memory_system(100e9, 30e-9, 10e9, 0.8, 100e-9);
  for (const char* n : {"u_dyn", "u_stat", "u_r0", "u_r1", "u_cl", "u_tr"})
    pc.units.push_back(unit(n, std::string("d_") + n, 2, 512, 0.5));
  const op_graph half = one_op("w", op_class::tensor, 2.56e8, 0, 0);
  const op_graph one_half = one_op("w", op_class::tensor, 7.68e8, 0, 0);
  const op_graph two_ms = one_op("w", op_class::tensor, 1.024e9, 0, 0);
  const op_graph one_ms = one_op("w", op_class::tensor, 5.12e8, 0, 0);
  workload_config wc;
  stream_config dyn = stream("dyn", "u_dyn", half, 1000.0, 0.0);
  dyn.batching = {batching_kind::dynamic, 4, pu::seconds(2.5e-3)};
  stream_config stat = stream("stat", "u_stat", half, 1000.0, 0.0);
  stat.batching = {batching_kind::static_batch, 4, pu::seconds(0.0)};
  stream_config rep = stream("rep", "u_r0", one_half, 1000.0, 0.0);
  rep.stages[0].units = {"u_r0", "u_r1"};
  rep.stages[0].parallel = parallel_kind::replicas;
  stream_config cl = stream("cl", "u_cl", two_ms, 1.0, 0.0);
  cl.arrival = arrival_kind::closed_loop;
  cl.users = 2;
  cl.think_time = pu::seconds(1e-3);
  stream_config tr = stream("tr", "u_tr", one_ms, 1.0, 0.0);
  tr.arrival = arrival_kind::trace;
  tr.trace = {{1e-3, 1, 1}, {2e-3, 1, 1}, {2.5e-3, 1, 1}};
  wc.streams = {dyn, stat, rep, cl, tr};
  std::map<std::string, operating_point> init;
  for (const char* n : {"u_dyn", "u_stat", "u_r0", "u_r1", "u_cl", "u_tr"}) init[std::string("d_") + n] = {1e9, 0.8};
  platform plat(pc, wc, init, 1e-3, 1);

  sc_core::sc_start(sc_core::sc_time(9.9, sc_core::SC_MS));
  const auto& recs = plat.workload().finished();
  const double ms = 1e-3;

  const double dyn_finish[] = {4.005, 4.005, 4.005, 7.005, 7.005, 7.005};
  for (std::size_t k = 0; k < 6; ++k) {
    CAPTURE(k);
    const request_record* r = record_of(recs, "dyn", k);
    REQUIRE(r);
    CHECK(r->arrival_s == near(static_cast<double>(k) * ms).epsilon(1e-9));
    CHECK(r->finish_s == near(dyn_finish[k] * ms).epsilon(1e-6));
    CHECK(r->unit == "u_dyn");
  }
  for (std::size_t k = 0; k < 8; ++k) {
    CAPTURE(k);
    const request_record* r = record_of(recs, "stat", k);
    REQUIRE(r);
    CHECK(r->finish_s == near((k < 4 ? 5.005 : 9.005) * ms).epsilon(1e-6));
  }
  int on_r0 = 0, on_r1 = 0;
  for (const auto& r : recs) {
    if (r.stream != "rep") continue;
    CHECK(r.finish_s - r.arrival_s == near(1.505 * ms).epsilon(1e-6));
    (r.unit == "u_r0" ? on_r0 : on_r1) += 1;
  }
  CHECK(on_r0 >= 4);
  CHECK(on_r1 >= 4);
  CHECK(std::abs(on_r0 - on_r1) <= 1);
  const double cl_times[4][3] = {{0, 0, 2.005}, {0.5, 2.005, 4.01}, {3.005, 4.01, 6.015}, {5.01, 6.015, 8.02}};
  for (std::size_t k = 0; k < 4; ++k) {
    CAPTURE(k);
    const request_record* r = record_of(recs, "cl", k);
    REQUIRE(r);
    CHECK(r->arrival_s == near(cl_times[k][0] * ms).epsilon(1e-6));
    CHECK(r->start_s == near(cl_times[k][1] * ms).epsilon(1e-6));
    CHECK(r->finish_s == near(cl_times[k][2] * ms).epsilon(1e-6));
  }
  const double tr_times[3][3] = {{1, 1, 2.005}, {2, 2.005, 3.01}, {2.5, 3.01, 4.015}};
  for (std::size_t k = 0; k < 3; ++k) {
    CAPTURE(k);
    const request_record* r = record_of(recs, "tr", k);
    REQUIRE(r);
    CHECK(r->arrival_s == near(tr_times[k][0] * ms).epsilon(1e-6));
    CHECK(r->start_s == near(tr_times[k][1] * ms).epsilon(1e-6));
    CHECK(r->finish_s == near(tr_times[k][2] * ms).epsilon(1e-6));
  }
  // Throughput counts inferences: one per finished request here.
  CHECK(plat.workload().throughput_units() == "inferences/s");
  CHECK(plat.workload().throughput_count() == static_cast<double>(recs.size()));
}
