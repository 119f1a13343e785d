// Llama-style decoder iteration (Touvron et al. 2023: pre-norm RMSNorm, grouped-query
// attention, SwiGLU FFN), split Megatron-style over tensor-parallel ranks (Shoeybi et
// al. 2019): each rank holds heads/tp query heads, its share of the KV heads, ffn/tp FFN
// columns and vocab/tp embedding rows; the attention output and FFN down projections end
// in an all-reduce of the hidden state. A mixture-of-experts FFN (Shazeer et al. 2017;
// Mixtral, Jiang et al. 2024) routes each token to its top-k experts; tensor parallelism
// splits every expert's columns as it splits a dense FFN's (TensorRT-LLM's and vLLM's
// default for TP without expert parallelism). Pipeline parallelism (GPipe, Huang et al. 2019, as
// TensorRT-LLM and vLLM run it for inference) splits the layers into consecutive stages.
#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "ptsim/tlm_config/decoder.hpp"
#include "ptsim/tlm_config/operators.hpp"

namespace ptsim::tlm_config {

namespace {

// Activations stay in 16-bit (the norms, softmax and all-reduces of FP8 and INT8
// inference run in bf16); an fp32 model keeps them in fp32.
precision activation_precision(precision weights) {
  return weights == precision::fp32 ? precision::fp32 : precision::bf16;
}

bool weight_only(precision weights) { return weights == precision::int4; }

double kv_heads_per_rank(const decoder_shape& s, int tp) {
  // Fewer KV heads than ranks: each rank keeps a copy of the one its query heads use.
  return std::max(1.0, static_cast<double>(s.kv_heads) / tp);
}

// One layer's mixture-of-experts FFN on a rank, for T tokens: the router's logits and
// top-k, then grouped GEMMs (one kernel over all experts, as TensorRT-LLM's and vLLM's
// fused MoE run it; kind expert_gemm, which takes gemm's settings unless a unit gives its
// own) whose rows are the T x k routed tokens and whose weights are those of the experts
// hit, then the weighted sum of each token's k outputs.
std::vector<op> moe_ffn(const decoder_shape& s, double T, const decoder_options& o) {
  const precision w = o.weights, act = activation_precision(w), mm = decoder_gemm_precision(w);
  const double h = s.hidden, f = s.ffn / static_cast<double>(o.tensor_parallel), k = s.experts_per_token;
  const double rows = T * k, hit = decoder_experts_hit(s, T);
  const auto grouped = [&](const char* name, double n, double inner) {
    op g = weight_gemm_op(name, rows, n, inner, mm, act, w);
    g.kind = op_kind::expert_gemm;
    const double one = g.weight_bytes;  // one expert's matrix
    g.bytes_read += (hit - 1) * one;
    g.weight_bytes = hit * one;
    g.shape_m = rows / hit;  // one expert's rows, on average
    return g;
  };
  std::vector<op> v;
  v.push_back(weight_gemm_op("router", T, s.experts, h, act, act, act));
  v.push_back(elementwise_op("route_topk", T * s.experts, 5, 1, act));
  v.push_back(grouped("experts_gate_up", 2 * f, h));
  v.push_back(elementwise_op("silu_mul", rows * f, 5, 2, act));
  v.push_back(grouped("experts_down", h, f));
  op combine = elementwise_op("experts_combine", rows * h, 2, 1, act);
  combine.bytes_written = T * h * element_bytes(act);  // k outputs weighted into one per token
  v.push_back(combine);
  return v;
}

}  // namespace

const char* to_string(decode_attention_kernel k) {
  return k == decode_attention_kernel::per_head ? "per_head" : "grouped";
}

std::vector<std::string> decode_attention_names() { return {"grouped", "per_head"}; }

decode_attention_kernel parse_decode_attention(const std::string& s) {
  for (auto k : {decode_attention_kernel::grouped, decode_attention_kernel::per_head})
    if (s == to_string(k)) return k;
  throw std::invalid_argument("unknown decode attention kernel '" + s + "' (expected grouped or per_head)");
}

precision decoder_gemm_precision(precision weights) {
  return weight_only(weights) ? activation_precision(weights) : weights;
}

double decoder_shape::parameters() const {
  const double h = hidden, attention = h * (heads + 2.0 * kv_heads) * head_dim + h * heads * head_dim;
  const double mlp = moe() ? experts * 3.0 * h * ffn + h * experts : 3.0 * h * ffn;
  return vocab * h * (tied_embeddings ? 1 : 2) + layers * (attention + mlp + 2 * h) + h;
}

double decoder_experts_hit(const decoder_shape& s, double tokens) {
  if (!s.moe() || !(tokens > 0)) return 0;
  const double e = s.experts, miss = 1.0 - static_cast<double>(s.experts_per_token) / e;
  return e * (1.0 - std::pow(miss, tokens));
}

std::string decoder_split_problem(const decoder_shape& s, int tp, int pp) {
  if (tp < 1) return "tensor_parallel must be >= 1";
  if (pp < 1) return "pipeline_parallel must be >= 1";
  if (pp > s.layers)
    return "layers (" + std::to_string(s.layers) + ") cannot fill " + std::to_string(pp) + " pipeline stages";
  if (s.heads % tp) return "heads (" + std::to_string(s.heads) + ") do not split over " + std::to_string(tp) + " ranks";
  if (s.kv_heads % tp && tp % s.kv_heads)
    return "kv_heads (" + std::to_string(s.kv_heads) + ") neither split over nor divide " + std::to_string(tp) + " ranks";
  if (s.ffn % tp) return "ffn (" + std::to_string(s.ffn) + ") does not split over " + std::to_string(tp) + " ranks";
  if (s.heads % s.kv_heads) return "heads must be a multiple of kv_heads";
  if (s.experts < 0) return "experts must be >= 0";
  if (s.moe() && (s.experts_per_token < 1 || s.experts_per_token > s.experts))
    return "experts_per_token (" + std::to_string(s.experts_per_token) + ") must be 1.." + std::to_string(s.experts) +
           " (the experts)";
  if (!s.moe() && s.experts_per_token != 0) return "experts_per_token needs experts > 0";
  return "";
}

int decoder_stage_layers(const decoder_shape& s, int stages, int stage) {
  stages = std::max(1, stages);
  return s.layers / stages + (stage < s.layers % stages ? 1 : 0);
}

double decoder_weight_bytes_per_rank(const decoder_shape& s, const decoder_options& o) {
  const double tp = o.tensor_parallel, h = s.hidden, hd = s.head_dim, eb = element_bytes(o.weights);
  const double qkv = h * (s.heads / tp + 2 * kv_heads_per_rank(s, o.tensor_parallel)) * hd;
  // Every rank holds its columns of every expert; the router stays in 16 bits (FP8
  // checkpoints leave it unquantised) on every rank.
  const double mlp = 3 * h * s.ffn / tp * (s.moe() ? s.experts : 1);
  const double per_layer = qkv + s.heads / tp * hd * h + mlp;
  const double layers = decoder_stage_layers(s, o.pipeline_parallel, 0);
  const double act_eb = element_bytes(activation_precision(o.weights));
  const double norms = (2.0 * layers + 1) * h * act_eb;
  const double routers = s.moe() ? layers * h * s.experts * act_eb : 0.0;
  // The embedding sits on the first stage and the output projection on the last: one
  // matrix each when they are different stages.
  const double embed = s.vocab / tp * h * (o.pipeline_parallel > 1 || s.tied_embeddings ? 1 : 2);
  return (layers * per_layer + embed) * eb + norms + routers;
}

double decoder_kv_bytes_per_token_per_rank(const decoder_shape& s, const decoder_options& o) {
  return decoder_stage_layers(s, o.pipeline_parallel, 0) * 2.0 * kv_heads_per_rank(s, o.tensor_parallel) * s.head_dim *
         element_bytes(o.kv);
}

void add_prefill_chunk(decoder_batch& b, double context, double chunk) {
  b.prefill_tokens += chunk;
  // Token i (1-based) of the chunk attends to context + i keys: sum = c*context + c(c+1)/2.
  b.prefill_attended += chunk * context + chunk * (chunk + 1) / 2;
  b.prefill_kv_read += context + chunk;
}

op_graph decoder_iteration(const decoder_shape& s, const decoder_batch& b, const decoder_options& o) {
  const std::string problem = decoder_split_problem(s, o.tensor_parallel, o.pipeline_parallel);
  if (!problem.empty()) throw std::invalid_argument(s.name + ": " + problem);
  const int pp = std::max(1, o.pipeline_parallel), stage = std::clamp(o.pipeline_stage, 0, pp - 1);
  const bool first = stage == 0, last = stage == pp - 1;
  const int layers = decoder_stage_layers(s, pp, stage);
  const double tp = o.tensor_parallel, h = s.hidden, hd = s.head_dim;
  const double hpr = s.heads / tp, kvpr = kv_heads_per_rank(s, o.tensor_parallel);
  const precision w = o.weights, act = activation_precision(w), mm = decoder_gemm_precision(w);
  const double act_eb = element_bytes(act);
  const double T = b.new_tokens();
  // A norm over `rows` rows of the hidden size (the shape a measured profile is keyed on).
  const auto norm = [h, act_eb, act](const char* name, double rows, double inputs) {
    op o = elementwise_op(name, rows * h, 4, inputs, act, op_kind::norm, h * act_eb);
    o.shape_m = rows;
    o.shape_k = h;
    return o;
  };

  op_graph g;
  g.name = s.name;
  g.prec = mm;
  if (!(T > 0)) return g;
  if (first) g.ops.push_back(embedding_op("embedding", T, h, act));

  const int groups = std::clamp(o.layer_groups, 1, layers);
  for (int gi = 0; gi < groups; ++gi) {
    // Layers in this group: the first (layers % groups) groups take one more.
    const double n = layers / groups + (gi < layers % groups ? 1 : 0);
    auto add = [&](op x) { g.ops.push_back(fold(x, n)); };
    add(norm("attn_norm", T, 2));
    add(weight_gemm_op("qkv_proj", T, (hpr + 2 * kvpr) * hd, h, mm, act, w));
    // Each operator also writes its new tokens' K and V.
    const double kv_write = 2 * kvpr * hd * element_bytes(o.kv);
    const bool per_head = o.decode_attention == decode_attention_kernel::per_head;
    // The attention operator: prefill chunks, and the decode steps unless per_head splits them off.
    const double queries = per_head ? b.prefill_tokens : T, context = per_head ? 0.0 : b.decode_context;
    if (queries > 0) {
      op attn = attention_op("attention", queries, b.prefill_attended + context, b.prefill_kv_read + context, hpr,
                             kvpr, hd, act, o.kv);
      attn.bytes_written += queries * kv_write;
      add(attn);
    }
    if (per_head && b.decode_seqs > 0) {
      op dec = attention_op("decode_attention", b.decode_seqs, b.decode_context, b.decode_context, hpr, kvpr, hd, act,
                            o.kv);
      dec.kind = op_kind::per_head_attention;
      dec.cls = op_class::vector;
      dec.prec = precision::fp32;
      dec.scores = dec.value_bytes = 0;  // one fused kernel: no rule set splits it
      dec.bytes_written += b.decode_seqs * kv_write;
      add(dec);
    }
    add(weight_gemm_op("o_proj", T, h, hpr * hd, mm, act, w));
    if (o.tensor_parallel > 1) add(collective_op("attn_all_reduce", collective_kind::all_reduce, T * h * act_eb, act));
    add(norm("ffn_norm", T, 2));
    if (s.moe()) {
      for (op x : moe_ffn(s, T, o)) add(x);
    } else {
      add(weight_gemm_op("gate_up_proj", T, 2 * s.ffn / tp, h, mm, act, w));
      add(elementwise_op("silu_mul", T * s.ffn / tp, 5, 2, act));
      add(weight_gemm_op("down_proj", T, h, s.ffn / tp, mm, act, w));
    }
    if (o.tensor_parallel > 1) add(collective_op("ffn_all_reduce", collective_kind::all_reduce, T * h * act_eb, act));
  }
  // A stage before the last hands every new token's hidden state to the next stage's rank.
  if (!last) g.ops.push_back(collective_op("pp_send", collective_kind::send, T * h * act_eb, act));
  const double rows = last ? b.logits_rows : 0;
  if (rows > 0) {
    g.ops.push_back(norm("final_norm", rows, 1));
    g.ops.push_back(weight_gemm_op("lm_head", rows, s.vocab / tp, h, mm, act, w));
    if (o.tensor_parallel > 1)
      g.ops.push_back(collective_op("logits_all_gather", collective_kind::all_gather, rows * s.vocab / tp * act_eb, act));
    g.ops.push_back(elementwise_op("sample", rows * s.vocab / tp, 5, 1, act));
  }
  if (o.fusion != fusion_rules::eager) g = fuse(g, o.fusion);
  for (auto& op : g.ops) op.rules = o.fusion;
  return g;
}

}  // namespace ptsim::tlm_config
