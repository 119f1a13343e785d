#pragma once
// Internal: operators from layer shapes (NHWC activations, batch N).
#include <cmath>

#include "ptsim/tlm/op.hpp"

namespace ptsim::tlm::layers {

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
  o.cls = depthwise ? op_class::vector : op_class::tensor;  // depthwise has no reuse across channels
  o.ops = 2 * macs;
  o.bytes_read = weights + batch * in.h * in.w * in.c * eb;
  o.bytes_written = batch * out.h * out.w * out.c * eb;
  g.ops.push_back(o);
  return out;
}

/// Elementwise op over `elements` outputs with `ops_per_element` arithmetic, reading
/// `inputs` tensors of the same size.
inline void elementwise(op_graph& g, const char* name, double elements, double ops_per_element, double inputs = 1) {
  const double eb = element_bytes(g.prec);
  op o;
  o.name = name;
  o.cls = op_class::vector;
  o.ops = elements * ops_per_element;
  o.bytes_read = inputs * elements * eb;
  o.bytes_written = elements * eb;
  g.ops.push_back(o);
}

/// Fully connected: [batch x in] * [in x out].
inline void gemm(op_graph& g, const char* name, double batch, double in, double out) {
  const double eb = element_bytes(g.prec);
  op o;
  o.name = name;
  o.cls = op_class::tensor;
  o.ops = 2 * batch * in * out;
  o.bytes_read = (in * out + batch * in) * eb;
  o.bytes_written = batch * out * eb;
  g.ops.push_back(o);
}

}  // namespace ptsim::tlm::layers
