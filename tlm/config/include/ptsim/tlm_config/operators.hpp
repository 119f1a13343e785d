#pragma once
// Operators from shapes: arithmetic (a MAC counts as 2 ops) and the bytes they move
// between the unit and its memory, assuming each operand crosses once (tiling keeps
// reuse on chip). Models, the decoder builder and custom graph files use these.
#include <string>

#include "ptsim/tlm_config/op.hpp"

namespace ptsim::tlm_config {

/// [m x k] * [k x n] -> [m x n]. ops = 2mnk. With `weights` the [k x n] operand is a
/// resident parameter (counted in weight_bytes); activations are `act` precision.
op gemm_op(const std::string& name, double m, double n, double k, precision prec, bool weights = true);
op gemm_op(const std::string& name, double m, double n, double k, precision prec, precision act, bool weights);
/// A GEMM against resident weights stored at `weight` (their bytes) that computes at
/// `compute` (its peak rate) on activations at `act`: weight-only quantisation (w4a16).
op weight_gemm_op(const std::string& name, double m, double n, double k, precision compute, precision act,
                  precision weight);

/// Scaled-dot-product attention of `queries` query tokens per head over `attended` keys
/// summed over queries (so ops = 4 * attended * head_dim * heads: QK^T and PV), reading
/// `kv_tokens` cached K and V rows per KV head, fused (flash-style: the score matrix stays
/// on chip). Q and O are `act` precision, K and V `kv` precision.
op attention_op(const std::string& name, double queries, double attended, double kv_tokens, double heads,
                double kv_heads, double head_dim, precision act, precision kv);

/// Elementwise operator over `elements` outputs, `ops_per_element` arithmetic each,
/// reading `inputs` tensors of the same size and `extra_read` bytes more (e.g. a norm's
/// weights).
op elementwise_op(const std::string& name, double elements, double ops_per_element, double inputs, precision prec,
                  op_kind kind = op_kind::elementwise, double extra_read = 0);

/// Embedding lookup: gathers `tokens` rows of `width` elements.
op embedding_op(const std::string& name, double tokens, double width, precision prec);

/// A collective of a `message_bytes` buffer per rank over the rank group the op runs in.
op collective_op(const std::string& name, collective_kind kind, double message_bytes, precision prec);

/// Moves bytes between the unit and an io target (storage, NIC, host memory) by name.
op transfer_op(const std::string& name, const std::string& target, double bytes_read, double bytes_written);

/// Multiplies an operator's work (ops, bytes, message) by `n` identical kernels.
op& fold(op& o, double n);

}  // namespace ptsim::tlm_config
