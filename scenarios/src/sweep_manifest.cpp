// DIR/sweep.yaml: written once by the first sweep process in a folder, read by every later
// one (shards, --resume, --merge).
#include "ptsim/scenarios/sweep_manifest.hpp"

#include <yaml-cpp/yaml.h>

namespace ptsim::scenarios {

namespace {

constexpr const char* header =
    "# A ptsim sweep folder: the sweep its runs/ belong to. Written by `ptsim sweep`; do not edit.\n";

std::string emit(const sweep_manifest& m, YAML::EMITTER_MANIP text_style) {
  YAML::Emitter em;
  em << YAML::BeginMap;
  em << YAML::Key << "ptsim_sweep_folder" << YAML::Value << 1;
  em << YAML::Key << "source" << YAML::Value << m.source;
  em << YAML::Key << "identity" << YAML::Value << m.identity;
  em << YAML::Key << "runs" << YAML::Value << m.runs;
  em << YAML::Key << "sweep" << YAML::Value << text_style << m.text;
  em << YAML::EndMap;
  return std::string(header) + em.c_str() + "\n";
}

std::string trim_newlines(std::string s) {
  while (!s.empty() && s.back() == '\n') s.pop_back();
  return s;
}

}  // namespace

std::string manifest_yaml(const sweep_manifest& m) {
  // A literal block reads best; fall back to a quoted string for text it cannot carry.
  const std::string literal = emit(m, YAML::Literal);
  try {
    if (trim_newlines(parse_manifest(literal, "").text) == trim_newlines(m.text)) return literal;
  } catch (const scenario_error&) {
  }
  return emit(m, YAML::DoubleQuoted);
}

sweep_manifest parse_manifest(const std::string& text, const std::string& origin) {
  auto fail = [&](const std::string& why) -> scenario_error {
    return scenario_error({diagnostic{origin, 0, 0, "", "not a ptsim sweep folder manifest (" + why + ")"}});
  };
  YAML::Node root;
  try {
    root = YAML::Load(text);
  } catch (const YAML::Exception& e) {
    throw fail("YAML error: " + e.msg);
  }
  if (!root.IsMap() || !root["ptsim_sweep_folder"]) throw fail("no 'ptsim_sweep_folder' key");
  sweep_manifest m;
  for (const char* key : {"source", "identity", "runs", "sweep"})
    if (!root[key] || !root[key].IsScalar()) throw fail(std::string("no '") + key + "'");
  m.source = root["source"].Scalar();
  m.identity = root["identity"].Scalar();
  m.text = root["sweep"].Scalar();
  try {
    m.runs = root["runs"].as<std::size_t>();
  } catch (const YAML::Exception&) {
    throw fail("'runs' is not a count");
  }
  return m;
}

sweep_spec manifest_sweep(const sweep_manifest& m) { return load_sweep_text(m.text, m.source); }

}  // namespace ptsim::scenarios
