// Operator fusion (fusion.hpp): arithmetic preserved exactly, and exactly the
// intermediate activations' write and read removed, on graphs small enough to count by hand.
#include <doctest/doctest.h>

#include "relative_approx.hpp"

#include <stdexcept>
#include <string>

#include "ptsim/tlm_config/decoder.hpp"
#include "ptsim/tlm_config/fusion.hpp"
#include "ptsim/tlm_config/model_zoo.hpp"
#include "ptsim/tlm_config/operators.hpp"

using namespace ptsim::tlm_config;

namespace {
double moved(const op_graph& g) {
  double b = 0;
  for (const op& o : g.ops) b += o.bytes_read + o.bytes_written;
  return b;
}
}  // namespace

TEST_CASE("conv + bias/ReLU + residual add: one kernel, two intermediates' write and read gone") {
  // int8 (1 B per element). conv 3x3, 8x8x4 -> 8x8x8: 8*8*8 * 3*3*4 = 18432 MACs = 36864 ops;
  // weights 8*3*3*4 = 288 B, input 8*8*4 = 256 B, output 512 B.
  op conv;
  conv.name = "conv3x3";
  conv.kind = op_kind::conv;
  conv.prec = precision::int8;
  conv.ops = 36864;
  conv.weight_bytes = 288;
  conv.bytes_read = 288 + 256;
  conv.bytes_written = 512;
  // bias + ReLU: 512 elements, 2 ops each = 1024 ops; reads the conv output and 8 B of bias.
  const op bias_relu = elementwise_op("bias+relu", 512, 2, 1, precision::int8, op_kind::elementwise, 8);
  // Residual add: reads that and the shortcut (2 x 512 B), 1 op each, writes 512 B.
  const op add = elementwise_op("add", 512, 1, 2, precision::int8);
  const op pool = elementwise_op("avgpool", 8, 64, 64, precision::int8, op_kind::pool);
  op_graph g;
  g.prec = precision::int8;
  g.ops = {conv, bias_relu, add, pool};

  const op_graph f = fuse(g, fusion_rules::tensorrt);
  REQUIRE(f.ops.size() == 2);
  const op& k = f.ops[0];
  CHECK(k.name == "conv3x3+bias+relu+add");
  CHECK(k.kind == op_kind::conv);
  CHECK(k.ops == 36864 + 1024 + 512);                    // 38400: arithmetic kept
  CHECK(k.bytes_read == 288 + 256 + 8 + 512);             // weights, input, bias, shortcut = 1064
  CHECK(k.bytes_written == 512);                          // only the add's output
  CHECK(k.weight_bytes == 296);
  CHECK(f.total_ops() == g.total_ops());
  // Unfused 1056 + 1032 + 1536 (+ pool) B; fused 1576 (+ pool): 2 x (512 written + 512 read) less.
  CHECK(moved(g) - moved(f) == 2048);
  CHECK(f.ops[1].name == "avgpool");

  // eager and none leave these kernels alone (none only splits attention).
  CHECK(fuse(g, fusion_rules::eager).ops.size() == 4);
  CHECK(fuse(g, fusion_rules::none).ops.size() == 4);
  CHECK(moved(fuse(g, fusion_rules::none)) == moved(g));
}

TEST_CASE("what tensorrt does not fuse: norms, pools, a consumer of part of the output, the last operator") {
  const op gemm = gemm_op("fc", 4, 16, 16, precision::fp16);  // writes 4*16*2 = 128 B
  op_graph g;
  g.prec = precision::fp16;
  g.ops = {gemm, elementwise_op("layernorm", 64, 8, 1, precision::fp16, op_kind::norm)};
  CHECK(fuse(g, fusion_rules::tensorrt).ops.size() == 2);
  g.ops = {gemm, elementwise_op("half", 32, 1, 1, precision::fp16), gemm};  // reads 64 of 128 B
  CHECK(fuse(g, fusion_rules::tensorrt).ops.size() == 3);
  g.ops = {gemm, elementwise_op("sample", 64, 5, 1, precision::fp16)};  // last: its own kernel
  CHECK(fuse(g, fusion_rules::tensorrt).ops.size() == 2);
  g.ops = {gemm, elementwise_op("gelu", 64, 8, 1, precision::fp16), gemm};
  const op_graph f = fuse(g, fusion_rules::tensorrt);
  REQUIRE(f.ops.size() == 2);
  CHECK(f.ops[0].name == "fc+gelu");
  CHECK(moved(g) - moved(f) == 2 * 128);
}

