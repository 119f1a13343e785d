#pragma once
// Internal: the model builders behind model_zoo.cpp.
#include <algorithm>
#include <string>

#include "ptsim/tlm_config/decoder.hpp"
#include "ptsim/tlm_config/model_zoo.hpp"

namespace ptsim::tlm_config::models {
op_graph mobilenet_v2(const model_params& p, precision prec);
op_graph resnet50(const model_params& p, precision prec);
op_graph image_preprocess(const model_params& p, precision prec);
op_graph classifier_postprocess(const model_params& p, precision prec);
op_graph bert(const model_params& p, precision prec);
op_graph vit(const model_params& p, precision prec);
op_graph gemm(const model_params& p, precision prec);
/// Decoder shape from a model's parameters (layers, hidden, heads, kv_heads, head_dim,
/// ffn, vocab, tied_embeddings).
decoder_shape shape_from(const std::string& name, const model_params& p);
op_graph llama_generate(const std::string& name, const model_params& p, precision prec);
}  // namespace ptsim::tlm_config::models
