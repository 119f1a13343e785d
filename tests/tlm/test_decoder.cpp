// Decoder shapes and serving iterations against closed forms worked out by hand.
#include <doctest/doctest.h>

#include "approx.hpp"

#include <cmath>
#include <stdexcept>
#include <utility>

#include "ptsim/tlm_config/decoder.hpp"
#include "ptsim/tlm_config/model_zoo.hpp"

using tlm_test::near;
using namespace ptsim::tlm_config;

namespace {
double sum_ops(const op_graph& g, op_kind k) {
  double s = 0;
  for (const auto& o : g.ops)
    if (o.kind == k) s += o.ops;
  return s;
}
// FP8 weights and KV cache over `tp` tensor-parallel ranks.
decoder_options fp8_ranks(int tp) {
  decoder_options o;
  o.tensor_parallel = tp;
  o.weights = precision::fp8;
  o.kv = precision::fp8;
  return o;
}
double sum_weights(const op_graph& g) {
  double s = 0;
  for (const auto& o : g.ops) s += o.weight_bytes;
  return s;
}
}  // namespace

TEST_CASE("decoder presets have the published parameter counts") {
  // Llama 2 70B: per layer q,k,v 8192 x (64 + 2*8) x 128 = 83,886,080; o 8192 x 8192 =
  // 67,108,864; FFN 3 x 8192 x 28672 = 704,643,072; norms 16,384 -> 855,654,400 x 80 =
  // 68,452,352,000; embeddings 2 x 32000 x 8192 = 524,288,000; final norm 8192.
  CHECK(decoder_model("llama2_70b", {}).parameters() == near(68'976'648'192.0));
  // Llama 2 7B (multi-head: 32 KV heads): per layer q,k,v 4096 x 96 x 128 = 50,331,648; o
  // 16,777,216; FFN 3 x 4096 x 11008 = 135,266,304; norms 8,192 -> 202,383,360 x 32 =
  // 6,476,267,520; embeddings 2 x 32000 x 4096 = 262,144,000; final norm 4,096: the
  // 6,738,415,616 of the Hugging Face model card.
  CHECK(decoder_model("llama2_7b", {}).parameters() == near(6'738'415'616.0));
  // Llama 3 8B: 218,112,000 x 32 + 2 x 128256 x 4096 + 4096 = 8,030,261,248.
  CHECK(decoder_model("llama3_8b", {}).parameters() == near(8'030'261'248.0));
  // Llama 3.1 405B: q,k,v 16384 x (128 + 2*8) x 128 = 301,989,888; o 268,435,456; FFN 3 x
  // 16384 x 53248 = 2,617,245,696; norms 32,768 -> 3,187,703,808 x 126 = 401,650,679,808;
  // embeddings 2 x 128256 x 16384 = 4,202,692,608; final norm 16,384.
  CHECK(decoder_model("llama3_405b", {}).parameters() == near(405'853'388'800.0));
  // Llama 3.2 1B, tied: 60,821,504 x 16 + 128256 x 2048 + 2048 = 1,235,814,400.
  CHECK(decoder_model("llama3_2_1b", {}).parameters() == near(1'235'814'400.0));
  // Shape parameters override the preset.
  CHECK(decoder_model("llama3_8b", {{"layers", 16}}).layers == 16);
  CHECK_THROWS_AS(decoder_model("resnet50", {}), std::invalid_argument);
}

TEST_CASE("a decode iteration of Llama 2 70B on 4 tensor-parallel ranks") {
  const decoder_shape s = decoder_model("llama2_70b", {});
  const decoder_options o = fp8_ranks(4);
  decoder_batch b;
  b.decode_seqs = 16;
  b.decode_context = 16 * 1000.0;
  b.logits_rows = 16;
  const op_graph g = decoder_iteration(s, b, o);
  // Per rank: 16 query heads, 2 KV heads, FFN 7168. Weights per token and layer:
  // qkv 8192 x 20 x 128 = 20,971,520; o 16 x 128 x 8192 = 16,777,216; gate+up 2 x 7168 x
  // 8192 = 117,440,512; down 7168 x 8192 = 58,720,256 -> 213,909,504.
  const double layer_w = 213'909'504.0;
  const double head_w = 8000.0 * 8192;  // lm_head: vocab / 4 x hidden
  CHECK(sum_ops(g, op_kind::gemm) == near(2 * 16 * (layer_w * 80 + head_w)));
  // Attention: 4 x keys attended (16 x 1000) x head_dim 128 x 16 heads x 80 layers.
  CHECK(sum_ops(g, op_kind::attention) == near(4 * 16000.0 * 128 * 16 * 80));
  // Every weight is read once per iteration (FP8: one byte each), and the two RMSNorm
  // weight vectors per layer and the final one in bf16 (161 x 8192 x 2 B).
  CHECK(sum_weights(g) == near(layer_w * 80 + head_w + 161 * 8192 * 2.0));
  // The KV cache read: 16000 tokens x 80 layers x K and V x 2 heads x 128 x 1 B.
  double kv_read = 0;
  for (const auto& op : g.ops)
    if (op.kind == op_kind::attention) kv_read += op.bytes_read - 16 * 16 * 128 * 2.0 * 80;  // less Q
  CHECK(kv_read == near(16000.0 * 80 * 2 * 2 * 128));
  // Two all-reduces per layer of the hidden state (16 tokens x 8192 x 2 B of bf16).
  int collectives = 0;
  for (const auto& op : g.ops)
    if (op.kind == op_kind::collective && op.collective == collective_kind::all_reduce) {
      collectives += static_cast<int>(op.repeat);
      CHECK(op.message_bytes == near(16 * 8192 * 2.0));
    }
  CHECK(collectives == 160);
  // Resident weights per rank: layers + embeddings (untied: 2 x 8000 x 8192) + norms in
  // bf16 ((2 x 80 + 1) x 8192 x 2 B); KV per token and rank 80 x 2 x 2 x 128 x 1 B.
  CHECK(decoder_weight_bytes_per_rank(s, o) == near(layer_w * 80 + 2 * 8000.0 * 8192 + 161 * 8192 * 2.0));
  CHECK(decoder_kv_bytes_per_token_per_rank(s, o) == near(40960));
}

TEST_CASE("pipeline stages split Llama 2 70B's layers: the embedding first, the logits last, a send between") {
  const decoder_shape s = decoder_model("llama2_70b", {});
  CHECK(decoder_stage_layers(s, 3, 0) == 27);  // 80 = 27 + 27 + 26
  CHECK(decoder_stage_layers(s, 3, 1) == 27);
  CHECK(decoder_stage_layers(s, 3, 2) == 26);
  CHECK(decoder_split_problem(s, 1, 80).empty());
  CHECK_FALSE(decoder_split_problem(s, 1, 81).empty());  // a stage without a layer
  decoder_options o;
  o.weights = precision::fp8;
  o.kv = precision::fp8;
  o.pipeline_parallel = 2;
  decoder_batch b;
  b.decode_seqs = 16;
  b.decode_context = 16 * 1000.0;
  b.logits_rows = 16;
  // Per layer (TP1): qkv 8192 x 80 x 128 = 83,886,080; o 67,108,864; FFN 704,643,072.
  const double layer_w = 855'638'016.0, head_w = 32000.0 * 8192;
  const auto count = [](const op_graph& g, const char* name) {
    int n = 0;
    for (const auto& op : g.ops) n += op.name == name;
    return n;
  };
  o.pipeline_stage = 0;
  const op_graph first = decoder_iteration(s, b, o);
  o.pipeline_stage = 1;
  const op_graph last = decoder_iteration(s, b, o);
  CHECK(count(first, "embedding") == 1);
  CHECK(count(last, "embedding") == 0);
  CHECK(count(first, "lm_head") == 0);
  CHECK(count(last, "lm_head") == 1);
  // 40 layers each; only the last stage projects the logits.
  CHECK(sum_ops(first, op_kind::gemm) == near(2 * 16 * layer_w * 40));
  CHECK(sum_ops(last, op_kind::gemm) == near(2 * 16 * (layer_w * 40 + head_w)));
  // The first stage sends its 16 tokens' hidden state (bf16) to the second, once.
  int sends = 0;
  for (const auto& op : first.ops)
    if (op.collective == collective_kind::send) {
      ++sends;
      CHECK(op.message_bytes == near(16 * 8192 * 2.0));
    }
  CHECK(sends == 1);
  for (const auto& op : last.ops) CHECK(op.collective != collective_kind::send);
  // The two stages together do what one rank does without pipelining.
  decoder_options one = o;
  one.pipeline_parallel = 1;
  one.pipeline_stage = 0;
  CHECK(sum_ops(first, op_kind::gemm) + sum_ops(last, op_kind::gemm) ==
        near(sum_ops(decoder_iteration(s, b, one), op_kind::gemm)));
  // Each rank holds its 40 layers and one of the two vocabulary matrices, with 81 norm
  // vectors in bf16; its KV cache per token is half of the whole model's.
  CHECK(decoder_weight_bytes_per_rank(s, o) == near(layer_w * 40 + head_w + 81 * 8192 * 2.0));
  CHECK(decoder_kv_bytes_per_token_per_rank(s, o) == near(decoder_kv_bytes_per_token_per_rank(s, one) / 2));
}

TEST_CASE("per_head decode attention: every query head's products on the CUDA cores, each K/V head read once") {
  const decoder_shape s = decoder_model("llama2_70b", {});
  decoder_options grouped;
  grouped.tensor_parallel = 4;
  grouped.weights = grouped.kv = precision::fp8;
  decoder_options per_head = grouped;
  per_head.decode_attention = decode_attention_kernel::per_head;
  // 16 sequences decoding after 1000 tokens each, and a 100-token prompt chunk after 200.
  decoder_batch b;
  b.decode_seqs = 16;
  b.decode_context = 16 * 1000.0;
  add_prefill_chunk(b, 200, 100);  // attended 100 x 200 + 5050 = 25,050; KV read 300
  b.logits_rows = 17;
  const op_graph g = decoder_iteration(s, b, grouped), h = decoder_iteration(s, b, per_head);
  const op* prefill = nullptr;
  const op* decode = nullptr;
  for (const auto& o : h.ops) {
    if (o.name == "attention") prefill = &o;
    if (o.name == "decode_attention") decode = &o;
  }
  REQUIRE(prefill);
  REQUIRE(decode);
  // Per rank 16 query heads, 2 KV heads, head dim 128, 80 layers; FP8 KV (1 B), bf16 Q (2 B).
  CHECK(decode->kind == op_kind::per_head_attention);
  CHECK(decode->cls == op_class::vector);
  CHECK(decode->prec == precision::fp32);
  CHECK(decode->ops == near(4 * 16000.0 * 128 * 16 * 80));
  // Q of 16 tokens, K and V of every context token once, and the 16 new tokens' K and V.
  CHECK(decode->bytes_read == near((16 * 16 * 128 * 2.0 + 2 * 16000.0 * 2 * 128) * 80));
  CHECK(decode->bytes_written == near((16 * 16 * 128 * 2.0 + 16 * 2 * 2 * 128.0) * 80));
  CHECK(decode->scores == 0);  // one fused kernel: fusion rules leave it whole
  CHECK(prefill->cls == op_class::tensor);
  CHECK(prefill->ops == near(4 * 25050.0 * 128 * 16 * 80));
  CHECK(prefill->bytes_read == near((100 * 16 * 128 * 2.0 + 2 * 300.0 * 2 * 128) * 80));
  // The same arithmetic and bytes as the grouped kernel's one operator, split in two.
  CHECK(sum_ops(h, op_kind::attention) + sum_ops(h, op_kind::per_head_attention) ==
        near(sum_ops(g, op_kind::attention)));
  CHECK(h.total_bytes() == near(g.total_bytes()));
  // The names parse back; anything else is refused.
  CHECK(parse_decode_attention("per_head") == decode_attention_kernel::per_head);
  CHECK(parse_decode_attention("grouped") == decode_attention_kernel::grouped);
  CHECK_THROWS_AS(parse_decode_attention("xqa"), std::invalid_argument);
}

TEST_CASE("prefill chunks attend causally") {
  decoder_batch b;
  // 50 tokens after 100 in the cache: sum over i = 1..50 of (100 + i) = 5000 + 1275.
  add_prefill_chunk(b, 100, 50);
  CHECK(b.prefill_tokens == 50);
  CHECK(b.prefill_attended == near(6275));
  CHECK(b.prefill_kv_read == near(150));
}

TEST_CASE("layer groups fold the same work into more operators") {
  const decoder_shape s = decoder_model("llama3_8b", {});
  decoder_batch b;
  add_prefill_chunk(b, 0, 512);
  b.logits_rows = 1;
  decoder_options one, four;
  four.layer_groups = 4;
  const op_graph g1 = decoder_iteration(s, b, one), g4 = decoder_iteration(s, b, four);
  CHECK(g4.ops.size() > g1.ops.size());
  CHECK(g4.total_ops() == near(g1.total_ops()));
  CHECK(g4.total_bytes() == near(g1.total_bytes()));
}

TEST_CASE("shapes that do not split over the ranks are rejected") {
  const decoder_shape s = decoder_model("llama2_70b", {});
  CHECK(decoder_split_problem(s, 4).empty());
  CHECK(decoder_split_problem(s, 16).empty());  // 8 KV heads: ranks share copies
  CHECK_FALSE(decoder_split_problem(s, 3).empty());
  CHECK_FALSE(decoder_split_problem(s, 0).empty());
  decoder_options o;
  o.tensor_parallel = 3;
  CHECK_THROWS_AS(decoder_iteration(s, decoder_batch{}, o), std::invalid_argument);
}

TEST_CASE("w4a16: 4-bit weights halve the bytes read per decoded token, the GEMMs compute at 16 bits") {
  const decoder_shape s = decoder_model("llama3_2_3b", {});
  decoder_batch b;
  b.decode_seqs = 1;
  b.decode_context = 0;
  b.logits_rows = 1;
  decoder_options w4;
  w4.weights = precision::int4;
  w4.kv = precision::fp16;
  decoder_options w8 = w4;
  w8.weights = precision::int8;
  // Llama 3.2 3B per layer: qkv 3072 x (24 + 2 x 8) x 128 = 15,728,640; o 24 x 128 x 3072 =
  // 9,437,184; gate+up 2 x 8192 x 3072 = 50,331,648; down 8192 x 3072 = 25,165,824 ->
  // 100,663,296 x 28 layers = 2,818,572,288; lm_head (tied) 128,256 x 3072 = 394,002,432.
  const double gemm_w = 2'818'572'288.0 + 394'002'432.0;
  const double norms = (2 * 28 + 1) * 3072 * 2.0;  // RMSNorm weights stay 16-bit
  const op_graph g4 = decoder_iteration(s, b, w4), g8 = decoder_iteration(s, b, w8);
  CHECK(sum_weights(g4) == near(gemm_w * 0.5 + norms));  // 1,606,637,568 B per token
  CHECK(sum_weights(g8) == near(gemm_w * 1.0 + norms));
  // The same arithmetic (2 ops per MAC), at the activations' precision for w4a16, at int8 for w8a8.
  CHECK(sum_ops(g4, op_kind::gemm) == near(2 * gemm_w));
  CHECK(sum_ops(g8, op_kind::gemm) == near(2 * gemm_w));
  for (const auto& o : g4.ops)
    if (o.kind == op_kind::gemm) CHECK(o.prec == precision::bf16);
  for (const auto& o : g8.ops)
    if (o.kind == op_kind::gemm) CHECK(o.prec == precision::int8);
  CHECK(decoder_gemm_precision(precision::int4) == precision::bf16);
  CHECK(decoder_gemm_precision(precision::fp8) == precision::fp8);
  // Resident: layers + the one tied embedding table at 4 bits + norms.
  CHECK(decoder_weight_bytes_per_rank(s, w4) == near(gemm_w * 0.5 + norms));
  CHECK(element_bytes(parse_precision("int4")) == 0.5);
}

TEST_CASE("mixture-of-experts presets have the published parameter counts") {
  // Mixtral 8x7B: per layer q,k,v 4096 x (32 + 2*8) x 128 = 25,165,824; o 16,777,216; 8
  // experts x 3 x 4096 x 14336 = 1,409,286,144; router 4096 x 8 = 32,768; norms 8,192 ->
  // 1,451,270,144 x 32 = 46,440,644,608; embeddings 2 x 32000 x 4096 = 262,144,000; final
  // norm 4,096: 46,702,792,704, the model card's 46.7 B.
  const decoder_shape mixtral = decoder_model("mixtral_8x7b", {});
  CHECK(mixtral.moe());
  CHECK(mixtral.parameters() == near(46'702'792'704.0));
  // Qwen3-30B-A3B: q,k,v 2048 x (32 + 2*4) x 128 = 10,485,760; o 8,388,608; 128 x 3 x 2048 x
  // 768 = 603,979,776; router 262,144; norms 4,096 -> 623,120,384 x 48 = 29,909,778,432;
  // embeddings 2 x 151936 x 2048 = 622,329,856; final norm 2,048 (its per-head q/k norms,
  // 12,288 parameters, are not counted).
  CHECK(decoder_model("qwen3_30b_a3b", {}).parameters() == near(30'532'110'336.0));
  // A dense preset stays dense; experts turn its FFN into that many of the same width.
  CHECK_FALSE(decoder_model("llama3_8b", {}).moe());
}

TEST_CASE("experts hit by an iteration's tokens") {
  const decoder_shape s = decoder_model("mixtral_8x7b", {});
  // One token: exactly its k = 2 experts. Two: 8 (1 - (6/8)^2) = 3.5. Many: all eight.
  CHECK(decoder_experts_hit(s, 1) == near(2.0));
  CHECK(decoder_experts_hit(s, 2) == near(3.5));
  CHECK(decoder_experts_hit(s, 1000) == near(8.0));
  CHECK(decoder_experts_hit(s, 0) == 0);
  CHECK(decoder_experts_hit(decoder_model("llama3_8b", {}), 100) == 0);
}

TEST_CASE("an MoE decode iteration reads the experts its tokens hit and computes k of them per token") {
  const decoder_shape s = decoder_model("mixtral_8x7b", {});
  const decoder_options o = fp8_ranks(2);
  const auto ffn_ops = [&](const op_graph& g, double& ops, double& weights) {
    ops = weights = 0;
    for (const auto& x : g.ops)
      if (x.name == "experts_gate_up" || x.name == "experts_down") {
        CHECK(x.kind == op_kind::expert_gemm);
        ops += x.ops;
        weights += x.weight_bytes;
      }
  };
  // Experts hit by 1, 2 and 64 tokens: 2, 8 (1 - 0.75^2) = 3.5 and 8 (1 - 0.75^64) (all but 1e-7).
  const std::pair<double, double> cases[] = {{1.0, 2.0}, {2.0, 3.5}, {64.0, 8 * (1 - std::pow(0.75, 64))}};
  for (const auto& c : cases) {
    const double seqs = c.first, hit = c.second;
    CAPTURE(seqs);
    decoder_batch b;
    b.decode_seqs = seqs;
    b.decode_context = seqs * 100;
    b.logits_rows = seqs;
    double ops = 0, weights = 0;
    ffn_ops(decoder_iteration(s, b, o), ops, weights);
    // Arithmetic: seqs x 2 experts x 2 x 3 x 4096 x 14336/2 per layer, 32 layers.
    CHECK(ops == near(seqs * 2 * 2 * 3 * 4096.0 * 7168 * 32));
    // Weights read: the experts hit, each 3 x 4096 x 7168 FP8 bytes on a rank, per layer.
    CHECK(weights == near(hit * 3 * 4096.0 * 7168 * 32));
  }
  // The router runs on every rank over every token, in 16 bits: 2 x 4096 x 8 per token per layer.
  decoder_batch b;
  b.decode_seqs = 10;
  b.decode_context = 1000;
  b.logits_rows = 10;
  double router = 0;
  for (const auto& x : decoder_iteration(s, b, o).ops)
    if (x.name == "router") {
      router += x.ops;
      CHECK(x.prec == precision::bf16);
    }
  CHECK(router == near(10 * 2 * 4096.0 * 8 * 32));
}

TEST_CASE("an MoE rank holds its columns of every expert") {
  const decoder_shape s = decoder_model("mixtral_8x7b", {});
  const decoder_options o = fp8_ranks(2);
  // Per layer: q,k,v 4096 x (16 + 2*4) x 128 = 12,582,912; o 8,388,608; experts 8 x 3 x 4096
  // x 7168 = 704,643,072 (FP8, 1 B each) -> 725,614,592 x 32 = 23,219,666,944; embeddings
  // 2 x 16000 x 4096 = 131,072,000 B; norms (2 x 32 + 1) x 4096 x 2 B = 532,480 and the
  // router 32 x 4096 x 8 x 2 B = 2,097,152 in bf16.
  CHECK(decoder_weight_bytes_per_rank(s, o) == near(23'219'666'944.0 + 131'072'000 + 532'480 + 2'097'152));
}

TEST_CASE("MoE shapes that cannot route are refused") {
  decoder_shape s = decoder_model("mixtral_8x7b", {});
  s.experts_per_token = 9;
  CHECK(decoder_split_problem(s, 1).find("experts_per_token") != std::string::npos);
  s.experts_per_token = 0;
  CHECK(decoder_split_problem(s, 1).find("experts_per_token") != std::string::npos);
  CHECK_THROWS_AS(decoder_model("llama3_8b", {{"experts_per_token", 2}}), std::invalid_argument);
  CHECK(decoder_split_problem(decoder_model("mixtral_8x7b", {}), 2).empty());
}

TEST_CASE("a generation graph holds the model's weights once, however many decode steps re-read them") {
  // Llama 3 8B in bf16: 8,030,261,248 parameters x 2 B (norms in bf16 too), whatever the
  // number of output tokens; the decode steps' operators still read them every step.
  for (double out : {1.0, 2.0, 128.0}) {
    CAPTURE(out);
    const op_graph g = build_model("llama3_8b", {{"batch", 8}, {"prompt", 128}, {"output", out}}, precision::bf16);
    CHECK(g.weight_bytes() == near(8'030'261'248.0 * 2));
    double read = 0;
    for (const auto& x : g.ops) read += x.bytes_read;
    CHECK(read > out * 8'030'261'248.0 * 2 * 0.9);  // every step streams (nearly) all of them
  }
  // An MoE holds all its experts even when a short prompt's tokens hit only some of them.
  decoder_options o;
  o.weights = precision::bf16;
  const op_graph m = build_model("mixtral_8x7b", {{"prompt", 1}, {"output", 4}}, precision::bf16);
  CHECK(m.weight_bytes() == near(decoder_weight_bytes_per_rank(decoder_model("mixtral_8x7b", {}), o)));
}
