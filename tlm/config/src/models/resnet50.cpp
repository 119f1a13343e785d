// ResNet-50 v1.5 (He et al., 2016; stride on the 3x3 conv): about 4.1 G MACs and
// 25.6 M weights at 224x224. Each convolution's batch norm and ReLU are kernels of their own,
// as torchvision's Bottleneck runs them in eager mode (conv, bn, relu; the third conv's bn,
// the shortcut's, the add, then relu); the tensorrt rules fuse them back into the conv.
#include "layers.hpp"
#include "models.hpp"

namespace ptsim::tlm_config::models {
namespace {

// Batch norm as inference runs it, a per-channel scale and shift (2 ops per element) with
// its four per-channel vectors (scale, shift, running mean, variance) read as weights; the
// statistics pass of training's batch norm is not counted. ReLU: one op per element.
void bn(op_graph& g, const layers::fmap& x, double batch) {
  g.ops.push_back(elementwise_op("bn", batch * x.h * x.w * x.c, 2, 1, g.prec, op_kind::elementwise,
                                 4 * x.c * element_bytes(g.prec)));
}
void relu(op_graph& g, const layers::fmap& x, double batch) {
  layers::elementwise(g, "relu", batch * x.h * x.w * x.c, 1);
}

}  // namespace

op_graph resnet50(const model_params& p, precision prec) {
  const double res = p.at("resolution"), batch = p.at("batch");
  op_graph g;
  g.name = "resnet50";
  g.prec = prec;
  layers::fmap x{res, res, 3};
  x = layers::conv(g, "conv_7x7", x, 64, 7, 2, batch);
  bn(g, x, batch);
  relu(g, x, batch);
  layers::elementwise(g, "maxpool", batch * (x.h / 2) * (x.w / 2) * x.c, 9, 1, op_kind::pool);
  x = {std::ceil(x.h / 2), std::ceil(x.w / 2), x.c};
  const double stages[4][3] = {{64, 3, 1}, {128, 4, 2}, {256, 6, 2}, {512, 3, 2}};  // width, blocks, stride
  for (const auto& st : stages) {
    for (int b = 0; b < static_cast<int>(st[1]); ++b) {
      const double stride = b == 0 ? st[2] : 1;
      layers::fmap in = x;
      x = layers::conv(g, "conv_1x1_reduce", x, st[0], 1, 1, batch);
      bn(g, x, batch);
      relu(g, x, batch);
      x = layers::conv(g, "conv_3x3", x, st[0], 3, stride, batch);
      bn(g, x, batch);
      relu(g, x, batch);
      x = layers::conv(g, "conv_1x1_expand", x, st[0] * 4, 1, 1, batch);
      bn(g, x, batch);
      if (b == 0) bn(g, layers::conv(g, "conv_1x1_shortcut", in, st[0] * 4, 1, stride, batch), batch);
      layers::elementwise(g, "residual_add", batch * x.h * x.w * x.c, 1, 2);
      relu(g, x, batch);
    }
  }
  layers::elementwise(g, "avgpool", batch * x.c, x.h * x.w, x.h * x.w, op_kind::pool);
  layers::gemm(g, "fc", batch, x.c, p.at("classes"));
  return g;
}

}  // namespace ptsim::tlm_config::models
