#pragma once
// Llama-style decoder-only transformers from their layer shapes: the operators of one
// serving iteration (prefill chunks and decode steps batched together), split over
// tensor-parallel ranks (Megatron-style: attention heads and FFN columns per rank, two
// all-reduces per layer). The FFN is dense SwiGLU, or a mixture of SwiGLU experts with
// top-k routing (Mixtral, Qwen3-MoE). Plain C++.
#include <string>
#include <vector>

#include "ptsim/tlm_config/fusion.hpp"
#include "ptsim/tlm_config/op.hpp"

namespace ptsim::tlm_config {

struct decoder_shape {
  std::string name;
  int layers = 32;
  int hidden = 4096;
  int heads = 32;
  int kv_heads = 8;    ///< grouped-query attention: key/value heads
  int head_dim = 128;
  int ffn = 14336;     ///< SwiGLU inner width (gate and up projections each); of each expert in an MoE
  int vocab = 128256;
  bool tied_embeddings = false;  ///< LM head shares the embedding matrix
  /// Mixture of experts: 0 for a dense FFN; otherwise every layer's FFN is this many SwiGLU
  /// experts of width `ffn`, and a router sends each token to `experts_per_token` of them.
  int experts = 0;
  int experts_per_token = 0;
  bool moe() const { return experts > 0; }
  /// Parameters: embeddings, per layer (q, k, v, o, gate, up, down of each expert, the
  /// router, two norms), final norm and LM head.
  double parameters() const;
};

/// Experts of one MoE layer that at least one of `tokens` tokens is routed to, expected
/// over independent, uniform top-k choices: E (1 - (1 - k/E)^tokens). Their weights are
/// what an iteration reads; 0 for a dense model.
double decoder_experts_hit(const decoder_shape& s, double tokens);

/// What one iteration computes, summed over the sequences in it.
struct decoder_batch {
  double prefill_tokens = 0;    ///< prompt tokens processed (whole prompts or chunks)
  double prefill_attended = 0;  ///< sum over those tokens of the keys each attends to (causal)
  double prefill_kv_read = 0;   ///< sum over prefill chunks of KV tokens read (context so far + chunk)
  double decode_seqs = 0;       ///< sequences generating one token each
  double decode_context = 0;    ///< sum over them of their context length (keys attended and read)
  double logits_rows = 0;       ///< sequences sampling a token at the end of the iteration
  double new_tokens() const { return prefill_tokens + decode_seqs; }
};

/// How the generation phase's attention kernel runs a sequence's decode step.
/// grouped: each K/V head is read once for its group of query heads and the products run on
///   the tensor cores (FlashDecoding, FlashInfer, TensorRT-LLM's XQA from v0.8): the
///   prefill's attention operator takes the decode part too, memory-bound in practice.
/// per_head: one thread block per query head computes its dot products on the CUDA cores in
///   fp32 from K/V converted to it (the masked multi-head attention kernel that TensorRT-LLM
///   ran grouped-query models with before XQA, as FasterTransformer did): the arithmetic is
///   that of every query head over its context, at the vector units' fp32 rate; DRAM sees
///   each K/V head once (its group's blocks run together and L2 serves the re-reads).
enum class decode_attention_kernel { grouped, per_head };
const char* to_string(decode_attention_kernel k);
/// Parses "grouped" or "per_head"; throws std::invalid_argument otherwise.
decode_attention_kernel parse_decode_attention(const std::string& s);
std::vector<std::string> decode_attention_names();

struct decoder_options {
  int tensor_parallel = 1;
  precision weights = precision::bf16;  ///< weight precision: the GEMMs run at decoder_gemm_precision(weights)
  precision kv = precision::bf16;       ///< KV-cache precision
  /// The layers run as this many groups of folded operators (each op of a group stands for
  /// layers/groups kernels). 1 is fastest to simulate; more interleaves compute- and
  /// memory-bound phases within an iteration at a finer grain.
  int layer_groups = 1;
  fusion_rules fusion = fusion_rules::eager;  ///< the kernels the iteration runs as
  /// per_head: the decode steps' attention is an operator of its own, `decode_attention`
  /// (kind per_head_attention, vector class, fp32; fusion rules never split it: it is one
  /// fused kernel).
  decode_attention_kernel decode_attention = decode_attention_kernel::grouped;
  /// Pipeline parallelism: the layers split into this many consecutive stages (the first
  /// layers % stages take one more), the embedding on the first, the logits on the last;
  /// a stage ends by sending its hidden state to the next (pp_send). `pipeline_stage` is
  /// the stage an iteration graph is built for.
  int pipeline_parallel = 1;
  int pipeline_stage = 0;
};

/// Operators of one iteration on one tensor-parallel rank (every rank runs the same).
/// Throws std::invalid_argument for shapes that do not split over the ranks.
op_graph decoder_iteration(const decoder_shape& s, const decoder_batch& b, const decoder_options& o);

/// The precision a decoder's GEMMs compute at: the weights' own (w8a8, fp8, bf16), except
/// for a weight-only format (int4 = w4a16), whose weights are dequantised to the 16-bit
/// activations and multiplied at their precision.
precision decoder_gemm_precision(precision weights);

/// Weight bytes each rank holds (of its pipeline stage with the most layers).
double decoder_weight_bytes_per_rank(const decoder_shape& s, const decoder_options& o);
/// KV-cache bytes per token of context on each rank (its stage's layers, K and V; the
/// stage with the most layers).
double decoder_kv_bytes_per_token_per_rank(const decoder_shape& s, const decoder_options& o);
/// The layers of pipeline stage `stage` of `stages`: the first layers % stages take one more.
int decoder_stage_layers(const decoder_shape& s, int stages, int stage);
/// Checks that heads, KV heads and FFN split evenly over the ranks, that the layers fill
/// the pipeline stages and that an MoE routes each token to 1..experts experts; "" when fine.
std::string decoder_split_problem(const decoder_shape& s, int tensor_parallel, int pipeline_parallel = 1);

/// Adds the attended-key sums of one prompt chunk of `chunk` tokens after `context`
/// tokens already in the cache (causal: token i attends to context + i keys).
void add_prefill_chunk(decoder_batch& b, double context, double chunk);

}  // namespace ptsim::tlm_config
