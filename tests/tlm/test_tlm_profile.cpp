// Profile-driven operator times (op_profile.hpp) in a compute unit: six identical units
// in six DVFS domains, each running one operator.
//
// Each unit: 4 cores x 256 int8 ops/cycle, tensor efficiency 0.75 (768 ops/cycle),
// vector efficiency 0.25 (256 ops/cycle); launch overhead 5 us. Memory: one NoC
// (100 GB/s) in front of one DRAM (10 GB/s x 0.8 = 8 GB/s).
//
// The profile (measured at 1980 MHz): gemm int8, n = k = 1024:
//   m = 512:  1 ms, compute_fraction 0.6
//   m = 1024: 3 ms, compute_fraction 0.6
// and the same gemm rows without a compute fraction in a second profile.
//
//   half_clock  990 MHz, gemm m = 512:  5 us + 1 ms x (0.6 x 1980/990 + 0.4) = 1.605 ms
//   midpoint   1980 MHz, gemm m = 768:  5 us + (1 + 3) / 2 ms               = 2.005 ms
//   fallback   1000 MHz, norm (no row): the roofline, 2.56e8 ops / (256 x 1e9) = 1 ms
//                                       + 5 us                                = 1.005 ms
//   derived     990 MHz, gemm m = 512, no compute fraction: the roofline's arithmetic
//               at 1980 MHz, 2 x 512 x 1024 x 1024 / (768 x 1.98e9) = 0.35305 ms, is
//               c = 0.35305 of the 1 ms; at 990 MHz 1 ms x (2c + 1 - c) = 1.35305 ms + 5 us
//   memory     1980 MHz, gemm m = 512 reading 40 MB: the memory's time, 40e6 / 8e9 = 5 ms,
//               is longer than the table's 1 ms: the table is a floor, the bytes still
//               stream through the memory (booked in its ledger), as long as on
//   roofline   1980 MHz, no profile, the same operator (each alone on the memory, at 0.1 s and 0.2 s):
//               memory-bound too (its arithmetic 0.353 ms), so the same tiles, the same time
#include "sc_test.hpp"

#include <cmath>
#include <memory>
#include <vector>

using namespace sc_test;

namespace {

op gemm(double m, double read_B) {
  op o;
  o.name = "gemm";
  o.kind = op_kind::gemm;
  o.cls = op_class::tensor;
  o.prec = precision::int8;
  o.ops = 2 * m * 1024 * 1024;
  o.bytes_read = read_B;
  o.bytes_written = 4096;
  o.shape_m = m;
  o.shape_n = 1024;
  o.shape_k = 1024;
  return o;
}

op_graph graph_of(const op& o) {
  op_graph g;
  g.name = o.name;
  g.prec = precision::int8;
  g.ops.push_back(o);
  return g;
}

std::shared_ptr<const op_profile> gemm_profile(double c) {
  std::vector<profile_row> rows;
  for (auto [m, t] : {std::pair{512.0, 1e-3}, std::pair{1024.0, 3e-3}}) {
    profile_row r;
    r.kind = op_kind::gemm;
    r.prec = precision::int8;
    r.m = m;
    r.n = 1024;
    r.k = 1024;
    r.time_s = t;
    r.clock_hz = 1980e6;
    r.compute_fraction = c;
    rows.push_back(r);
  }
  return std::make_shared<const op_profile>(rows, "by hand");
}

}  // namespace

