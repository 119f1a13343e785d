// Model zoo: operator graphs against the published sizes of the networks.
//   MobileNetV2 1.0 @ 224 (Sandler et al. 2018, Table 4): 300 M MACs, 3.4 M parameters
//     (conv + FC weights without biases/BN: 3.47 M).
//   ResNet-50 (v1.5, torchvision): 4.1 G MACs, 25.6 M parameters including biases and
//     BN (conv + FC weights alone: 25.5 M).
//   ViT-B/16 and ViT-L/16 @ 224 (torchvision's model table, its "GFLOPS" being MACs):
//     17.56 G and 61.55 G, 86.57 M and 304.33 M parameters (biases among them: ~0.1 %).
#include <doctest/doctest.h>

#include "approx.hpp"

#include <cmath>
#include <set>
#include <stdexcept>
#include <string>

#include "ptsim/tlm_config/model_zoo.hpp"

using tlm_test::near;
using namespace ptsim::tlm_config;

namespace {

// Multiply-accumulates: the arithmetic of the convolutions and fully connected layers
// (a MAC counts as 2 ops); elementwise operators are not MACs.
double macs(const op_graph& g) {
  static const std::set<std::string> elementwise = {"residual_add", "avgpool", "maxpool"};
  double s = 0;
  for (const auto& o : g.ops)
    if (!elementwise.count(o.name)) s += o.ops / 2;
  return s;
}

double bytes_read(const op_graph& g) {
  double s = 0;
  for (const auto& o : g.ops) s += o.bytes_read;
  return s;
}

// Every layer reads its weights once plus batch * (its inputs), so the weights are
// 2*R(batch 1) - R(batch 2); divided by bytes per element that is the parameter count.
double params(const std::string& model, model_params p, precision prec) {
  p["batch"] = 1;
  const double r1 = bytes_read(build_model(model, p, prec));
  p["batch"] = 2;
  const double r2 = bytes_read(build_model(model, p, prec));
  return (2 * r1 - r2) / element_bytes(prec);
}

}  // namespace

TEST_CASE("model zoo: MobileNetV2 at 224, width 1.0") {
  const auto g = build_model("mobilenet_v2", {{"resolution", 224}, {"width", 1.0}}, precision::int8);
  CHECK(g.name == "mobilenet_v2");
  CHECK(g.prec == precision::int8);
  CHECK(macs(g) == near(300e6).epsilon(0.05));
  const double w = params("mobilenet_v2", {{"resolution", 224}, {"width", 1.0}}, precision::int8);
  CHECK(w >= 3.4e6);
  CHECK(w <= 3.5e6);
  // Batch 2 does twice the arithmetic.
  const auto g2 = build_model("mobilenet_v2", {{"batch", 2}}, precision::int8);
  CHECK(g2.total_ops() == near(2 * g.total_ops()));
}

TEST_CASE("model zoo: ResNet-50 at 224") {
  const auto g = build_model("resnet50", {}, precision::int8);
  CHECK(macs(g) == near(4.1e9).epsilon(0.05));
  const double w = params("resnet50", {}, precision::int8);
  CHECK(w == near(25.5e6).epsilon(0.02));
}

TEST_CASE("model zoo: ViT-B/16 and ViT-L/16 at 224") {
  struct published {
    const char* name;
    double macs, params;
  };
  for (const published& m : {published{"vit_b16", 17.56e9, 86.57e6}, published{"vit_l16", 61.55e9, 304.33e6}}) {
    CAPTURE(m.name);
    const auto g = build_model(m.name, {}, precision::fp16);
    // MACs of the patch embedding, the GEMMs and attention (QK^T and PV); the norms, GELU and
    // residual adds are not multiply-accumulates.
    double tensor_macs = 0;
    for (const auto& o : g.ops)
      if (o.kind == op_kind::gemm || o.kind == op_kind::conv || o.kind == op_kind::attention) tensor_macs += o.ops / 2;
    CHECK(tensor_macs == near(m.macs).epsilon(0.005));
    CHECK(params(m.name, {}, precision::fp16) == near(m.params).epsilon(0.005));
    // Attention over 197 tokens (196 patches and the class token): at 384 pixels, 577.
    const auto big = build_model(m.name, {{"resolution", 384}}, precision::fp16);
    double scores_224 = 0, scores_384 = 0;
    for (const auto& o : g.ops)
      if (o.kind == op_kind::attention) scores_224 = o.ops;
    for (const auto& o : big.ops)
      if (o.kind == op_kind::attention) scores_384 = o.ops;
    CHECK(scores_384 / scores_224 == near((577.0 * 577) / (197.0 * 197)));
  }
}

