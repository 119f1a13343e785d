#pragma once
// The first difference between two yaml-cpp trees (node types, marks, tags, styles,
// scalars, sizes, key order), "" when there is none: how the YAML subset reader is
// checked against YAML::Load (test_yaml_subset, fuzz_yaml_subset).
#include <yaml-cpp/yaml.h>

#include <string>

inline std::string yaml_mark_text(const YAML::Mark& m) {
  return std::to_string(m.line + 1) + ":" + std::to_string(m.column + 1) + " (offset " + std::to_string(m.pos) + ")";
}

inline std::string yaml_tree_difference(const YAML::Node& a, const YAML::Node& b, const std::string& where = "") {
  if (a.Type() != b.Type()) return where + ": node type " + std::to_string(a.Type()) + " vs " + std::to_string(b.Type());
  if (yaml_mark_text(a.Mark()) != yaml_mark_text(b.Mark()))
    return where + ": mark " + yaml_mark_text(a.Mark()) + " vs " + yaml_mark_text(b.Mark());
  if (a.Tag() != b.Tag()) return where + ": tag '" + a.Tag() + "' vs '" + b.Tag() + "'";
  if (a.Style() != b.Style()) return where + ": style differs";
  if (a.IsScalar() && a.Scalar() != b.Scalar()) return where + ": '" + a.Scalar() + "' vs '" + b.Scalar() + "'";
  if (a.size() != b.size()) return where + ": size " + std::to_string(a.size()) + " vs " + std::to_string(b.size());
  if (a.IsSequence()) {
    for (std::size_t i = 0; i < a.size(); ++i)
      if (auto d = yaml_tree_difference(a[i], b[i], where + "[" + std::to_string(i) + "]"); !d.empty()) return d;
  } else if (a.IsMap()) {
    auto ia = a.begin();
    auto ib = b.begin();
    for (; ia != a.end(); ++ia, ++ib) {
      const std::string at = where + "." + (ia->first.IsScalar() ? ia->first.Scalar() : "?");
      if (auto d = yaml_tree_difference(ia->first, ib->first, at + " (key)"); !d.empty()) return d;
      if (auto d = yaml_tree_difference(ia->second, ib->second, at); !d.empty()) return d;
    }
  }
  return "";
}
