// Training steps and operator builders against closed forms.
#include <doctest/doctest.h>

#include "approx.hpp"

#include <cmath>
#include <string>
#include <vector>

#include "ptsim/tlm_config/fusion.hpp"
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
  // The step's forward: the model's operators and BERT's dropout kernels.
  double fwd_ops = 0, bwd_ops = 0, adam_ops = 0;
  const op* ar = nullptr;
  for (const auto& o : step.ops) {
    const bool bwd = o.name.rfind("bwd_", 0) == 0;
    CHECK(o.backward == bwd);  // what backward_efficiency applies to
    if (bwd) bwd_ops += o.ops;
    if (o.name == "adam_update") adam_ops = o.ops;
    if (o.kind == op_kind::collective) ar = &o;
    if (!bwd && o.name != "adam_update" && o.kind != op_kind::collective) fwd_ops += o.ops;
  }
  CHECK(fwd_ops > fwd.total_ops());
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

TEST_CASE("dropout in training: its own kernel after the marked operator, none in a fused attention") {
  // fc: [4 x 8] x [8 x 16] in fp16, output 64 elements = 128 B, marked for dropout. The
  // dropout kernel reads the 128 B, writes them back and a one-byte mask per element
  // (64 B), ~2 operations per element.
  op fc = gemm_op("fc", 4, 16, 8, precision::fp16);
  fc.dropout = true;
  fold(fc, 3);  // three identical layers: the kernel repeats with them
  // 2 queries x 2 keys, 1 head of 4: the fused (eager) kernel drops out inside.
  op att = attention_op("att", 2, 4, 2, 1, 1, 4, precision::fp16, precision::fp16);
  att.dropout = true;
  op_graph g;
  g.prec = precision::fp16;
  g.ops = {fc, att};
  const op_graph step = training_step(g, training_options{});
  std::vector<std::string> names;
  for (const auto& o : step.ops) names.push_back(o.name);
  const std::vector<std::string> expected = {"fc", "fc_dropout", "att", "bwd_att", "bwd_fc_dropout", "bwd_fc",
                                             "adam_update"};
  CHECK(names == expected);
  const op& d = step.ops[1];
  CHECK(d.kind == op_kind::elementwise);
  CHECK(d.bytes_read == near(3 * 128.0));
  CHECK(d.bytes_written == near(3 * (128.0 + 64)));
  CHECK(d.ops == near(3 * 2 * 64.0));
  CHECK(d.repeat == 3);
  CHECK(d.weight_bytes == 0);
  // Its backward reads the incoming gradient and the mask (as twice its input) and writes
  // the gradient (as its output).
  CHECK(step.ops[4].bytes_read == near(2 * 3 * 128.0));
  // Inference never drops out: the forward graph is the model's own.
  for (const auto& o : build_model("bert_base", {{"batch", 2}, {"seq", 16}}, precision::fp16).ops)
    CHECK(o.name.find("dropout") == std::string::npos);
}

TEST_CASE("BERT trained unfused: scale and mask, softmax, and dropout on the scores") {
  // BERT-base, batch 2 of 16 tokens, fp16: 12 layers x 12 heads x 2 x 16 x 16 = 73728 score
  // elements = 147456 B. Unfused (none), scaling and masking read and write them twice
  // before the softmax's pass; in training dropout on the probabilities reads them, writes
  // them and a 73728-byte mask.
  const op_graph fwd = fuse(build_model("bert_base", {{"batch", 2}, {"seq", 16}}, precision::fp16), fusion_rules::none);
  const op_graph step = training_step(fwd, training_options{});
  const op* prep = nullptr;
  const op* softmax = nullptr;
  const op* drop = nullptr;
  int dropouts = 0;
  for (const auto& o : step.ops) {
    if (o.name == "attention_scale_mask") prep = &o;
    if (o.name == "attention_softmax") softmax = &o;
    if (o.name == "attention_softmax_dropout") drop = &o;
    if (o.name.size() > 8 && o.name.compare(o.name.size() - 8, 8, "_dropout") == 0 && o.name.rfind("bwd_", 0) != 0)
      ++dropouts;
  }
  REQUIRE(prep);
  REQUIRE(softmax);
  REQUIRE(drop);
  const double s_bytes = 12 * 12 * 2 * 16 * 16 * 2.0;
  CHECK(prep->bytes_read == near(2 * s_bytes));
  CHECK(prep->bytes_written == near(2 * s_bytes));
  CHECK(softmax->bytes_read == near(s_bytes));
  CHECK(softmax->bytes_written == near(s_bytes));
  CHECK(drop->bytes_read == near(s_bytes));
  CHECK(drop->bytes_written == near(s_bytes + s_bytes / 2));
  CHECK(drop->repeat == 12);
  // Embeddings, attention probabilities, attention output and FFN output.
  CHECK(dropouts == 4);
}