TEST_CASE("model zoo: precision changes bytes, not arithmetic") {
  for (const char* m : {"mobilenet_v2", "resnet50"}) {
    CAPTURE(m);
    const auto i8 = build_model(m, {}, precision::int8);
    const auto f16 = build_model(m, {}, precision::fp16);
    const auto f32 = build_model(m, {}, precision::fp32);
    CHECK(f32.prec == precision::fp32);
    // Every byte is an element of a tensor: 1, 2 and 4 bytes per element.
    CHECK(f16.total_bytes() == near(2 * i8.total_bytes()));
    CHECK(f32.total_bytes() == near(4 * i8.total_bytes()));
    CHECK(f32.total_ops() == near(i8.total_ops()));
    CHECK(f32.ops.size() == i8.ops.size());
  }
}

TEST_CASE("model zoo: unknown models, unknown parameters and out-of-range values are errors") {
  CHECK(find_model("mobilenet_v2") != nullptr);
  CHECK(find_model("no_such_model") == nullptr);
  CHECK_THROWS_AS(build_model("no_such_model", {}, precision::int8), std::invalid_argument);
  CHECK_THROWS_WITH_AS(build_model("no_such_model", {}, precision::int8),
                       doctest::Contains("no_such_model"), std::invalid_argument);
  // A typo in a parameter name names the parameter and lists the valid ones.
  CHECK_THROWS_WITH_AS(build_model("resnet50", {{"resolutoin", 224}}, precision::int8),
                       doctest::Contains("resolutoin"), std::invalid_argument);
  CHECK_THROWS_WITH_AS(build_model("resnet50", {{"resolutoin", 224}}, precision::int8),
                       doctest::Contains("resolution"), std::invalid_argument);
  // Below the declared minimum (resolution >= 32, width >= 0.1).
  CHECK_THROWS_WITH_AS(build_model("mobilenet_v2", {{"resolution", 16}}, precision::int8),
                       doctest::Contains("resolution"), std::invalid_argument);
  CHECK_THROWS_AS(build_model("mobilenet_v2", {{"width", 0.0}}, precision::int8), std::invalid_argument);
  // A decoder's shape is whole numbers held as int: past 2^24, or a fraction, is refused
  // rather than wrapped or truncated (1e12 experts would wrap to a negative count).
  CHECK_THROWS_WITH_AS(decoder_model("mixtral_8x7b", {{"experts", 1e12}}),
                       doctest::Contains("'experts' must be <= 16777216, found 1e+12"), std::invalid_argument);
  CHECK_THROWS_WITH_AS(build_model("llama3_8b", {{"layers", 31.5}}, precision::fp8),
                       doctest::Contains("'layers' must be a whole number, found 31.5"), std::invalid_argument);
  CHECK_THROWS_WITH_AS(build_model("llama3_8b", {{"tied_embeddings", 2}}, precision::fp8),
                       doctest::Contains("'tied_embeddings' must be <= 1"), std::invalid_argument);
  CHECK(decoder_model("llama3_8b", {{"hidden", 1 << 24}}).hidden == 1 << 24);
  // At the bound, products of two shape numbers stay exact (formed in double, not int).
  // Hidden 1, one KV head: attention (2^24 + 2) 2^24 + 2^24 2^24 = 2^49 + 2^25 per layer,
  // SwiGLU 3 x 14336, two norms; 128256 x 2 embeddings and head; the final norm.
  const auto wide = decoder_model("llama3_8b", {{"heads", 1 << 24}, {"head_dim", 1 << 24}, {"hidden", 1}, {"kv_heads", 1}});
  CHECK(wide.parameters() == 128256.0 * 2 + 32 * (std::ldexp(1, 49) + std::ldexp(1, 25) + 3 * 14336.0 + 2) + 1);
  // The zoo lists its models sorted by name, each with its parameters declared.
  const auto& zoo = model_zoo();
  REQUIRE(zoo.size() >= 2);
  for (std::size_t i = 1; i < zoo.size(); ++i) CHECK(zoo[i - 1].name < zoo[i].name);
  for (const auto& m : zoo) CHECK_FALSE(m.params.empty());
}