TEST_CASE("attention unfused (none): the S x S scores and probabilities go to memory and back") {
  // 128 tokens attending to 128 (bidirectional), 4 heads of 32, fp16 (2 B).
  // ops = 4 * (128*128) * 32 * 4 = 8388608. Q = K = V = O = 128*4*32*2 = 32768 B.
  // Scores: 128*128*4 = 65536 elements = 131072 B, written by QK^T, read and the
  // probabilities written by softmax, read by PV: 4 x 131072 = 524288 B more.
  const op a = attention_op("attention", 128, 128 * 128, 128, 4, 4, 32, precision::fp16, precision::fp16);
  REQUIRE(a.ops == 8388608);
  REQUIRE(a.bytes_read == 3 * 32768);
  op_graph g;
  g.prec = precision::fp16;
  g.ops = {a};
  const op_graph n = fuse(g, fusion_rules::none);
  REQUIRE(n.ops.size() == 3);
  CHECK(n.ops[0].name == "attention_scores");
  CHECK(n.ops[0].ops == 4194304);
  CHECK(n.ops[0].bytes_read == 2 * 32768);  // Q, K
  CHECK(n.ops[0].bytes_written == 131072);
  CHECK(n.ops[1].name == "attention_softmax");
  CHECK(n.ops[1].bytes_read == 131072);
  CHECK(n.ops[1].bytes_written == 131072);
  CHECK(n.ops[2].name == "attention_context");
  CHECK(n.ops[2].ops == 4194304);
  CHECK(n.ops[2].bytes_read == 32768 + 131072);  // V, probabilities
  CHECK(n.ops[2].bytes_written == 32768);        // O
  CHECK(n.total_ops() == g.total_ops());
  CHECK(moved(n) - moved(g) == 524288);
  // The products are GEMMs per sequence and head, which the attention's shape (keys attended
  // summed over the queries) does not describe: no shape, so GEMM tiling and a profile's GEMM
  // rows leave them alone (with it, a unit's tiling took 16,384 keys as one GEMM's columns).
  REQUIRE(a.shape_n == 128 * 128);
  for (const op& o : n.ops) CHECK(o.shape_m + o.shape_n + o.shape_k == 0);
  // The fused kernel is what every other rule set runs.
  CHECK(fuse(g, fusion_rules::tensorrt).ops.size() == 1);
  CHECK(fuse(g, fusion_rules::eager).ops.size() == 1);

  // Folded over 24 layers and batched by 3: the score matrix scales with both.
  op folded = a;
  fold(folded, 24);
  g.ops = {folded};
  const op_graph nb = fuse(batched(g, 3), fusion_rules::none);
  CHECK(moved(nb) - moved(batched(g, 3)) == 524288.0 * 24 * 3);
  CHECK(nb.ops[1].repeat == 24);

  // An implementation that scales and masks the scores before the softmax, each its own
  // kernel: one more operator of two reads and two writes of them, the products unchanged.
  op three = a;
  three.pre_softmax_passes = 2;
  g.ops = {three};
  const op_graph n3 = fuse(g, fusion_rules::none);
  REQUIRE(n3.ops.size() == 4);
  CHECK(n3.ops[1].name == "attention_scale_mask");
  CHECK(n3.ops[1].bytes_read == 2 * 131072);
  CHECK(n3.ops[1].bytes_written == 2 * 131072);
  CHECK(n3.ops[2].name == "attention_softmax");
  CHECK(n3.ops[2].bytes_read == 131072);
  CHECK(moved(n3) - moved(g) == 524288 + 4 * 131072);
  CHECK(n3.total_ops() == g.total_ops());
}

