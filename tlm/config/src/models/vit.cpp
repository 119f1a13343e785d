// Vision Transformer (Dosovitskiy et al. 2021) as torchvision builds it (vit_b_16, vit_l_16):
// a 16x16 patch embedding (a strided convolution), the class token and position embeddings,
// pre-norm encoder blocks (LayerNorm, self-attention, residual add; LayerNorm, MLP with GELU,
// residual add), a final LayerNorm and the classifier on the class token. torchvision's
// dropout rates default to 0, so training adds no dropout kernels; its attention
// (nn.MultiheadAttention with need_weights=False) calls scaled_dot_product_attention, one
// fused kernel in eager mode.
#include "layers.hpp"
#include "models.hpp"

namespace ptsim::tlm_config::models {

op_graph vit(const model_params& p, precision prec) {
  const double batch = p.at("batch"), res = p.at("resolution"), patch = p.at("patch");
  const double L = p.at("layers"), h = p.at("hidden"), heads = p.at("heads"), mlp = p.at("mlp");
  const double side = std::floor(res / patch), tokens = side * side + 1;  // patches and the class token
  const double M = batch * tokens, hd = h / heads, eb = element_bytes(prec);
  op_graph g;
  g.name = "vit";
  g.prec = prec;
  // Patch embedding: a convolution with kernel = stride = patch, `side` x `side` patches out.
  layers::conv(g, "patch_embed", {res, res, 3}, h, patch, patch, batch);
  // Class token concatenated and position embeddings added: one pass over the tokens.
  g.ops.push_back(elementwise_op("pos_embed_add", M * h, 1, 1, prec, op_kind::elementwise, tokens * h * eb));
  auto add = [&](op o) { g.ops.push_back(fold(o, L)); };  // identical blocks, folded
  add(elementwise_op("ln_1", M * h, 8, 1, prec, op_kind::norm, 2 * h * eb));
  add(gemm_op("qkv_proj", M, 3 * h, h, prec));
  add(attention_op("attention", M, batch * tokens * tokens, M, heads, heads, hd, prec, prec));
  add(gemm_op("attn_out", M, h, h, prec));
  add(elementwise_op("attn_residual_add", M * h, 1, 2, prec));
  add(elementwise_op("ln_2", M * h, 8, 1, prec, op_kind::norm, 2 * h * eb));
  add(gemm_op("mlp_in", M, mlp, h, prec));
  add(elementwise_op("gelu", M * mlp, 8, 1, prec));
  add(gemm_op("mlp_out", M, h, mlp, prec));
  add(elementwise_op("mlp_residual_add", M * h, 1, 2, prec));
  g.ops.push_back(elementwise_op("ln_final", M * h, 8, 1, prec, op_kind::norm, 2 * h * eb));
  g.ops.push_back(gemm_op("head", batch, p.at("classes"), h, prec));
  return g;
}

}  // namespace ptsim::tlm_config::models
