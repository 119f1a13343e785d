// A batch that waits for its timeout leaves at its oldest request's arrival + timeout, for
// any arrival time. Poisson arrivals put requests at times whose seconds do not round to
// whole ticks the way the deadline's do: the batcher once waited zero time for the last
// fraction of a tick, again and again, and the clock never moved on (a livelock).
// Unit: 2 cores x 512 ops/cycle x 0.5 at 1 GHz = 5.12e11 ops/s; a request is 5.12e6 ops
// (10 us), so the unit is idle whenever a batch leaves and a batch starts when it leaves.
#include "sc_test.hpp"

#include <algorithm>

using namespace sc_test;

TEST_CASE("batches wait out their timeout at any arrival time, and the clock moves on") {
  platform_config pc = memory_system(100e9, 30e-9, 10e9, 0.8, 100e-9);
  pc.units.push_back(unit("u", "d_u", 2, 512, 0.5));
  stream_config s = stream("p", "u", one_op("w", op_class::tensor, 5.12e6, 0, 0), 1000.0, 0.0);
  s.arrival = arrival_kind::poisson;
  const double timeout = 3e-3;
  s.batching = {batching_kind::dynamic, 128, pu::seconds(timeout)};  // never full at 1 kHz
  workload_config wc;
  wc.streams = {s};
  platform plat(pc, wc, {{"d_u", {1e9, 0.8}}}, 1e-3, 7);

  sc_core::sc_start(sc_core::sc_time(0.2, sc_core::SC_SEC));
  CHECK(sc_core::sc_time_stamp() == sc_core::sc_time(0.2, sc_core::SC_SEC));
  const auto& recs = plat.workload().finished();
  REQUIRE(recs.size() > 150);  // ~200 arrivals in 0.2 s, all but the last batch's finished
  // Requests sharing a start time are one batch; its oldest waited exactly the timeout and
  // none waited longer.
  std::map<double, double> oldest;  // start -> earliest arrival
  for (const auto& r : recs) {
    auto it = oldest.emplace(r.start_s, r.arrival_s).first;
    it->second = std::min(it->second, r.arrival_s);
    CHECK(r.start_s - r.arrival_s <= timeout + 1e-12);
  }
  REQUIRE(oldest.size() > 30);
  for (const auto& [start, arrival] : oldest) CHECK(start - arrival == near(timeout).epsilon(1e-9));
}
