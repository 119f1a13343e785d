// MobileNetV2 (Sandler et al., 2018, Table 2): inverted residual bottlenecks.
// At 224x224 and width 1.0 this gives about 300 M MACs and 3.5 M weights, as published.
#include "layers.hpp"
#include "models.hpp"

namespace ptsim::tlm_config::models {

op_graph mobilenet_v2(const model_params& p, precision prec) {
  const double res = p.at("resolution"), alpha = p.at("width"), batch = p.at("batch");
  op_graph g;
  g.name = "mobilenet_v2";
  g.prec = prec;
  auto ch = [&](double c) { return std::max(8.0, std::round(c * alpha / 8.0) * 8.0); };
  layers::fmap x{res, res, 3};
  x = layers::conv(g, "conv_3x3", x, ch(32), 3, 2, batch);
  // (expansion t, output channels c, repeats n, first stride s)
  const double table[7][4] = {{1, 16, 1, 1}, {6, 24, 2, 2}, {6, 32, 3, 2}, {6, 64, 4, 2},
                              {6, 96, 3, 1}, {6, 160, 3, 2}, {6, 320, 1, 1}};
  for (const auto& row : table) {
    for (int i = 0; i < static_cast<int>(row[2]); ++i) {
      const double stride = i == 0 ? row[3] : 1;
      const double in_c = x.c;
      layers::fmap in = x;
      if (row[0] != 1) x = layers::conv(g, "expand_1x1", x, in_c * row[0], 1, 1, batch);
      x = layers::conv(g, "dwconv_3x3", x, x.c, 3, stride, batch, true);
      x = layers::conv(g, "project_1x1", x, ch(row[1]), 1, 1, batch);
      if (stride == 1 && in.c == x.c) layers::elementwise(g, "residual_add", batch * x.h * x.w * x.c, 1, 2);
    }
  }
  x = layers::conv(g, "conv_1x1", x, alpha > 1.0 ? ch(1280) : 1280, 1, 1, batch);
  layers::elementwise(g, "avgpool", batch * x.c, x.h * x.w, x.h * x.w, op_kind::pool);
  layers::gemm(g, "classifier", batch, x.c, p.at("classes"));
  return g;
}

}  // namespace ptsim::tlm_config::models
