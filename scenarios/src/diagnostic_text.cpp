#include "diagnostic_text.hpp"

#include "ptsim/text/nearest_name.hpp"

namespace ptsim::scenarios::detail {

std::string found(const YAML::Node& n) {
  switch (n.Type()) {
    case YAML::NodeType::Map: return "a mapping";
    case YAML::NodeType::Sequence: return "a list";
    case YAML::NodeType::Null: return "nothing (null)";
    case YAML::NodeType::Scalar: return "'" + n.Scalar() + "'";
    default: return "an undefined value";
  }
}

std::string list_choices(const std::vector<std::string>& choices) {
  std::string s;
  for (std::size_t i = 0; i < choices.size(); ++i) s += (i ? ", " : "") + choices[i];
  return s;
}

std::string did_you_mean(const std::string& given, const std::vector<std::string>& names) {
  const std::string near = text::nearest_name(given, names);
  return near.empty() ? "" : " (did you mean '" + near + "'?)";
}

std::string unknown_key(const std::string& key, const std::vector<std::string>& valid) {
  const std::string hint = did_you_mean(key, valid);
  return "unknown key '" + key + "'" + (hint.empty() ? " (valid keys: " + list_choices(valid) + ")" : hint);
}

}  // namespace ptsim::scenarios::detail
