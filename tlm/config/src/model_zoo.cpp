#include "ptsim/tlm_config/model_zoo.hpp"

#include <algorithm>
#include <cmath>
#include <iomanip>
#include <sstream>
#include <stdexcept>

#include "models/models.hpp"

namespace ptsim::tlm_config {
namespace {

struct entry {
  model_info info;
  std::function<op_graph(const model_params&, precision)> build;
};

// Llama-family shapes from the models' published config.json files (Hugging Face model
// cards meta-llama/Llama-3.2-1B, Llama-3.2-3B, Llama-2-7b-hf, Meta-Llama-3-8B, Llama-2-70b-hf,
// Meta-Llama-3-70B, Llama-3.1-405B): layers, hidden, heads, KV heads, head dim, FFN, vocabulary.
// Llama 3.1 8B and 70B have the shapes of Llama 3 8B and 70B. Mixtral 8x7B
// (mistralai/Mixtral-8x7B-v0.1: 8 local experts, 2 per token, no sliding window) and
// Qwen3-30B-A3B (Qwen/Qwen3-30B-A3B: 128 experts of width 768, 8 per token) from theirs.
struct decoder_preset {
  const char* name;
  const char* description;
  double layers, hidden, heads, kv_heads, head_dim, ffn, vocab, tied, experts = 0, experts_per_token = 0;
};
constexpr decoder_preset decoder_presets[] = {
    {"llama3_2_1b", "Llama 3.2 1B (1.24 B parameters, tied embeddings)", 16, 2048, 32, 8, 64, 8192, 128256, 1},
    {"llama3_2_3b", "Llama 3.2 3B (3.21 B parameters, tied embeddings)", 28, 3072, 24, 8, 128, 8192, 128256, 1},
    {"llama2_7b", "Llama 2 7B (6.74 B parameters; multi-head attention: 32 KV heads)", 32, 4096, 32, 32, 128, 11008, 32000, 0},
    {"llama3_8b", "Llama 3 8B (8.03 B parameters)", 32, 4096, 32, 8, 128, 14336, 128256, 0},
    {"llama2_70b", "Llama 2 70B (69.0 B parameters; the MLPerf Inference LLM)", 80, 8192, 64, 8, 128, 28672, 32000, 0},
    {"llama3_70b", "Llama 3 70B (70.6 B parameters)", 80, 8192, 64, 8, 128, 28672, 128256, 0},
    {"llama3_405b", "Llama 3.1 405B (405.9 B parameters)", 126, 16384, 128, 8, 128, 53248, 128256, 0},
    {"mixtral_8x7b", "Mixtral 8x7B (46.7 B parameters, 12.9 B active: 8 experts, 2 per token)", 32, 4096, 32, 8, 128,
     14336, 32000, 0, 8, 2},
    {"qwen3_30b_a3b", "Qwen3-30B-A3B (30.5 B parameters, 3.3 B active: 128 experts, 8 per token)", 48, 2048, 32, 4,
     128, 768, 151936, 0, 128, 8},
};

// A decoder's shape is whole numbers stored as int: bounded well inside int's range, and
// products of two of them are formed in double (decoder_shape::parameters).
constexpr double max_shape = 1 << 24;

std::vector<model_param> decoder_params(const decoder_preset& d) {
  const auto shape = [](const char* name, double v, const char* meaning, double min) {
    return model_param{name, v, meaning, min, max_shape, true};
  };
  return {{"batch", 1, "sequences generated together", 1},
          {"prompt", 128, "prompt tokens per sequence", 1},
          {"output", 128, "tokens generated per sequence", 1},
          shape("layers", d.layers, "decoder layers", 1),
          shape("hidden", d.hidden, "hidden size", 1),
          shape("heads", d.heads, "attention (query) heads", 1),
          shape("kv_heads", d.kv_heads, "key/value heads (grouped-query attention)", 1),
          shape("head_dim", d.head_dim, "size of one head", 1),
          shape("ffn", d.ffn, "SwiGLU inner width (of each expert in a mixture of experts)", 1),
          shape("vocab", d.vocab, "vocabulary size", 1),
          {"tied_embeddings", d.tied, "1: the LM head shares the embedding matrix", 0, 1, true},
          shape("experts", d.experts, "FFN experts per layer (0: one dense FFN)", 0),
          shape("experts_per_token", d.experts_per_token, "experts each token is routed to (top-k)", 0)};
}

std::vector<model_param> bert_params(double layers, double hidden, double heads, double ffn) {
  return {{"batch", 1, "sequences per request", 1},
          {"seq", 384, "tokens per sequence (MLPerf SQuAD: 384)", 1},
          {"layers", layers, "encoder layers", 1},
          {"hidden", hidden, "hidden size", 1},
          {"heads", heads, "attention heads", 1},
          {"ffn", ffn, "feed-forward inner width", 1}};
}

// ViT shapes of torchvision's vit_b_16 and vit_l_16 (Dosovitskiy et al. 2021, Table 1).
std::vector<model_param> vit_params(double layers, double hidden, double heads, double mlp) {
  return {{"batch", 1, "images per request", 1},
          {"resolution", 224, "input side (pixels)", 16},
          {"patch", 16, "patch side (pixels)", 1},
          {"layers", layers, "encoder blocks", 1},
          {"hidden", hidden, "hidden size", 1},
          {"heads", heads, "attention heads", 1},
          {"mlp", mlp, "MLP inner width", 1},
          {"classes", 1000, "output classes", 1}};
}

const std::vector<entry>& entries() {
  static const std::vector<entry> e = [] {
    std::vector<entry> v = {
        {{"bert_base", "BERT-Base encoder (Devlin et al. 2019), 110 M parameters", bert_params(12, 768, 12, 3072)},
         models::bert},
        {{"bert_large", "BERT-Large encoder (Devlin et al. 2019), 340 M parameters", bert_params(24, 1024, 16, 4096)},
         models::bert},
        {{"classifier_postprocess",
          "softmax and top-k over a classifier's output",
          {{"batch", 1, "images per request", 1}, {"classes", 1000, "classes", 1}, {"k", 5, "top-k", 1}}},
         models::classifier_postprocess},
        {{"gemm",
          "one matrix multiply [batch*m x k] x [k x n] with [k x n] resident weights",
          {{"batch", 1, "multiplies m", 1}, {"m", 1024, "rows", 1}, {"n", 1024, "columns", 1}, {"k", 1024, "inner size", 1}}},
         models::gemm},
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
        {{"vit_b16", "ViT-B/16 classifier (Dosovitskiy et al. 2021; torchvision vit_b_16), 86 M parameters",
          vit_params(12, 768, 12, 3072)},
         models::vit},
        {{"vit_l16", "ViT-L/16 classifier (Dosovitskiy et al. 2021; torchvision vit_l_16), 304 M parameters",
          vit_params(24, 1024, 16, 4096)},
         models::vit},
    };
    for (const auto& d : decoder_presets) {
      model_info info{d.name, std::string(d.description) + "; prefill + decode as one graph, or serve it in an llm stream",
                      decoder_params(d), true};
      const std::string name = d.name;
      v.push_back({info, [name](const model_params& p, precision prec) { return models::llama_generate(name, p, prec); }});
    }
    std::sort(v.begin(), v.end(), [](const entry& a, const entry& b) { return a.info.name < b.info.name; });
    return v;
  }();
  return e;
}

const entry& find_entry(const std::string& name) {
  for (const auto& e : entries())
    if (e.info.name == name) return e;
  std::string valid;
  for (const auto& e : entries()) valid += (valid.empty() ? "" : ", ") + e.info.name;
  throw std::invalid_argument("unknown model '" + name + "' (models: " + valid + ")");
}

std::string number(double v) {
  std::ostringstream o;
  o << std::setprecision(10) << v;
  return o.str();
}

model_params with_defaults(const entry& e, const model_params& given) {
  model_params p;
  for (const auto& mp : e.info.params) p[mp.name] = mp.default_value;
  for (const auto& [k, v] : given) {
    auto it = p.find(k);
    if (it == p.end()) {
      std::string valid;
      for (const auto& mp : e.info.params) valid += (valid.empty() ? "" : ", ") + mp.name;
      throw std::invalid_argument("model '" + e.info.name + "' has no parameter '" + k + "' (parameters: " + valid + ")");
    }
    it->second = v;
  }
  for (const auto& mp : e.info.params) {
    const double v = p[mp.name];
    const std::string where = "model '" + e.info.name + "': parameter '" + mp.name + "' must be ";
    if (!(v >= mp.min_value)) throw std::invalid_argument(where + ">= " + number(mp.min_value) + ", found " + number(v));
    if (!(v <= mp.max_value)) throw std::invalid_argument(where + "<= " + number(mp.max_value) + ", found " + number(v));
    if (mp.whole && v != std::floor(v))
      throw std::invalid_argument(where + "a whole number, found " + number(v));
  }
  return p;
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
  const entry& e = find_entry(name);
  const model_params p = with_defaults(e, given);
  if (e.info.decoder) {
    const std::string problem = decoder_split_problem(models::shape_from(name, p), 1);
    if (!problem.empty()) throw std::invalid_argument("model '" + name + "': " + problem);
  }
  return e.build(p, prec);
}

decoder_shape decoder_model(const std::string& name, const model_params& given) {
  const entry& e = find_entry(name);
  if (!e.info.decoder) throw std::invalid_argument("model '" + name + "' is not a decoder (llm streams need one)");
  const decoder_shape s = models::shape_from(name, with_defaults(e, given));
  const std::string problem = decoder_split_problem(s, 1);
  if (!problem.empty()) throw std::invalid_argument("model '" + name + "': " + problem);
  return s;
}

}  // namespace ptsim::tlm_config
