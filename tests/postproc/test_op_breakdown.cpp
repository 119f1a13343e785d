// Where the time went by operator: the ops table summed per unit and operator name (fused
// kernels under their '+'-joined names), and the report's table of the heaviest.
#include <doctest/doctest.h>

#include <string>

#include "ptsim/postproc/op_breakdown.hpp"
#include "ptsim/postproc/report.hpp"
#include "sample_result.hpp"

using namespace ptsim::postproc;

namespace {
ops_table sample_ops() {
  ops_table t;
  t.rows = {{"gpu0", "conv_1x1+residual_add", 0.0, 1.0, "memory"},
            {"gpu0", "conv_1x1+residual_add", 1.0, 2.0, "compute"},
            {"gpu1", "conv_1x1+residual_add", 0.0, 1.0, "memory"},
            {"gpu0", "fc", 2.0, 2.5, "compute"}};
  t.limit = 4;
  t.dropped = 5;
  return t;
}
}  // namespace

TEST_CASE("op_breakdown sums executions per unit and operator, heaviest first") {
  const auto rows = op_breakdown(sample_ops());
  REQUIRE(rows.size() == 3);
  CHECK(rows[0].unit == "gpu0");
  CHECK(rows[0].op == "conv_1x1+residual_add");
  CHECK(rows[0].executions == 2);
  CHECK(rows[0].seconds == 2.0);
  CHECK(rows[0].memory_bound_s == 1.0);
  CHECK(rows[1].unit == "gpu1");
  CHECK(rows[1].seconds == 1.0);
  CHECK(rows[2].op == "fc");
  CHECK(rows[2].seconds == 0.5);
}

TEST_CASE("the report shows a single run's operators: share of all operator time, memory-bound share") {
  labelled_summary r;
  r.label = "run";
  r.summary = test::sample_summary();
  const ops_table t = sample_ops();
  r.op_times = op_breakdown(t);
  r.ops_dropped = t.dropped;
  const std::string table = format_report({r}, report_format::table);
  const std::size_t at = table.find("where the time went by operator");
  REQUIRE(at != std::string::npos);
  CHECK(table.find("5 more not kept", at) != std::string::npos);
  // conv_1x1+residual_add: 3 executions on gpu0 and gpu1, 3 s of 3.5 s = 85.7%, memory 2 of
  // 3 s = 66.7%; fc: 0.5 s = 14.3%, 0% memory-bound.
  const std::size_t conv = table.find("conv_1x1+residual_add", at);
  REQUIRE(conv != std::string::npos);
  const std::string line = table.substr(conv, table.find('\n', conv) - conv);
  for (const char* cell : {"gpu0, gpu1", " 3 ", "3 s", "85.7%", "66.7%"}) CHECK_MESSAGE(line.find(cell) != std::string::npos, cell);
  CHECK(table.find("14.3%", conv) != std::string::npos);
  const std::string md = format_report({r}, report_format::markdown);
  CHECK(md.find("| conv_1x1+residual_add | gpu0, gpu1 | 3 | 3 s | 85.7% | 66.7% |") != std::string::npos);
  // Several entries: no operator table (their ops differ per run).
  CHECK(format_report({r, r}, report_format::table).find("by operator") == std::string::npos);
}
