// Camera pipeline stages around a CNN: frame preprocessing and classifier post-processing.
#include "layers.hpp"
#include "models.hpp"

namespace ptsim::tlm_config::models {

// YUV420 frame -> RGB, bilinear resize to the network input, normalisation.
// Ops per pixel follow the arithmetic: colour conversion 3x3 matrix (~12 ops per
// output pixel on 3 channels), bilinear resize (~8 ops per output value), scale+shift (2).
op_graph image_preprocess(const model_params& p, precision prec) {
  const double w = p.at("width"), h = p.at("height"), out = p.at("size");
  op_graph g;
  g.name = "image_preprocess";
  g.prec = prec;
  op cvt;
  cvt.name = "yuv_to_rgb";
  cvt.cls = op_class::vector;
  cvt.kind = op_kind::elementwise;
  cvt.prec = prec;
  cvt.ops = w * h * 12;
  cvt.bytes_read = w * h * 1.5;  // YUV420: 1.5 bytes per pixel
  cvt.bytes_written = w * h * 3;
  g.ops.push_back(cvt);
  op rs;
  rs.name = "resize_bilinear";
  rs.cls = op_class::vector;
  rs.kind = op_kind::elementwise;
  rs.prec = prec;
  rs.ops = out * out * 3 * 8;
  rs.bytes_read = w * h * 3;
  rs.bytes_written = out * out * 3 * element_bytes(prec);
  g.ops.push_back(rs);
  layers::elementwise(g, "normalize", out * out * 3, 2);
  return g;
}

// Softmax over the classes and a top-k selection.
op_graph classifier_postprocess(const model_params& p, precision prec) {
  const double classes = p.at("classes"), batch = p.at("batch");
  op_graph g;
  g.name = "classifier_postprocess";
  g.prec = prec;
  layers::elementwise(g, "softmax", batch * classes, 5);
  op topk;
  topk.name = "top_k";
  topk.cls = op_class::scalar;
  topk.kind = op_kind::other;
  topk.prec = prec;
  topk.ops = batch * classes * std::log2(std::max(2.0, p.at("k")));
  topk.bytes_read = batch * classes * element_bytes(prec);
  topk.bytes_written = batch * p.at("k") * 8;
  g.ops.push_back(topk);
  return g;
}

}  // namespace ptsim::tlm_config::models