TEST_CASE("ResNet-50 under tensorrt: every batch norm, ReLU and residual add joins the conv before it; ops kept") {
  const op_graph g = build_model("resnet50", {{"batch", 1}}, precision::int8);
  const op_graph f = fuse(g, fusion_rules::tensorrt);
  // Eager: 53 convolutions, each with its batch norm; ReLU after the stem, after the first two
  // convolutions of each of the 16 bottlenecks and after its residual add (1 + 16 x 3 = 49).
  double intermediates = 0;  // each fused operator's producer output: written and read back when unfused
  int convs = 0, bns = 0, relus = 0, adds = 0;
  for (std::size_t i = 0; i < g.ops.size(); ++i) {
    const std::string& n = g.ops[i].name;
    convs += g.ops[i].kind == op_kind::conv;
    const bool fusible = n == "bn" || n == "relu" || n == "residual_add";
    if (fusible) intermediates += g.ops[i - 1].bytes_written;
    bns += n == "bn", relus += n == "relu", adds += n == "residual_add";
  }
  CHECK(convs == 53);
  CHECK(bns == 53);
  CHECK(relus == 49);
  CHECK(adds == 16);
  CHECK(g.ops.size() == 53 + 53 + 49 + 16 + 3);  // + maxpool, avgpool, fc
  CHECK(f.ops.size() == g.ops.size() - 53 - 49 - 16);
  CHECK(f.total_ops() == g.total_ops());
  CHECK(f.weight_bytes() == g.weight_bytes());
  CHECK(moved(g) - moved(f) == ptsim_test::Approx(2 * intermediates).epsilon(1e-12));
  int fused_adds = 0, fused_relus = 0;
  for (const op& o : f.ops) {
    fused_adds += o.name.find("+residual_add") != std::string::npos;
    fused_relus += o.name.find("+relu") != std::string::npos;
    CHECK(o.name.find("bn") != 0);  // no batch norm left on its own
  }
  CHECK(fused_adds == 16);
  CHECK(fused_relus == 49);
}

TEST_CASE("rule set names") {
  for (auto r : {fusion_rules::eager, fusion_rules::none, fusion_rules::tensorrt})
    CHECK(parse_fusion_rules(to_string(r)) == r);
  CHECK_THROWS_AS(parse_fusion_rules("xla"), std::invalid_argument);
}

TEST_CASE("a decoder iteration under its options' rule set: fused SwiGLU, or attention with its scores in memory") {
  decoder_shape s;
  s.name = "tiny";
  s.layers = 2, s.hidden = 64, s.heads = 4, s.kv_heads = 2, s.head_dim = 16, s.ffn = 128, s.vocab = 100;
  decoder_batch b;
  b.decode_seqs = 3;
  b.decode_context = 3 * 40;  // three sequences at 40 tokens of context
  b.logits_rows = 3;
  decoder_options o;
  o.weights = precision::bf16;
  const op_graph eager = decoder_iteration(s, b, o);
  o.fusion = fusion_rules::tensorrt;
  const op_graph trt = decoder_iteration(s, b, o);
  CHECK(trt.total_ops() == eager.total_ops());
  bool swiglu = false;
  for (const op& x : trt.ops) swiglu |= x.name == "gate_up_proj+silu_mul";
  CHECK(swiglu);
  // gate_up writes 3 tokens x 2 x 128 bf16 = 1536 B per layer, read back by silu_mul: x 2 layers x 2.
  CHECK(moved(eager) - moved(trt) == 2 * 1536.0 * 2);
  CHECK(trt.ops.back().name == "sample");  // the last operator keeps its own kernel
  o.fusion = fusion_rules::none;
  const op_graph none = decoder_iteration(s, b, o);
  // Scores: 120 attended keys x 4 heads x 2 layers = 960 elements = 1920 B (bf16), x 4 trips.
  CHECK(moved(none) - moved(eager) == 4 * 1920.0);
  CHECK(none.total_ops() == eager.total_ops());
}
