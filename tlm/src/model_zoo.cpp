#include "ptsim/tlm/model_zoo.hpp"

#include <stdexcept>

#include "models/models.hpp"

namespace ptsim::tlm {
namespace {

struct entry {
  model_info info;
  op_graph (*build)(const model_params&, precision);
};

const std::vector<entry>& entries() {
  static const std::vector<entry> e = {
      {{"classifier_postprocess",
        "softmax and top-k over a classifier's output",
        {{"batch", 1, "images per request", 1}, {"classes", 1000, "classes", 1}, {"k", 5, "top-k", 1}}},
       models::classifier_postprocess},
      {{"image_preprocess",
        "camera frame YUV420 -> RGB, bilinear resize, normalisation",
        {{"width", 1920, "frame width (pixels)", 1},
         {"height", 1080, "frame height (pixels)", 1},
         {"size", 224, "network input side (pixels)", 1}}},
       models::image_preprocess},
      {{"mobilenet_v2",
        "MobileNetV2 classifier (Sandler et al. 2018), ~300 M MACs at 224x224",
        {{"batch", 1, "images per request", 1},
         {"resolution", 224, "input side (pixels)", 32},
         {"width", 1.0, "width multiplier", 0.1},
         {"classes", 1000, "output classes", 1}}},
       models::mobilenet_v2},
      {{"resnet50",
        "ResNet-50 v1.5 classifier (He et al. 2016), ~4.1 G MACs at 224x224",
        {{"batch", 1, "images per request", 1},
         {"resolution", 224, "input side (pixels)", 32},
         {"classes", 1000, "output classes", 1}}},
       models::resnet50},
  };
  return e;
}

}  // namespace

const std::vector<model_info>& model_zoo() {
  static const std::vector<model_info> v = [] {
    std::vector<model_info> out;
    for (const auto& e : entries()) out.push_back(e.info);
    return out;
  }();
  return v;
}

const model_info* find_model(const std::string& name) {
  for (const auto& m : model_zoo())
    if (m.name == name) return &m;
  return nullptr;
}

op_graph build_model(const std::string& name, const model_params& given, precision prec) {
  for (const auto& e : entries()) {
    if (e.info.name != name) continue;
    model_params p;
    for (const auto& mp : e.info.params) p[mp.name] = mp.default_value;
    for (const auto& [k, v] : given) {
      auto it = p.find(k);
      if (it == p.end()) {
        std::string valid;
        for (const auto& mp : e.info.params) valid += (valid.empty() ? "" : ", ") + mp.name;
        throw std::invalid_argument("model '" + name + "' has no parameter '" + k + "' (parameters: " + valid + ")");
      }
      it->second = v;
    }
    for (const auto& mp : e.info.params)
      if (!(p[mp.name] >= mp.min_value))
        throw std::invalid_argument("model '" + name + "': parameter '" + mp.name + "' must be >= " +
                                    std::to_string(mp.min_value) + ", found " + std::to_string(p[mp.name]));
    return e.build(p, prec);
  }
  throw std::invalid_argument("unknown model '" + name + "'");
}

}  // namespace ptsim::tlm