TEST_CASE("a profile times the operators it holds, scaled with the clock; the others by the roofline") {
  const double overhead = 5e-6;
  platform_config pc = memory_system(100e9, 30e-9, 10e9, 0.8, 100e-9);
  const char* names[] = {"half_clock", "midpoint", "fallback", "derived", "memory", "roofline"};
  for (const char* n : names) pc.units.push_back(unit(n, std::string("d_") + n, 4, 256, 0.75));
  const auto given = gemm_profile(0.6), derived = gemm_profile(-1);
  for (auto& u : pc.units)
    if (u.name != "roofline") u.profile = u.name == "derived" ? derived : given;

  op norm;
  norm.name = "norm";
  norm.kind = op_kind::norm;
  norm.cls = op_class::vector;
  norm.prec = precision::int8;
  norm.ops = 2.56e8;
  norm.bytes_read = 4096;
  norm.bytes_written = 4096;
  norm.shape_m = 1000;
  norm.shape_k = 256;
  const op_graph g_half = graph_of(gemm(512, 8192)), g_mid = graph_of(gemm(768, 8192)), g_norm = graph_of(norm),
                 g_mem = graph_of(gemm(512, 40e6));
  workload_config wc;
  wc.streams.push_back(stream("half_clock", "half_clock", g_half, 1.0, 0.0));
  wc.streams.push_back(stream("midpoint", "midpoint", g_mid, 1.0, 0.0));
  wc.streams.push_back(stream("fallback", "fallback", g_norm, 1.0, 0.0));
  wc.streams.push_back(stream("derived", "derived", g_half, 1.0, 0.0));
  wc.streams.push_back(stream("memory", "memory", g_mem, 1.0, 0.1));
  wc.streams.push_back(stream("roofline", "roofline", g_mem, 1.0, 0.2));

  platform plat(pc, wc,
                {{"d_half_clock", {990e6, 0.8}},
                 {"d_midpoint", {1980e6, 1.0}},
                 {"d_fallback", {1e9, 0.8}},
                 {"d_derived", {990e6, 0.8}},
                 {"d_memory", {1980e6, 1.0}},
                 {"d_roofline", {1980e6, 1.0}}},
                1e-3, 1);
  sc_core::sc_start(sc_core::sc_time(0.5, sc_core::SC_SEC));

  const auto& recs = plat.workload().finished();
  REQUIRE(recs.size() == 6);
  const auto span = [&](const char* s) {
    const request_record* r = record_of(recs, s);
    REQUIRE(r);
    return r->finish_s - r->start_s;
  };
  // The memory's few microseconds (one 8 KiB read tile, one 4 KiB write tile, each well
  // under its table share) hide under the table time: 1e-6 relative covers rounding only.
  CHECK(span("half_clock") == near(overhead + 1e-3 * (0.6 * 2 + 0.4), 1e-6));
  CHECK(span("midpoint") == near(overhead + 2e-3, 1e-6));
  CHECK(span("fallback") == near(overhead + 2.56e8 / (256 * 1e9), 1e-2));  // + the memory's ~1 us
  const double c = 2 * 512.0 * 1024 * 1024 / (768 * 1.98e9) / 1e-3;
  CHECK(span("derived") == near(overhead + 1e-3 * (2 * c + 1 - c), 1e-6));
  // Memory-bound beyond the table: the bytes' time at 8 GB/s (and the tiles' latencies), as
  // the roofline's run of the same operator, but for the last tile (the 4 KiB write), which
  // takes its share of the table, 1 ms / 154 tiles, instead of its roofline arithmetic.
  CHECK(span("memory") == near(40e6 / 8e9, 1e-2));
  CHECK(std::fabs(span("memory") - span("roofline")) <= 1e-3 / 154);

  const auto& u = plat.units();
  CHECK(u[0]->profiled_ops() == 1);
  CHECK(u[0]->profile_misses().empty());
  CHECK(u[2]->profiled_ops() == 0);
  REQUIRE(u[2]->profile_misses().count("norm") == 1);
  CHECK(u[2]->profile_misses().at("norm") == 1);
  CHECK(u[4]->memory_bound_s() > 0);
  // Every byte of every operator went through the memory, profiled or not.
  const auto m = total(plat.memories()[0]->ledger(), 500);
  CHECK(m.bytes_read == near(3 * 8192.0 + 4096 + 2 * 40e6));
  CHECK(m.bytes_written == near(6 * 4096.0));
  // The clock-scaled part is the unit's compute activity, the rest a stall (on memory).
  const auto a = total(u[0]->ledger(), 500);
  CHECK(a.compute_s == near(1e-3 * 0.6 * 2, 1e-6));
  CHECK(a.stall_s == near(1e-3 * 0.4, 1e-3));
  CHECK(a.ops == near(2 * 512.0 * 1024 * 1024));
}
