// A unit's `host_issue`: an eager framework's host issues kernel k at k x host_issue after the
// job begins, and a kernel starts no earlier than it is issued (nor before the one before it
// ends). By hand, host_issue 100 us, each kernel's launch 5 us inside the unit:
// Unit: 4 cores x 256 int8 ops/cycle x efficiency 0.75 at 1 GHz = 768e9 ops/s, no bytes.
//   long, short, short, short, long (300 / 20 / 20 / 20 / 300 us of arithmetic, +5 us each):
//     issued at 100, 200, 300, 400, 500 us; start 100, 405, 430, 455, then 500 (the host is
//     behind after the short ones: the unit waits 20 us); the last ends at 805 us.
//   a folded operator of 4 short kernels (4 x 25 us) issued from 100 us: runs 100-200 us, but
//     its last kernel is issued at 400 us, so the next operator is issued at 500 us and starts
//     then.
//   host_issue 0 (the default): kernels back to back from the job's start.
//   three short kernels, the second launched by the first's library call (same_call: cuDNN's
//     layout transposes): 100-125, 125-150 (no issue of its own), and the third, the second
//     issued, at 200 us (at 300 us were the second issued itself).
#include "sc_test.hpp"

#include <vector>

using namespace sc_test;

namespace {

op compute_op(const std::string& name, double arithmetic_s) {
  return one_op(name, op_class::tensor, arithmetic_s * 768e9, 0, 0).ops[0];
}

}  // namespace

// One platform (the SystemC kernel runs once per process): three units, one job each.
TEST_CASE("host_issue: kernels start when issued; the cost hides under long kernels, starves the unit on short ones") {
  platform_config pc = memory_system(100e9, 30e-9, 10e9, 0.8, 100e-9);
  workload_config wc;
  const std::vector<std::pair<std::string, double>> units = {
      {"mixed", 100e-6}, {"folded", 100e-6}, {"none", 0.0}, {"library", 100e-6}};
  for (const auto& [name, issue] : units) {
    compute_unit_config u = unit(name, "d0", 4, 256, 0.75);
    u.launch_overhead = pu::seconds(5e-6);
    u.host_issue = pu::seconds(issue);
    pc.units.push_back(u);
  }
  op_graph mixed = one_op("long1", op_class::tensor, 300e-6 * 768e9, 0, 0);
  for (const char* n : {"short1", "short2", "short3"}) mixed.ops.push_back(compute_op(n, 20e-6));
  mixed.ops.push_back(compute_op("long2", 300e-6));
  op_graph folded = one_op("folded", op_class::tensor, 4 * 20e-6 * 768e9, 0, 0);
  folded.ops[0].repeat = 4;
  folded.ops.push_back(compute_op("next", 20e-6));
  op_graph none = one_op("long1", op_class::tensor, 300e-6 * 768e9, 0, 0);
  none.ops.push_back(compute_op("short1", 20e-6));
  wc.streams.push_back(stream("a", "mixed", mixed, 1.0, 0.0));
  wc.streams.push_back(stream("b", "folded", folded, 1.0, 0.0));
  wc.streams.push_back(stream("c", "none", none, 1.0, 0.0));
  op_graph library = one_op("s1", op_class::tensor, 20e-6 * 768e9, 0, 0);
  library.ops.push_back(compute_op("s2", 20e-6));
  library.ops.back().same_call = true;
  library.ops.push_back(compute_op("s3", 20e-6));
  wc.streams.push_back(stream("d", "library", library, 1.0, 0.0));
  platform plat(pc, wc, {{"d0", {1e9, 0.8}}}, 1e-3, 1);
  std::vector<std::vector<op_record>> ops(4);
  for (std::size_t i = 0; i < 4; ++i) plat.units()[i]->on_op = [&, i](const op_record& r) { ops[i].push_back(r); };

  sc_core::sc_start(sc_core::sc_time(0.5, sc_core::SC_SEC));

  // Each stream's first job arrives at 0.
  REQUIRE(ops[0].size() == 5);
  const std::vector<double> start = {100e-6, 405e-6, 430e-6, 455e-6, 500e-6};
  for (std::size_t i = 0; i < 5; ++i) CHECK(ops[0][i].start_s == near(start[i]).epsilon(1e-6));
  CHECK(ops[0][4].end_s == near(805e-6).epsilon(1e-6));

  REQUIRE(ops[1].size() == 2);
  CHECK(ops[1][0].start_s == near(100e-6).epsilon(1e-6));
  CHECK(ops[1][0].end_s == near(200e-6).epsilon(1e-6));  // 4 x (5 + 20) us
  CHECK(ops[1][1].start_s == near(500e-6).epsilon(1e-6));
  CHECK(ops[1][1].end_s == near(525e-6).epsilon(1e-6));

  REQUIRE(ops[2].size() == 2);
  CHECK(ops[2][0].start_s == near(0.0).epsilon(1e-9));
  CHECK(ops[2][1].start_s == near(305e-6).epsilon(1e-6));
  CHECK(ops[2][1].end_s == near(330e-6).epsilon(1e-6));

  REQUIRE(ops[3].size() == 3);
  CHECK(ops[3][0].start_s == near(100e-6).epsilon(1e-6));
  CHECK(ops[3][1].start_s == near(125e-6).epsilon(1e-6));
  CHECK(ops[3][1].end_s == near(150e-6).epsilon(1e-6));
  CHECK(ops[3][2].start_s == near(200e-6).epsilon(1e-6));
  CHECK(ops[3][2].end_s == near(225e-6).epsilon(1e-6));
}
