#include "ptsim/tlm_config/fusion.hpp"

#include "ptsim/tlm_config/names.hpp"

namespace ptsim::tlm_config {

const char* to_string(fusion_rules r) {
  switch (r) {
    case fusion_rules::eager: return "eager";
    case fusion_rules::none: return "none";
    case fusion_rules::tensorrt: return "tensorrt";
  }
  return "?";
}

namespace {
constexpr fusion_rules all_rules[] = {fusion_rules::eager, fusion_rules::none, fusion_rules::tensorrt};
}

std::vector<std::string> fusion_rule_names() { return names_of(all_rules); }

fusion_rules parse_fusion_rules(const std::string& s) { return parse_named(s, all_rules, "fusion rule set"); }

namespace {

// Attention as three kernels. The builders' attention counts the two products
// (4 * attended * head_dim * heads ops, half each) and not the softmax's exponentials,
// so the split softmax carries no ops and the total stays the same. Scores and
// probabilities are in the attention's (activation) precision. Scaling and masking before
// the softmax, where the implementation runs them as kernels of their own, are one more
// operator of that many passes over the scores.
void split_attention(const op& a, std::vector<op>& out) {
  const double s_bytes = a.scores * element_bytes(a.prec);
  op qk = a, sm = a, pv = a;
  qk.name = a.name + "_scores";
  qk.kind = op_kind::gemm;
  qk.ops = a.ops / 2;
  qk.bytes_read = a.bytes_read - a.value_bytes;  // Q and K
  qk.bytes_written = s_bytes;
  sm.name = a.name + "_softmax";
  sm.kind = op_kind::elementwise;
  sm.cls = op_class::vector;
  sm.ops = 0;
  sm.bytes_read = s_bytes;
  sm.bytes_written = s_bytes;
  pv.name = a.name + "_context";
  pv.kind = op_kind::gemm;
  pv.ops = a.ops - qk.ops;
  pv.bytes_read = a.value_bytes + s_bytes;  // V and the probabilities
  for (op* p : {&qk, &sm, &pv}) p->scores = p->value_bytes = p->weight_bytes = 0;
  // The attention's shape (keys attended summed over the queries) is not a GEMM's [m x k] x
  // [k x n]: the products are one per sequence and head, which the shape does not say. No
  // shape, so neither a profile's GEMM rows nor a unit's GEMM tiling mistakes it for one.
  for (op* p : {&qk, &sm, &pv}) p->shape_m = p->shape_n = p->shape_k = 0;
  // Dropout, where the model has it, acts on the probabilities: after the softmax.
  qk.dropout = pv.dropout = false;
  out.push_back(qk);
  if (a.pre_softmax_passes > 0) {
    op prep = sm;
    prep.name = a.name + "_scale_mask";
    prep.bytes_read = prep.bytes_written = a.pre_softmax_passes * s_bytes;
    prep.dropout = false;
    out.push_back(prep);
  }
  out.push_back(sm);
  out.push_back(pv);
}

// TensorRT fuses pointwise layers into a convolution's or a GEMM's epilogue when they
// consume its output (Layer Fusion Catalog, docs.nvidia.com/deeplearning/tensorrt/latest/
// performance/fusion-catalog.html: "Convolution and ElementWise Operation", "Convolution
// and ReLU/GELU", "FullyConnected/MatrixMultiply and GELU"; TensorRT-LLM's fused gated MLP
// does the same for SwiGLU). The consumer must read at least the producer's whole output
// (a residual add reads it and the shortcut) in as many kernels.
bool epilogue(const op& producer, const op& consumer) {
  if (producer.kind != op_kind::conv && settings_fallback(producer.kind) != op_kind::gemm) return false;
  if (consumer.kind != op_kind::elementwise || consumer.repeat != producer.repeat) return false;
  return consumer.bytes_read - consumer.weight_bytes >= producer.bytes_written;
}

void merge_into(op& f, const op& c) {
  // The producer's output stays on chip: neither written nor read back.
  f.bytes_read += c.bytes_read - f.bytes_written;
  f.bytes_written = c.bytes_written;
  f.ops += c.ops;
  f.weight_bytes += c.weight_bytes;
  f.name += "+" + c.name;
}

}  // namespace

op_graph fuse(const op_graph& g, fusion_rules r) {
  if (r == fusion_rules::eager) return g;
  op_graph out = g;
  out.ops.clear();
  out.ops.reserve(g.ops.size());
  for (std::size_t i = 0; i < g.ops.size(); ++i) {
    const op& o = g.ops[i];
    if (r == fusion_rules::none) {
      if (o.kind == op_kind::attention && o.scores > 0) split_attention(o, out.ops);
      else out.ops.push_back(o);
      continue;
    }
    // The graph's last operator hands its result to the host (sampling, top-k, the
    // classifier's logits): runtimes run it as its own kernel.
    const bool last = i + 1 == g.ops.size();
    if (!last && !out.ops.empty() && epilogue(out.ops.back(), o)) merge_into(out.ops.back(), o);
    else out.ops.push_back(o);
  }
  return out;
}

}  // namespace ptsim::tlm_config
