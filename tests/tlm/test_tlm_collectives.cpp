// Ring collectives over NVLink and a switch, against the closed form
//   T = launch + steps * (S/n / link bandwidth + hop latency) + L,
// all-reduce: 2(n-1) steps, all-gather: n-1; and the barrier that makes a slow rank hold
// up the others. Every call also pays the units' collective_latency L = 20 us.
//
// Four GPUs, each with an NVLink of 100 GB/s per direction and 1 us into a terminal
// switch of 1 TB/s (non-blocking for 4 x 100 GB/s) and 0.5 us: a hop is 1.5 us.
// Stream "ar": data-parallel on gpu0..3, one all-reduce of S = 64 MiB:
//   T_ar = 3 us + 6 x (16 MiB / 100e9 + 1.5 us) + 20 us = 3 us + 6 x 169.2722 us + 20 us
//   = 1.0386 ms.
// Stream "ag" at t = 10 ms: all-gather of 64 MiB: T_ag = 3 us + 3 x 169.2722 us + 20 us.
// Stream "fold" at t = 20 ms: an all-reduce of 1 MiB folded 10 times (repeat 10):
//   T = 10 x 3 us + 6 x (10 x 256 KiB / 100e9 + 1.5 us) + (10 - 1) x 6 x 1.5 us + 10 x 20 us.
// Stream "straggle" at t = 30 ms: a 4e10-op GEMM then a 64 MiB all-reduce, where gpu0
// runs at 1 GHz and the others at 2 GHz (132 x 1024 x 1.0 ops/cycle): the GEMM takes
// 4e10 / 1.35168e14 = 295.9 us at 1 GHz and 148.0 us at 2 GHz; every rank finishes at
// 30 ms + 2 x 3 us + 295.9 us + T_ar - 3 us, the fast ranks having waited 148 us.
#include "sc_test.hpp"

#include "ptsim/tlm_config/operators.hpp"

using namespace sc_test;

namespace {
stream_config group_stream(const std::string& name, const op_graph& g, double start) {
  stream_config s = stream(name, "gpu0", g, 1.0, start);
  s.stages[0].units = {"gpu0", "gpu1", "gpu2", "gpu3"};
  s.stages[0].parallel = parallel_kind::data;
  return s;
}
op_graph graph_of(std::vector<op> ops) {
  op_graph g;
  g.name = "g";
  g.prec = precision::bf16;
  g.ops = std::move(ops);
  return g;
}
}  // namespace

TEST_CASE("ring collectives: bandwidth and latency terms, folded repeats, stragglers") {
  const double MiB = 1024.0 * 1024, link_bw = 100e9, hop = 1.5e-6, launch = 3e-6, S = 64 * MiB, L = 20e-6;
  const double step = S / 4 / link_bw + hop;
  const double t_ar = launch + 6 * step + L, t_ag = launch + 3 * step + L;
  const double t_fold = 10 * launch + 6 * (10 * MiB / 4 / link_bw + hop) + 9 * 6 * hop + 10 * L;
  const double peak = 132 * 1024.0;
  const double gemm_slow = 4e10 / (peak * 1e9), gemm_fast = 4e10 / (peak * 2e9);

  platform_config pc;
  pc.quantum = pu::seconds(100e-6);
  for (int i = 0; i < 4; ++i) {
    const std::string n = std::to_string(i);
    pc.memories.push_back(hbm("hbm" + n, 1e12, 0));
    compute_unit_config u = gpu("gpu" + n, "d" + n, "hbm" + n, 132, 1024, 1.0, launch);
    u.fabric = "nvl" + n;
    u.collective_latency = pu::seconds(L);
    pc.units.push_back(u);
    pc.interconnects.push_back(link("nvl" + n, "nvlink", {"sw"}, link_bw, 1e-6));
  }
  pc.interconnects.push_back(link("sw", "switch", {}, 1e12, 0.5e-6));
  op gemm;
  gemm.name = "gemm";
  gemm.kind = op_kind::gemm;
  gemm.prec = precision::bf16;
  gemm.ops = 4e10;
  op folded = collective_op("ar_folded", collective_kind::all_reduce, 1 * MiB, precision::bf16);
  folded.repeat = 10;
  workload_config wc;
  wc.streams.push_back(group_stream("ar", graph_of({collective_op("ar", collective_kind::all_reduce, S, precision::bf16)}), 0));
  wc.streams.push_back(group_stream("ag", graph_of({collective_op("ag", collective_kind::all_gather, S, precision::bf16)}), 10e-3));
  wc.streams.push_back(group_stream("fold", graph_of({folded}), 20e-3));
  wc.streams.push_back(group_stream(
      "straggle", graph_of({gemm, collective_op("ar", collective_kind::all_reduce, S, precision::bf16)}), 30e-3));
  platform plat(pc, wc, {{"d0", {1e9, 0.8}}, {"d1", {2e9, 1.0}}, {"d2", {2e9, 1.0}}, {"d3", {2e9, 1.0}}}, 1e-3, 1);

  sc_core::sc_start(sc_core::sc_time(0.05, sc_core::SC_SEC));

  const auto& recs = plat.workload().finished();
  const request_record* ar = record_of(recs, "ar");
  const request_record* ag = record_of(recs, "ag");
  const request_record* fold = record_of(recs, "fold");
  const request_record* st = record_of(recs, "straggle");
  REQUIRE(ar);
  REQUIRE(ag);
  REQUIRE(fold);
  REQUIRE(st);
  CHECK(ar->finish_s - ar->start_s == near(t_ar).epsilon(1e-3));
  CHECK(ag->finish_s - ag->start_s == near(t_ag).epsilon(1e-3));
  CHECK(fold->finish_s - fold->start_s == near(t_fold).epsilon(1e-3));
  // The group waits for its slowest rank: the GEMM at 1 GHz, then the all-reduce.
  CHECK(st->finish_s - st->start_s == near(launch + gemm_slow + t_ar).epsilon(1e-3));
  CHECK(st->unit == "gpu0+gpu1+gpu2+gpu3");
  // Each rank's time in collectives (interconnect-bound), over all four streams; the fast
  // ranks also count their wait at the straggler's barrier.
  const double coll = t_ar + t_ag + t_fold + t_ar;
  CHECK(plat.units()[0]->bound_seconds(bound_by::interconnect) == near(coll).epsilon(1e-3));
  CHECK(plat.units()[1]->bound_seconds(bound_by::interconnect) ==
        near(coll + gemm_slow - gemm_fast).epsilon(1e-3));
  // Every byte on the wire reached the switch: per rank 2(n-1)/n S + (n-1)/n S + 1.5 x
  // 10 MiB + 2(n-1)/n S, written.
  double wire = 0;
  for (const auto& i : plat.interconnects())
    if (i->basename() == std::string("sw")) wire = total(i->ledger(), 100).bytes_written;
  CHECK(wire == near(4 * (1.5 * S + 0.75 * S + 1.5 * 10 * MiB + 1.5 * S)));
}
