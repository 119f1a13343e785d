// BERT encoder (Devlin et al. 2019): post-norm transformer layers over `seq` tokens with
// bidirectional attention. Base: 12 layers, hidden 768, 12 heads, FFN 3072 (110 M
// parameters); large: 24, 1024, 16, 4096 (340 M). Vocabulary 30522 WordPiece tokens.
#include "layers.hpp"
#include "models.hpp"

namespace ptsim::tlm_config::models {

namespace {
// Marks an operator whose output the reference model drops out in training (p = 0.1).
op dropped_out(op o) {
  o.dropout = true;
  return o;
}
}  // namespace

op_graph bert(const model_params& p, precision prec) {
  const double batch = p.at("batch"), seq = p.at("seq"), L = p.at("layers"), h = p.at("hidden");
  const double heads = p.at("heads"), ffn = p.at("ffn");
  const double hd = h / heads, M = batch * seq, eb = element_bytes(prec);
  op_graph g;
  g.name = "bert";
  g.prec = prec;
  // Token, position and segment embeddings summed, then LayerNorm.
  g.ops.push_back(embedding_op("embeddings", 3 * M, h, prec));
  g.ops.push_back(dropped_out(elementwise_op("embed_layernorm", M * h, 8, 3, prec, op_kind::norm, 2 * h * eb)));
  auto add = [&](op o) { g.ops.push_back(fold(o, L)); };  // identical layers, folded
  add(gemm_op("qkv_proj", M, 3 * h, h, prec));
  // Unfused (Hugging Face's BertSelfAttention): the scores are scaled, masked and
  // softmaxed in three kernels; dropout on the probabilities in training.
  op attention = attention_op("attention", M, batch * seq * seq, M, heads, heads, hd, prec, prec);
  attention.pre_softmax_passes = 2;
  add(dropped_out(attention));
  // Hidden dropout (p = 0.1) on the attention output and FFN output projections and on the
  // embeddings, before each residual add and LayerNorm.
  add(dropped_out(gemm_op("attn_out", M, h, h, prec)));
  add(elementwise_op("attn_add_layernorm", M * h, 8, 2, prec, op_kind::norm, 2 * h * eb));
  add(gemm_op("ffn_in", M, ffn, h, prec));
  add(elementwise_op("gelu", M * ffn, 8, 1, prec));
  add(dropped_out(gemm_op("ffn_out", M, h, ffn, prec)));
  add(elementwise_op("ffn_add_layernorm", M * h, 8, 2, prec, op_kind::norm, 2 * h * eb));
  // Pooler on the [CLS] token and a two-way classifier head.
  g.ops.push_back(gemm_op("pooler", batch, h, h, prec));
  g.ops.push_back(gemm_op("classifier", batch, 2, h, prec));
  return g;
}

}  // namespace ptsim::tlm_config::models
