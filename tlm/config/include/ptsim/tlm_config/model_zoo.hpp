#pragma once
// Models built from their layer shapes. Each declares its parameters once; the scenario
// schema and `ptsim list workloads` are generated from these declarations.
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "ptsim/tlm_config/decoder.hpp"
#include "ptsim/tlm_config/op.hpp"

namespace ptsim::tlm_config {

struct model_param {
  std::string name;
  double default_value;
  std::string meaning;
  double min_value;  ///< inclusive lower bound
  /// Inclusive upper bound: a layer shape is stored as an int, so a value past it would
  /// wrap instead of failing.
  double max_value = 1e300;
  /// Only whole numbers make sense (a count of layers, heads, experts).
  bool whole = false;
};

struct model_info {
  std::string name;
  std::string description;
  std::vector<model_param> params;
  bool decoder = false;  ///< a Llama-style decoder: usable in an `llm:` serving stream
};

using model_params = std::map<std::string, double>;

/// All models in the zoo, sorted by name.
const std::vector<model_info>& model_zoo();
const model_info* find_model(const std::string& name);
/// Builds a model's operator graph. Unknown names or params, values outside their range,
/// or fractions where a whole number is needed, throw std::invalid_argument naming the parameter and its valid range.
op_graph build_model(const std::string& name, const model_params& params, precision prec);
/// The layer shape of a decoder model with `params` applied (same checks as build_model);
/// throws std::invalid_argument when `name` is not a decoder.
decoder_shape decoder_model(const std::string& name, const model_params& params);

}  // namespace ptsim::tlm_config
