// Training steps and operator builders against closed forms.
#include <doctest/doctest.h>

#include "approx.hpp"

#include <cmath>

#include "ptsim/tlm_config/model_zoo.hpp"
#include "ptsim/tlm_config/operators.hpp"
#include "ptsim/tlm_config/training.hpp"

using tlm_test::near;
using namespace ptsim::tlm_config;

TEST_CASE("operator builders") {
  // [64 x 4096] x [4096 x 1024] in bf16: 2 x 64 x 1024 x 4096 ops; reads A and the
  // weights, writes C.
  const op g = gemm_op("g", 64, 1024, 4096, precision::bf16);
  CHECK(g.ops == near(2.0 * 64 * 1024 * 4096));
  CHECK(g.bytes_read == near((64.0 * 4096 + 4096.0 * 1024) * 2));
  CHECK(g.weight_bytes == near(4096.0 * 1024 * 2));
  CHECK(g.bytes_written == near(64.0 * 1024 * 2));
  // Attention: 4 x keys x head_dim x heads.
  const op a = attention_op("a", 10, 1000, 100, 8, 2, 64, precision::bf16, precision::fp8);
  CHECK(a.ops == near(4.0 * 1000 * 64 * 8));
  CHECK(a.bytes_read == near(10.0 * 8 * 64 * 2 + 2.0 * 100 * 2 * 64 * 1));
  // batched(): activations and arithmetic scale, weights are read once.
  op_graph one;
  one.ops.push_back(g);
  const op_graph four = batched(one, 4);
  CHECK(four.ops[0].ops == near(4 * g.ops));
  CHECK(four.ops[0].bytes_read == near(g.weight_bytes + 4 * (g.bytes_read - g.weight_bytes)));
  CHECK(four.weight_bytes() == near(one.weight_bytes()));
}

TEST_CASE("a data-parallel training step: forward, backward, all-reduce, Adam") {
  const op_graph fwd = build_model("bert_large", {{"batch", 8}, {"seq", 128}}, precision::bf16);
  const double P = parameter_count(fwd);
  // BERT-Large's weights that the graph reads (no embedding tables): 24 x 12.6 M + pooler
  // and classifier, about 303 M.
  CHECK(P == near(24 * (4 * 1024.0 * 1024 + 2 * 1024.0 * 4096) + 1024.0 * 1024 + 1024.0 * 2).epsilon(0.01));
  training_options t;
  t.data_parallel = 8;
  t.bucket_bytes = 25.0 * 1024 * 1024;
  const op_graph step = training_step(fwd, t);
  double fwd_ops = fwd.total_ops(), bwd_ops = 0, adam_ops = 0;
  const op* ar = nullptr;
  for (const auto& o : step.ops) {
    if (o.name.rfind("bwd_", 0) == 0) bwd_ops += o.ops;
    if (o.name == "adam_update") adam_ops = o.ops;
    if (o.kind == op_kind::collective) ar = &o;
  }
  CHECK(bwd_ops == near(2 * fwd_ops));  // backward = twice the forward
  CHECK(adam_ops == near(10 * P));
  REQUIRE(ar);
  // bf16 gradients, 2P bytes, in ceil(2P / 25 MiB) buckets.
  const double buckets = std::ceil(2 * P / t.bucket_bytes);
  CHECK(ar->repeat == buckets);
  CHECK(ar->message_bytes * ar->repeat == near(2 * P));
  CHECK(training_state_bytes(fwd) == near(16 * P));
  // Accumulating 4 micro-batches: 4x forward and backward, one exchange and update.
  t.accumulation_steps = 4;
  const op_graph acc = training_step(fwd, t);
  double acc_ops = 0;
  for (const auto& o : acc.ops) acc_ops += o.ops;
  CHECK(acc_ops == near(4 * 3 * fwd_ops + 10 * P));
  CHECK(acc.weight_bytes() == near(step.weight_bytes()));
  // One rank: nothing to exchange.
  t.data_parallel = 1;
  for (const auto& o : training_step(fwd, t).ops) CHECK(o.kind != op_kind::collective);
}
