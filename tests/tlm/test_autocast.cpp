// Autocast (autocast.hpp): each weighted 16-bit operator gets its weights' cast from fp32,
// reading 4 B and writing 2 B per weight, the same for any batch; counted by hand.
#include <doctest/doctest.h>

#include "relative_approx.hpp"

#include "ptsim/tlm_config/autocast.hpp"
#include "ptsim/tlm_config/operators.hpp"
#include "ptsim/tlm_config/training.hpp"

using namespace ptsim::tlm_config;

namespace {
// A GEMM of 64 x 32 x 16 with its 32 x 16 weights (512 of them: 1024 B in fp16).
op_graph one_gemm(precision p) {
  op_graph g;
  g.ops = {gemm_op("fc", 64, 32, 16, p, true), elementwise_op("relu", 64 * 32, 1, 1, p)};
  return g;
}
}  // namespace

TEST_CASE("autocast: a cast of the weights before each weighted 16-bit operator") {
  const op_graph g = with_autocast_casts(one_gemm(precision::fp16));
  REQUIRE(g.ops.size() == 3);
  CHECK(g.ops[0].name == "fc_weight_cast");
  CHECK(g.ops[1].name == "fc");
  CHECK(g.ops[2].name == "relu");
  const op& c = g.ops[0];
  CHECK(c.bytes_read == ptsim_test::Approx(4 * 512.0));
  CHECK(c.bytes_written == ptsim_test::Approx(2 * 512.0));
  CHECK(c.weight_bytes == 0);  // the master copy is not counted as another resident model
  CHECK(c.batch_invariant);
  CHECK_FALSE(c.same_call);  // the framework issues it like any kernel
  // Batched: the GEMM's activations scale, the cast does not.
  const op_graph b = batched(g, 8);
  CHECK(b.ops[0].bytes_read == ptsim_test::Approx(4 * 512.0));
  CHECK(b.ops[1].bytes_read > 4 * g.ops[1].bytes_read);
}

TEST_CASE("autocast: fp32 and int8 graphs, and operators without weights, unchanged") {
  CHECK(with_autocast_casts(one_gemm(precision::fp32)).ops.size() == 2);
  CHECK(with_autocast_casts(one_gemm(precision::int8)).ops.size() == 2);
  op_graph g;
  g.ops = {gemm_op("scores", 64, 64, 16, precision::bf16, false)};  // activations only
  CHECK(with_autocast_casts(g).ops.size() == 1);
}

TEST_CASE("autocast in training: each forward pass casts, the backward casts the weight gradient") {
  training_options t;
  t.accumulation_steps = 4;
  const op_graph step = training_step(with_autocast_casts(one_gemm(precision::fp16)), t);
  double casts = 0, backward_casts = 0;
  for (const op& o : step.ops) {
    if (o.name == "fc_weight_cast") casts += o.repeat;
    if (o.name == "bwd_fc_weight_cast") backward_casts += o.repeat;
  }
  CHECK(casts == 4);  // one per micro-batch: each forward pass is an autocast region
  CHECK(backward_casts == 4);
}
