#include "ptsim/tlm_config/training.hpp"

#include <algorithm>
#include <cmath>

#include "ptsim/tlm_config/operators.hpp"

namespace ptsim::tlm_config {

double parameter_count(const op_graph& forward) { return forward.weight_bytes() / element_bytes(forward.prec); }

double training_state_bytes(const op_graph& forward) { return 16.0 * parameter_count(forward); }

namespace {

// Dropout on an operator's output, as an eager framework runs it: its own kernel, which
// reads the output, draws the mask and writes the output and the mask (one byte per
// element: PyTorch keeps a bool mask for the backward). ~2 operations per element (the
// compare and the scale; the random numbers are counter-based and cheap beside the bytes).
op dropout_after(const op& o) {
  const double elements = o.bytes_written / element_bytes(o.prec);
  op d = elementwise_op(o.name + "_dropout", elements, 2, 1, o.prec);
  d.bytes_written += elements;  // the mask
  d.repeat = o.repeat;
  d.shape_m = d.shape_k = 0;    // not a kernel a forward profile would have timed
  return d;
}

// The forward as training runs it: dropout kernels after the operators that have one (a
// fused attention kernel applies its own).
op_graph with_dropout(const op_graph& forward) {
  op_graph g = forward;
  g.ops.clear();
  for (const op& o : forward.ops) {
    g.ops.push_back(o);
    if (o.dropout && o.kind != op_kind::attention && o.bytes_written > 0) g.ops.push_back(dropout_after(o));
  }
  return g;
}

}  // namespace

op_graph training_step(const op_graph& model, const training_options& opts) {
  const op_graph forward = with_dropout(model);
  op_graph g = forward;
  g.name = model.name + "_train_step";
  const double k = std::max(1, opts.accumulation_steps);
  // Backward, in reverse order: for each operator the gradient with respect to its input
  // and (for layers with weights) to its weights, each as much arithmetic as the forward
  // (Kaplan et al. 2020: ~2x forward). It reads the saved input and the incoming
  // gradient (twice the forward's activation reads) and the weights, and writes the input
  // gradient and the weight gradient. The weights it reads are the forward's, so they
  // are not counted again as resident.
  for (auto it = forward.ops.rbegin(); it != forward.ops.rend(); ++it) {
    if (it->kind == op_kind::collective || it->kind == op_kind::transfer) continue;
    op b = *it;
    b.name = "bwd_" + it->name;
    b.backward = true;
    b.ops = 2 * it->ops;
    const double activations = it->bytes_read - it->weight_bytes;
    b.bytes_read = 2 * activations + it->weight_bytes;
    b.bytes_written = it->bytes_written + it->weight_bytes;
    b.weight_bytes = 0;
    // Not the forward's kernel: a measured profile of forward kernels must not time it.
    b.shape_m = b.shape_n = b.shape_k = 0;
    g.ops.push_back(b);
  }
  // Accumulation: forward and backward run once per micro-batch (folded), the exchange
  // and the update once per step.
  if (k > 1)
    for (op& o : g.ops) {
      const double w = o.weight_bytes;
      fold(o, k);
      o.weight_bytes = w;  // still one copy of the weights
    }
  const double params = parameter_count(forward);
  if (opts.data_parallel > 1 && params > 0) {
    const double grad_bytes = params * element_bytes(opts.gradients);
    const double buckets = std::max(1.0, std::ceil(grad_bytes / opts.bucket_bytes));
    op ar = collective_op("grad_all_reduce", collective_kind::all_reduce, grad_bytes / buckets, opts.gradients);
    ar.repeat = buckets;
    ar.batch_invariant = true;
    g.ops.push_back(ar);
  }
  if (params > 0) {
    // Adam on fp32 master weights: reads gradient (2 B), master weight, m, v (4 B each);
    // writes master, m, v and the 16-bit copy (14 B); ~10 flops per parameter.
    op adam = elementwise_op("adam_update", params, 10, 0, precision::fp32);
    adam.bytes_read = 14 * params;
    adam.bytes_written = 14 * params;
    adam.weight_bytes = 14 * params;  // gradients and optimiser state, resident
    adam.batch_invariant = true;
    g.ops.push_back(adam);
  }
  return g;
}

}  // namespace ptsim::tlm_config
