#include <cstdio>
#include <fstream>
#include <sstream>

#include "ptsim/text/input_file.hpp"
#include "resolve.hpp"
#include "templates.hpp"
#include "yaml_subset.hpp"

namespace ptsim::scenarios {

std::optional<std::string> file_name_problem(const std::string& name) {
  const std::string expected =
      "expected a name that can be a file name (no '/' or '\\', no control characters, not '.' or '..', "
      "at most 200 bytes), found ";
  auto quoted = [&] {
    std::string q;
    for (unsigned char ch : name) {
      if (ch < 0x20 || ch == 0x7f) {
        char buf[8];
        std::snprintf(buf, sizeof buf, "\\x%02x", ch);
        q += buf;
      } else {
        q += static_cast<char>(ch);
      }
    }
    return "'" + q + "'";
  };
  if (name.empty()) return expected + "an empty name";
  if (name == "." || name == "..") return expected + quoted();
  if (name.size() > 200) return expected + "a name of " + std::to_string(name.size()) + " bytes";
  for (std::size_t i = 0; i < name.size(); ++i) {
    const unsigned char ch = static_cast<unsigned char>(name[i]);
    if (ch == '/' || ch == '\\' || ch < 0x20 || ch == 0x7f)
      return expected + quoted() + " (character " + std::to_string(i + 1) + ")";
  }
  return std::nullopt;
}

override_kv parse_override(const std::string& arg) {
  auto eq = arg.find('=');
  if (eq == std::string::npos || eq == 0)
    throw scenario_error({diagnostic{"--set " + arg, 0, 0, "", "expected KEY=VALUE, found '" + arg + "'"}});
  return {arg.substr(0, eq), arg.substr(eq + 1)};
}

namespace {
// A tree with no node reachable twice: the emitter writes a node met twice (a template's
// values shared by its instances) as an anchor and aliases, which a reader of the stored
// scenario would have to follow; the stored scenario spells every value out instead.
YAML::Node unshared(const YAML::Node& n) {
  switch (n.Type()) {
    case YAML::NodeType::Map: {
      YAML::Node out(YAML::NodeType::Map);
      out.SetStyle(n.Style());
      for (const auto& kv : n) out[unshared(kv.first)] = unshared(kv.second);
      return out;
    }
    case YAML::NodeType::Sequence: {
      YAML::Node out(YAML::NodeType::Sequence);
      out.SetStyle(n.Style());
      for (const auto& item : n) out.push_back(unshared(item));
      return out;
    }
    case YAML::NodeType::Scalar: {
      YAML::Node out(n.Scalar());
      out.SetTag(n.Tag());
      return out;
    }
    default: return YAML::Node(YAML::NodeType::Null);
  }
}

scenario load(const std::string& text, const std::string& origin_name, const load_options& opts, bool from_file) {
  std::vector<diagnostic> diags, warnings;
  detail::origin o;
  o.file = origin_name;
  o.sink = &diags;
  o.warnings = &warnings;
  YAML::Node root;
  try {
    root = detail::load_yaml(text);
  } catch (const YAML::ParserException& e) {
    throw scenario_error({diagnostic{origin_name, e.mark.line + 1, e.mark.column + 1, "",
                                     "YAML syntax error: " + e.msg}});
  }
  if (!root.IsMap()) {
    o.report(root, "", "expected a scenario (a mapping with name, duration, platform, workload, thermal, policy), found " +
                           std::string(root.IsNull() ? "an empty document" : root.IsSequence() ? "a list" : "a plain value"));
    throw scenario_error(diags);
  }
  if (root["extends"]) {
    if (!from_file) o.report(root["extends"], "extends", "extends needs a scenario file (relative paths are resolved from its folder)");
    else root = detail::apply_extends(root, origin_name, o);
    if (!diags.empty()) throw scenario_error(diags);
  }
  const schema_ptr schema = scenario_schema();
  // A template is changed before it is used, so that every instance sees the change; any
  // other path names a key of the expanded scenario (one instance, say).
  for (const auto& kv : opts.overrides)
    if (detail::is_template_path(kv.path) && detail::apply_template_override(root, kv, o))
      o.override_paths.push_back(kv.path);
  if (!diags.empty()) throw scenario_error(diags);
  root = detail::expand_templates(root, o);
  if (!diags.empty()) throw scenario_error(diags);
  for (const auto& kv : opts.overrides) {
    if (detail::is_template_path(kv.path)) continue;
    if (detail::apply_override(root, schema, kv, o)) o.override_paths.push_back(kv.path);
  }
  if (opts.seed) root["seed"] = *opts.seed;
  if (!diags.empty()) throw scenario_error(diags);

  detail::validate(root, schema, "", o);
  if (!diags.empty()) throw scenario_error(diags);

  scenario sc;
  sc.source = origin_name;
  detail::resolve(detail::view(root, schema, "", &o), sc);
  if (!diags.empty()) throw scenario_error(diags);
  sc.warnings = warnings;
  if (opts.emit_resolved_yaml) {
    YAML::Emitter em;
    em << unshared(root);
    sc.resolved_yaml = std::string(em.c_str()) + "\n";
  }
  return sc;
}
}  // namespace

scenario load_scenario_text(const std::string& text, const std::string& origin_name, const load_options& opts) {
  return load(text, origin_name, opts, false);
}

scenario load_scenario_file(const std::string& path, const load_options& opts) {
  std::string why;
  const auto content = text::read_input_file(path, why);
  if (!content) throw scenario_error({diagnostic{path, 0, 0, "", "cannot open the scenario file: " + why}});
  return load(*content, path, opts, true);
}

}  // namespace ptsim::scenarios
