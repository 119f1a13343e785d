#pragma once
// A training step from a model's forward graph: forward, backward (about twice the
// forward arithmetic: gradients with respect to inputs and to weights), the gradients'
// all-reduce across data-parallel ranks, and a mixed-precision Adam update. Plain C++.
#include "ptsim/tlm_config/op.hpp"

namespace ptsim::tlm_config {

struct training_options {
  int data_parallel = 1;                 ///< ranks averaging gradients (all-reduce when > 1)
  precision gradients = precision::bf16; ///< precision of the gradients exchanged
  /// Gradients are reduced in buckets of this size, as PyTorch DDP does (25 MiB by
  /// default); each bucket is one all-reduce with its own latency terms.
  double bucket_bytes = 25.0 * 1024 * 1024;
  /// Micro-batches whose gradients accumulate before one exchange and update.
  int accumulation_steps = 1;
};

/// Parameters of a forward graph: its resident weight bytes over the element size.
double parameter_count(const op_graph& forward);

/// Bytes a rank holds for mixed-precision Adam training, per parameter: 16-bit weights
/// (2) and gradients (2), fp32 master weights, first and second moments (12): 16 B
/// (Rajbhandari et al., ZeRO, 2020, section 3.1). Activations not included.
double training_state_bytes(const op_graph& forward);

/// The step's operators on one rank. The forward gains a dropout kernel after each
/// operator marked `dropout` (op.hpp), except attention, whose fused kernel applies its own.
op_graph training_step(const op_graph& model, const training_options& opts);

}  // namespace ptsim::tlm_config
