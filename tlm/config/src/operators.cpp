#include "ptsim/tlm_config/operators.hpp"

namespace ptsim::tlm_config {

namespace {

// What every builder sets first; the counts start at zero. A transfer does no arithmetic,
// so it keeps op's default precision.
op named_op(const std::string& name, op_kind kind, op_class cls, precision prec = op{}.prec) {
  op o;
  o.name = name;
  o.kind = kind;
  o.cls = cls;
  o.prec = prec;
  return o;
}

}  // namespace

op gemm_op(const std::string& name, double m, double n, double k, precision prec, precision act, bool weights) {
  op o = named_op(name, op_kind::gemm, op_class::tensor, prec);
  o.ops = 2 * m * n * k;
  const double b_bytes = k * n * element_bytes(weights ? prec : act);
  o.bytes_read = m * k * element_bytes(act) + b_bytes;
  o.bytes_written = m * n * element_bytes(act);
  if (weights) o.weight_bytes = b_bytes;
  o.shape_m = m;
  o.shape_n = n;
  o.shape_k = k;
  return o;
}

op weight_gemm_op(const std::string& name, double m, double n, double k, precision compute, precision act,
                  precision weight) {
  op o = gemm_op(name, m, n, k, compute, act, true);
  const double b_bytes = k * n * element_bytes(weight);
  o.bytes_read += b_bytes - o.weight_bytes;
  o.weight_bytes = b_bytes;
  return o;
}

op gemm_op(const std::string& name, double m, double n, double k, precision prec, bool weights) {
  return gemm_op(name, m, n, k, prec, prec, weights);
}

op attention_op(const std::string& name, double queries, double attended, double kv_tokens, double heads,
                double kv_heads, double head_dim, precision act, precision kv) {
  op o = named_op(name, op_kind::attention, op_class::tensor, act);
  o.ops = 4 * attended * head_dim * heads;
  o.bytes_read = queries * heads * head_dim * element_bytes(act) + 2 * kv_tokens * kv_heads * head_dim * element_bytes(kv);
  o.bytes_written = queries * heads * head_dim * element_bytes(act);
  o.scores = attended * heads;
  o.value_bytes = kv_tokens * kv_heads * head_dim * element_bytes(kv);
  o.shape_m = queries;
  o.shape_n = attended;
  o.shape_k = heads * head_dim;
  return o;
}

op elementwise_op(const std::string& name, double elements, double ops_per_element, double inputs, precision prec,
                  op_kind kind, double extra_read) {
  op o = named_op(name, kind, op_class::vector, prec);
  o.ops = elements * ops_per_element;
  o.bytes_read = inputs * elements * element_bytes(prec) + extra_read;
  o.bytes_written = elements * element_bytes(prec);
  o.weight_bytes = extra_read;
  o.shape_m = elements;  // as rows of one element; builders that know the width set m x k
  o.shape_k = 1;
  return o;
}

op embedding_op(const std::string& name, double tokens, double width, precision prec) {
  op o = named_op(name, op_kind::embedding, op_class::scalar, prec);
  o.ops = tokens * width;  // address arithmetic and copies, one op per element
  o.bytes_read = tokens * width * element_bytes(prec);
  o.bytes_written = tokens * width * element_bytes(prec);
  o.shape_m = tokens;
  o.shape_k = width;
  return o;
}

op collective_op(const std::string& name, collective_kind kind, double message_bytes, precision prec) {
  op o = named_op(name, op_kind::collective, op_class::vector, prec);
  o.collective = kind;
  o.message_bytes = message_bytes;
  return o;
}

op transfer_op(const std::string& name, const std::string& target, double bytes_read, double bytes_written) {
  op o = named_op(name, op_kind::transfer, op_class::scalar);
  o.target = target;
  o.bytes_read = bytes_read;
  o.bytes_written = bytes_written;
  return o;
}

op& fold(op& o, double n) {
  o.ops *= n;
  o.bytes_read *= n;
  o.bytes_written *= n;
  o.weight_bytes *= n;
  o.scores *= n;
  o.value_bytes *= n;
  o.repeat *= n;
  return o;
}

}  // namespace ptsim::tlm_config
