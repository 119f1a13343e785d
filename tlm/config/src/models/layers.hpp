#pragma once
// Internal: CNN layers from their shapes (NHWC activations, batch N), on top of the
// operator builders of operators.hpp.
#include <cmath>

#include "ptsim/tlm_config/operators.hpp"

namespace ptsim::tlm_config::layers {

/// Feature-map shape.
struct fmap {
  double h, w, c;
};

/// Standard or depthwise 2-D convolution with "same" padding.
/// MACs = N*Ho*Wo*Cout*K*K*Cin_per_group; bytes = weights + input + output.
inline fmap conv(op_graph& g, const char* name, fmap in, double cout, double k, double stride, double batch,
                 bool depthwise = false) {
  const double eb = element_bytes(g.prec);
  fmap out{std::ceil(in.h / stride), std::ceil(in.w / stride), depthwise ? in.c : cout};
  const double cin_per_group = depthwise ? 1.0 : in.c;
  const double macs = batch * out.h * out.w * out.c * k * k * cin_per_group;
  const double weights = out.c * k * k * cin_per_group * eb;
  op o;
  o.name = name;
  o.kind = op_kind::conv;
  o.cls = depthwise ? op_class::vector : op_class::tensor;  // depthwise has no reuse across channels
  o.prec = g.prec;
  o.ops = 2 * macs;
  o.bytes_read = weights + batch * in.h * in.w * in.c * eb;
  o.bytes_written = batch * out.h * out.w * out.c * eb;
  o.weight_bytes = weights;
  // As the implicit GEMM that cuDNN-style kernels run: [N*Ho*Wo x K*K*Cin] x [.. x Cout].
  o.shape_m = batch * out.h * out.w;
  o.shape_n = out.c;
  o.shape_k = k * k * cin_per_group;
  g.ops.push_back(o);
  return out;
}

/// Elementwise op over `elements` outputs with `ops_per_element` arithmetic, reading
/// `inputs` tensors of the same size.
inline void elementwise(op_graph& g, const char* name, double elements, double ops_per_element, double inputs = 1,
                        op_kind kind = op_kind::elementwise) {
  g.ops.push_back(elementwise_op(name, elements, ops_per_element, inputs, g.prec, kind));
}

/// Fully connected: [batch x in] * [in x out].
inline void gemm(op_graph& g, const char* name, double batch, double in, double out) {
  g.ops.push_back(gemm_op(name, batch, out, in, g.prec));
}

}  // namespace ptsim::tlm_config::layers
