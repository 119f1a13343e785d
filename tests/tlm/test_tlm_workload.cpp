// Workload engine: fixed-rate arrivals, per-request records, and queue_limit drops.
//
// Two units in two domains at 1 GHz, each 2 cores x 512 int8 ops/cycle x 0.5 = 512
// ops/cycle = 5.12e11 ops/s; compute-only graphs (no memory traffic), launch 5 us.
//
// Stream "steady" on npu_s: 5.12e8 ops -> service S_s = 5 us + 1 ms = 1.005 ms;
//   rate 1/3 ms, from t = 0: arrivals k * 3 ms. The unit is idle at every arrival
//   (S_s < 3 ms), so each request starts on arrival and takes S_s. Run to 29.75 ms:
//   arrivals at 0, 3, ..., 27 ms (N = 10), the last finishing at 28.005 ms.
//
// Stream "burst" on npu_d: 1.28e9 ops -> S_d = 5 us + 2.5 ms = 2.505 ms; rate 1 kHz
//   (arrivals at k ms), queue_limit 2 (queued + running). The unit is busy from t = 0
//   on, so request j (0-based, in acceptance order) finishes at c_j = 2.505 (j+1) ms.
//   Requests 0 and 1 are accepted at 0 and 1 ms; request j >= 2 at the first arrival
//   after request j-2 finished, ceil(c_{j-2}) = ceil(2.505 (j-1)) ms:
//     j:        2  3  4   5   6   7   8   9  10  11  12 | 13
//     accepted: 3  6  8  11  13  16  18  21  23  26  28 | 31 (after the run)
//   (always before c_{j-1} = 2.505 j, so the unit never idles: it starts j at c_{j-1}).
//   Of the 30 arrivals 0..29 ms, 13 are accepted and 17 dropped, at
//     2 4 5 7 9 10 12 14 15 17 19 20 22 24 25 27 29 ms.
//   Finished by 29.75 ms: c_j <= 29.75 -> j <= 10, 11 records.
#include "sc_test.hpp"

#include <cmath>
#include <set>
#include <vector>

using namespace sc_test;

TEST_CASE("fixed-rate stream: arrivals, latencies, and drops at the queue limit") {
  const double rate_ops = 2 * 512 * 0.5 * 1e9;  // 5.12e11 ops/s
  const double S_s = 5e-6 + 5.12e8 / rate_ops;  // 1.005 ms
  const double S_d = 5e-6 + 1.28e9 / rate_ops;  // 2.505 ms
  const double P_s = 3e-3, end = 29.75e-3;

  platform_config pc = memory_system(100e9, 30e-9, 10e9, 0.8, 100e-9);
  pc.units.push_back(unit("npu_s", "ds", 2, 512, 0.5));
  pc.units.push_back(unit("npu_d", "dd", 2, 512, 0.5));
  workload_config wc;
  wc.streams.push_back(stream("steady", "npu_s", one_op("gemm", op_class::tensor, 5.12e8, 0, 0), 1.0 / P_s, 0.0));
  wc.streams.push_back(stream("burst", "npu_d", one_op("gemm", op_class::tensor, 1.28e9, 0, 0), 1000.0, 0.0, 2));
  platform plat(pc, wc, {{"ds", {1e9, 0.8}}, {"dd", {1e9, 0.8}}}, 1e-3, 7);
  std::vector<double> drop_times;
  plat.workload().on_drop = [&](const std::string& stream, double t) {
    CHECK(stream == "burst");
    drop_times.push_back(t);
  };

  sc_core::sc_start(sc_core::sc_time(end, sc_core::SC_SEC));

  const auto& recs = plat.workload().finished();
  // --- steady: N = 10 records, arrival k / rate, latency S_s --------------------------
  const int N = 10;
  std::vector<const request_record*> steady;
  for (const auto& r : recs)
    if (r.stream == "steady") steady.push_back(&r);
  REQUIRE(steady.size() == N);
  for (int k = 0; k < N; ++k) {
    CAPTURE(k);
    const request_record& r = *steady[static_cast<std::size_t>(k)];
    CHECK(r.arrival_s == near(k * P_s).epsilon(1e-8));
    CHECK(r.start_s == near(r.arrival_s).epsilon(1e-8));
    CHECK(r.finish_s - r.arrival_s == near(S_s).epsilon(1e-6));
    CHECK(r.unit == "npu_s");
  }

  // --- burst: 30 arrivals, 17 drops at the times worked out above, 11 records ---------
  CHECK(plat.workload().arrived() == 30 + N);
  CHECK(plat.workload().dropped() == 17);
  const std::vector<int> drops_ms = {2, 4, 5, 7, 9, 10, 12, 14, 15, 17, 19, 20, 22, 24, 25, 27, 29};
  REQUIRE(drop_times.size() == drops_ms.size());
  for (std::size_t i = 0; i < drops_ms.size(); ++i) CHECK(drop_times[i] == near(drops_ms[i] * 1e-3, 1e-8));
  const std::vector<int> accepted_ms = {0, 1, 3, 6, 8, 11, 13, 16, 18, 21, 23};  // the 11 that finish
  std::vector<const request_record*> burst;
  for (const auto& r : recs)
    if (r.stream == "burst") burst.push_back(&r);
  REQUIRE(burst.size() == accepted_ms.size());
  for (std::size_t j = 0; j < burst.size(); ++j) {
    CAPTURE(j);
    const request_record& r = *burst[j];
    CHECK(r.arrival_s == near(accepted_ms[j] * 1e-3).epsilon(1e-8));
    // Request 0 found the unit idle; every later one waited for its predecessor.
    const double start = j == 0 ? 0.0 : static_cast<double>(j) * S_d;
    CHECK(r.start_s == near(start).epsilon(1e-6));
    CHECK(r.finish_s == near(static_cast<double>(j + 1) * S_d).epsilon(1e-6));
    CHECK(r.unit == "npu_d");
  }
  CHECK(burst[0]->finish_s - burst[0]->arrival_s == near(S_d).epsilon(1e-6));

  // Request ids are unique across streams.
  std::set<std::int64_t> ids;
  for (const auto& r : recs) ids.insert(r.id);
  CHECK(ids.size() == recs.size());
  // Compute-only graphs send nothing to memory.
  CHECK(plat.transactions() == 0);
}
