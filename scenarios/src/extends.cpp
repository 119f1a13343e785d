// `extends:` — a scenario that is another scenario with some sections changed, so the
// library holds each platform once (phone-throttle extends default, for instance).
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "ptsim/text/input_file.hpp"
#include "yaml_memory.hpp"
#include "yaml_subset.hpp"
#include "yaml_tree.hpp"

namespace ptsim::scenarios::detail {
namespace fs = std::filesystem;

namespace {

YAML::Node merge(const YAML::Node& base, const YAML::Node& child, const std::string& path, const std::string& base_file,
                 const std::string& child_file, origin& o);

// A mapping whose keys are all item numbers ({ 0: ..., 3: ... }) over an inherited list.
bool item_patch(const YAML::Node& base, const YAML::Node& child) {
  if (!base.IsSequence() || !child.IsMap() || child.size() == 0) return false;
  for (auto it = child.begin(); it != child.end(); ++it) {
    const std::string& k = it->first.Scalar();
    if (k.empty() || k.size() > 9 || k.find_first_not_of("0123456789") != std::string::npos) return false;
  }
  return true;
}

// The inherited list with the numbered items merged, each as any value merges (a mapping
// key by key, anything else replaced), so an overlay can change one item without copying
// the list; `ptsim calibrate` writes a fitted list item this way.
YAML::Node patch_items(const YAML::Node& base, const YAML::Node& child, const std::string& path,
                       const std::string& base_file, const std::string& child_file, origin& o) {
  YAML::Node out = new_node_beside(base, YAML::NodeType::Sequence);
  for (std::size_t i = 0; i < base.size(); ++i) out.push_back(base[i]);
  for (auto it = child.begin(); it != child.end(); ++it) {
    const std::string key = it->first.Scalar();
    const std::size_t i = std::stoul(key);
    const std::string p = join_path(path, key);
    if (i >= base.size() || it->second.IsNull()) {
      origin here = o;
      here.file = child_file;
      here.path_files.clear();
      const std::string items = base.size() == 0 ? "no items"
                                                 : std::to_string(base.size()) + " items (0 to " +
                                                       std::to_string(base.size() - 1) + ")";
      here.report(it->first, path + "[" + key + "]",  // as list items are named in other messages
                  it->second.IsNull()
                      ? "a list item cannot be removed through extends (give the whole list instead)"
                      : "item " + key + " of '" + path + "': the list '" + base_file + "' gives has " + items);
      continue;
    }
    out[i] = merge(base[i], it->second, p, base_file, child_file, o);
    if (!(base[i].IsMap() && it->second.IsMap())) o.path_files.emplace_back(p, child_file);
  }
  return out;
}

// child over base: mappings merge key by key; a child value replaces anything else, and a
// child's `key: null` removes the inherited key (a component, a section) altogether. A
// mapping of item numbers over a list changes those items (patch_items).
// Nodes are shared, not cloned: a clone would lose the line:column marks that errors need.
YAML::Node merge(const YAML::Node& base, const YAML::Node& child, const std::string& path, const std::string& base_file,
                 const std::string& child_file, origin& o) {
  if (item_patch(base, child)) return patch_items(base, child, path, base_file, child_file, o);
  if (!base.IsMap() || !child.IsMap()) return child;
  YAML::Node out = new_node_beside(base, YAML::NodeType::Map);
  for (auto it = base.begin(); it != base.end(); ++it) {
    const std::string key = it->first.Scalar();
    const std::string p = join_path(path, key);
    if (child[key] && child[key].IsNull()) {
      YAML::Mark at = child[key].Mark();  // the key's own position, for the message
      for (auto c = child.begin(); c != child.end(); ++c)
        if (c->first.Scalar() == key) at = c->first.Mark();
      o.removals.push_back({key, child_file, at});
    } else if (child[key]) {
      out[key] = merge(it->second, child[key], p, base_file, child_file, o);
      // A value the child gives is the child's, whichever base (perhaps deeper) gave the key.
      if (!(it->second.IsMap() && child[key].IsMap())) o.path_files.emplace_back(p, child_file);
    } else {
      out[key] = it->second;
      // The base's own unless a deeper base gave it (that merge, run first, said so).
      const bool deeper = std::any_of(o.path_files.begin(), o.path_files.end(),
                                      [&](const auto& pf) { return starts_with_path(p, pf.first); });
      if (!deeper) o.path_files.emplace_back(p, base_file);
    }
  }
  for (auto it = child.begin(); it != child.end(); ++it) {
    const std::string key = it->first.Scalar();
    if (base[key]) continue;
    bool base_loops = false;  // then `key` may be one of a loop's instances: expansion removes it
    for (auto b = base.begin(); b != base.end(); ++b) base_loops = base_loops || b->first.Scalar().compare(0, 4, "for ") == 0;
    if (it->second.IsNull() && base_loops) {
      o.removals.push_back({key, child_file, it->first.Mark()});
      out[key] = it->second;
    } else if (it->second.IsNull()) {
      // Nothing to remove: most likely a misspelt key, or a value left out.
      origin here = o;
      here.file = child_file;
      here.path_files.clear();
      std::string keys;
      for (auto b = base.begin(); b != base.end(); ++b) keys += (keys.empty() ? "" : ", ") + b->first.Scalar();
      here.report(it->first, join_path(path, key),
                  "'" + key + ": null' removes an inherited key, but '" + base_file + "' has no '" +
                      join_path(path, key) + "' (it has: " + (keys.empty() ? "nothing" : keys) + ")");
      continue;
    }
    out[key] = it->second;
    o.path_files.emplace_back(join_path(path, key), child_file);
  }
  return out;
}

// A key given twice anywhere in a file that takes part in inheritance: the merge reads
// one of them and the merged tree no longer shows the other, so validation could not
// see it; report it here, against the file that holds it.
void report_duplicates(const YAML::Node& node, const std::string& path, const origin& at_file) {
  if (node.IsSequence()) {
    for (std::size_t i = 0; i < node.size(); ++i) report_duplicates(node[i], path + "[" + std::to_string(i) + "]", at_file);
    return;
  }
  if (!node.IsMap()) return;
  check_duplicate_keys(node, path, at_file);
  for (auto it = node.begin(); it != node.end(); ++it)
    if (it->first.IsScalar()) report_duplicates(it->second, join_path(path, it->first.Scalar()), at_file);
}

// A file's identity for the cycle check: its canonical path where it exists (two spellings
// of one file, or a link to it, are the same file), else the path as written.
std::string file_identity(const fs::path& p) {
  std::error_code ec;
  const auto c = fs::weakly_canonical(p, ec);
  return ec ? p.lexically_normal().string() : c.string();
}

}  // namespace

YAML::Node apply_extends(const YAML::Node& root, const std::string& file, origin& o, std::vector<std::string> chain) {
  // Problems with this file's own keys are reported against it (a base's extends too).
  origin here;
  here.file = file;
  here.sink = o.sink;
  report_duplicates(root, "", here);
  if (!root.IsMap() || !root["extends"]) return root;
  const YAML::Node ext = root["extends"];
  if (!ext.IsScalar() || ext.Scalar().empty()) {
    here.report(ext, "extends", "expected the path of a base scenario file, found a non-string value");
    return root;
  }
  if (file.empty() || file.find("(built in)") != std::string::npos) {
    here.report(ext, "extends", "extends needs a scenario file (relative paths are resolved from its folder)");
    return root;
  }
  // The chain of files from the one loaded down to this one: a base already on it is a cycle,
  // however long (an honest chain has no bound).
  if (chain.empty()) chain.push_back(file_identity(file));
  const fs::path base_path = fs::path(file).parent_path() / ext.Scalar();
  const std::string base_id = file_identity(base_path);
  if (std::find(chain.begin(), chain.end(), base_id) != chain.end()) {
    std::string cycle;
    for (auto it = std::find(chain.begin(), chain.end(), base_id); it != chain.end(); ++it)
      cycle += fs::path(*it).filename().string() + " -> ";
    here.report(ext, "extends", "extends cycle: " + cycle + fs::path(base_id).filename().string() +
                                 " (a file cannot be its own base)");
    return root;
  }
  chain.push_back(base_id);
  std::string why;
  const auto content = text::read_input_file(base_path, why);
  if (!content) {
    here.report(ext, "extends", "cannot open the base scenario '" + base_path.string() + "': " + why);
    return root;
  }
  YAML::Node base;
  try {
    base = detail::load_yaml(*content);
  } catch (const YAML::ParserException& e) {
    o.sink->push_back({base_path.string(), e.mark.line + 1, e.mark.column + 1, "", "YAML syntax error: " + e.msg});
    return root;
  }
  if (!base.IsMap()) {
    here.report(ext, "extends", "'" + base_path.string() + "' is not a scenario (not a mapping)");
    return root;
  }
  base = apply_extends(base, base_path.string(), o, std::move(chain));
  YAML::Node child = root;
  child.remove("extends");
  // Everything the base brings is reported against the base's file.
  return merge(base, child, "", base_path.string(), file, o);
}

}  // namespace ptsim::scenarios::detail
