// Memory format (layout.hpp): an NCHW graph's tensor-core convolutions get cuDNN's two
// transposes, each reading and writing the tensor it converts, counted by hand; convolutions
// on the vector units and every other operator are left as they are.
#include <doctest/doctest.h>

#include "relative_approx.hpp"

#include <stdexcept>

#include "ptsim/tlm_config/layout.hpp"
#include "ptsim/tlm_config/operators.hpp"

using namespace ptsim::tlm_config;

namespace {
// A V100-like GPU: tensor cores for FP16 only; FP32 on the CUDA cores.
compute_unit_config volta() {
  compute_unit_config u;
  u.name = "gpu0";
  u.kind = "gpu";
  u.ops_per_cycle[precision::fp16] = 1024;
  u.vector_ops_per_cycle[precision::fp32] = 128;
  return u;
}

// A convolution of `prec` reading 1000 B of input and 200 B of filter, writing 3000 B, folded x2.
op conv(precision prec) {
  op c;
  c.name = "conv1";
  c.kind = op_kind::conv;
  c.cls = op_class::tensor;
  c.prec = prec;
  c.ops = 1e6;
  c.weight_bytes = 200;
  c.bytes_read = 1200;
  c.bytes_written = 3000;
  c.repeat = 2;
  return c;
}
}  // namespace

TEST_CASE("nchw: a tensor-core convolution between a transpose of its input and one of its output") {
  op_graph g;
  g.ops = {conv(precision::fp16), elementwise_op("relu", 1500, 1, 1, precision::fp16)};
  const op_graph t = with_layout_transposes(g, volta());
  REQUIRE(t.ops.size() == 4);
  CHECK(t.ops[0].name == "conv1_to_nhwc");
  CHECK(t.ops[1].name == "conv1");
  CHECK(t.ops[2].name == "conv1_to_nchw");
  CHECK(t.ops[3].name == "relu");
  // The input's 1000 B (not the filter's 200) read and written; the output's 3000 B likewise.
  CHECK(t.ops[0].bytes_read == ptsim_test::Approx(1000));
  CHECK(t.ops[0].bytes_written == ptsim_test::Approx(1000));
  CHECK(t.ops[2].bytes_read == ptsim_test::Approx(3000));
  CHECK(t.ops[2].bytes_written == ptsim_test::Approx(3000));
  for (const std::size_t i : {0u, 2u}) {
    CHECK(t.ops[i].ops == 0);
    CHECK(t.ops[i].weight_bytes == 0);  // nothing resident
    CHECK(t.ops[i].kind == op_kind::elementwise);
    CHECK(t.ops[i].repeat == 2);        // one pair per folded convolution
    CHECK(t.ops[i].same_call);          // issued by the convolution's library call
  }
  CHECK_FALSE(t.ops[1].same_call);
  // The convolution itself is unchanged.
  CHECK(t.ops[1].bytes_read == ptsim_test::Approx(1200));
  CHECK(t.ops[1].ops == ptsim_test::Approx(1e6));
}

TEST_CASE("nchw: FP32 convolutions on the CUDA cores read NCHW as it is") {
  op_graph g;
  g.ops = {conv(precision::fp32)};
  CHECK(with_layout_transposes(g, volta()).ops.size() == 1);
  // With a TF32 tensor path (Ampere) the same convolution is transposed.
  compute_unit_config ampere = volta();
  ampere.ops_per_cycle[precision::fp32] = 512;
  CHECK(with_layout_transposes(g, ampere).ops.size() == 3);
}

TEST_CASE("memory format names") {
  CHECK(parse_memory_format("nchw") == memory_format::nchw);
  CHECK(parse_memory_format("nhwc") == memory_format::nhwc);
  CHECK(std::string(to_string(memory_format::nhwc)) == "nhwc");
  CHECK_THROWS_AS(parse_memory_format("channels_last"), std::invalid_argument);
}
