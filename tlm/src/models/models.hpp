#pragma once
// Internal: the model builders behind model_zoo.cpp.
#include <algorithm>

#include "ptsim/tlm/model_zoo.hpp"

namespace ptsim::tlm::models {
op_graph mobilenet_v2(const model_params& p, precision prec);
op_graph resnet50(const model_params& p, precision prec);
op_graph image_preprocess(const model_params& p, precision prec);
op_graph classifier_postprocess(const model_params& p, precision prec);
}  // namespace ptsim::tlm::models
