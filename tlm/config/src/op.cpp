#include "ptsim/tlm_config/op.hpp"

#include "ptsim/tlm_config/names.hpp"

namespace ptsim::tlm_config {

const char* to_string(precision p) {
  switch (p) {
    case precision::fp32: return "fp32";
    case precision::fp16: return "fp16";
    case precision::bf16: return "bf16";
    case precision::fp8: return "fp8";
    case precision::int8: return "int8";
    case precision::int4: return "int4";
  }
  return "?";
}

namespace {
constexpr precision all_precisions[] = {precision::fp32, precision::fp16, precision::bf16,
                                        precision::fp8,  precision::int8, precision::int4};
}  // namespace

precision parse_precision(const std::string& s) { return parse_named(s, all_precisions, "precision"); }

std::string precision_names() { return join_names(names_of(all_precisions)); }

double element_bytes(precision p) {
  switch (p) {
    case precision::fp32: return 4;
    case precision::fp16:
    case precision::bf16: return 2;
    case precision::fp8:
    case precision::int8: return 1;
    case precision::int4: return 0.5;
  }
  return 4;
}

const char* to_string(op_class c) {
  switch (c) {
    case op_class::tensor: return "tensor";
    case op_class::vector: return "vector";
    case op_class::scalar: return "scalar";
  }
  return "?";
}

namespace {
constexpr op_kind all_kinds[] = {op_kind::gemm,      op_kind::expert_gemm, op_kind::conv, op_kind::attention,  op_kind::per_head_attention, op_kind::elementwise,
                                 op_kind::norm,      op_kind::embedding, op_kind::pool, op_kind::collective,
                                 op_kind::transfer,  op_kind::other};
}

const char* to_string(op_kind k) {
  switch (k) {
    case op_kind::gemm: return "gemm";
    case op_kind::expert_gemm: return "expert_gemm";
    case op_kind::conv: return "conv";
    case op_kind::attention: return "attention";
    case op_kind::per_head_attention: return "per_head_attention";
    case op_kind::elementwise: return "elementwise";
    case op_kind::norm: return "norm";
    case op_kind::embedding: return "embedding";
    case op_kind::pool: return "pool";
    case op_kind::collective: return "collective";
    case op_kind::transfer: return "transfer";
    case op_kind::other: return "other";
  }
  return "?";
}

op_kind settings_fallback(op_kind k) { return k == op_kind::expert_gemm ? op_kind::gemm : k; }

bool attends(op_kind k) { return k == op_kind::attention || k == op_kind::per_head_attention; }

op_kind parse_op_kind(const std::string& s) { return parse_named(s, all_kinds, "operator kind"); }

std::string op_kind_names() { return join_names(names_of(all_kinds)); }

const char* to_string(collective_kind c) {
  switch (c) {
    case collective_kind::none: return "none";
    case collective_kind::all_reduce: return "all_reduce";
    case collective_kind::all_gather: return "all_gather";
    case collective_kind::reduce_scatter: return "reduce_scatter";
    case collective_kind::send: return "send";
  }
  return "?";
}

double op_graph::total_ops() const {
  double s = 0;
  for (const auto& o : ops) s += o.ops;
  return s;
}

double op_graph::total_bytes() const {
  double s = 0;
  for (const auto& o : ops) s += o.bytes_read + o.bytes_written;
  return s;
}

double op_graph::weight_bytes() const {
  if (resident_weights >= 0) return resident_weights;
  double s = 0;
  for (const auto& o : ops) s += o.weight_bytes;
  return s;
}

op_graph batched(const op_graph& one, double batch) {
  op_graph g = one;
  if (batch == 1) return g;
  for (op& o : g.ops) {
    if (o.batch_invariant) continue;
    o.ops *= batch;
    o.bytes_read = o.weight_bytes + (o.bytes_read - o.weight_bytes) * batch;
    o.bytes_written *= batch;
    o.message_bytes *= batch;
    o.scores *= batch;
    o.value_bytes *= batch;
    // Rows (tokens) scale with the batch; attention's keys attended are summed over them.
    o.shape_m *= batch;
    if (attends(o.kind)) o.shape_n *= batch;
  }
  return g;
}

}  // namespace ptsim::tlm_config
