#pragma once
// Internal: validating a YAML tree against the schema, applying --set overrides, and
// reading validated values (with schema defaults) while resolving.
#include <yaml-cpp/yaml.h>

#include <string>
#include <vector>

#include "ptsim/scenarios/diagnostic.hpp"
#include "ptsim/scenarios/scenario.hpp"
#include "ptsim/scenarios/schema.hpp"

namespace ptsim::scenarios::detail {

/// Where diagnostics point: the file, and the paths that came from --set.
struct origin {
  std::string file;
  std::vector<std::string> override_paths;
  /// Subtrees that came from a base scenario (`extends:`): path prefix -> its file.
  std::vector<std::pair<std::string, std::string>> path_files;
  /// A node that template expansion made or placed (see templates.hpp): where it is in the
  /// expanded tree, where it was written, and which instance it belongs to.
  struct expansion_note {
    std::string path;         ///< in the expanded tree, dotted: platform.components.gpu3, thermal.floorplan.2
    std::string source_path;  ///< as written, e.g. templates.h100 (for files and --set)
    YAML::Mark mark;          ///< as written (a node that expansion made has no mark of its own)
    std::string context;      ///< e.g. "in instance gpu3 of gpu{i} (i = 3), template h100"
    std::string instance;     ///< e.g. "gpu3"; empty outside a loop's instances
  };
  std::vector<expansion_note> expansions;
  /// A key that a derived scenario removed (`key: null`): named in errors about what still uses it.
  struct removal_note {
    std::string key, file;
    YAML::Mark mark;
  };
  std::vector<removal_note> removals;
  std::vector<diagnostic>* sink = nullptr;
  /// A problem written once in a loop body or template reported for its first instance;
  /// the others are named in that one diagnostic instead of repeating it (see emit).
  struct folded {
    const std::vector<diagnostic>* list;
    std::size_t index;            ///< of the diagnostic in *list
    std::string message;          ///< its message without the instance note
    std::string context;          ///< the first instance's note
    std::vector<std::string> more;  ///< the other instances, in report order
  };
  mutable std::vector<folded> folds;
  std::vector<diagnostic>* warnings = nullptr;  ///< plausibility warnings (none kept when null)
  /// A warning: recorded like an error (file:line:column, path) but does not fail the load.
  void warn(const YAML::Node& at, const std::string& path, const std::string& message) const;
  void report(const YAML::Node& at, const std::string& path, const std::string& message) const;
  void report(const YAML::Mark& at, const std::string& path, const std::string& message) const;
  void emit(std::vector<diagnostic>& out, const YAML::Mark& at, const std::string& path, const std::string& message,
            bool warning) const;
  /// The file that wrote the value at `path` (a base scenario's, through extends and template
  /// expansion); empty when --set gave it or it is this file's own.
  std::string file_of(const std::string& path) const;
};

/// Checks `node` against `schema`, reporting every problem to o.sink.
/// Reports each key given twice in the mapping `node` (YAML forbids it; yaml-cpp would
/// silently use the first), at the second one.
void check_duplicate_keys(const YAML::Node& node, const std::string& path, const origin& o);

void validate(const YAML::Node& node, const schema_ptr& schema, const std::string& path, const origin& o);

/// Applies one override to the document (creating missing sections); reports an
/// unknown path to o.sink and returns false.
bool apply_override(YAML::Node& root, const schema_ptr& schema, const override_kv& kv, const origin& o);

std::string join_path(const std::string& base, const std::string& key);
/// True when `path` is `prefix` or below it; list indexes may be written a[0] or a.0.
bool starts_with_path(const std::string& path, const std::string& prefix);

/// Replaces `extends: BASE.yaml` (relative to `file`'s folder) by the base scenario, deep-
/// merged under this one (mappings merge key by key, anything else is replaced), and
/// records which subtrees came from which file. Reports problems to o.sink, a cycle among
/// them too. `chain` holds the files above this one (empty for the file loaded).
YAML::Node apply_extends(const YAML::Node& root, const std::string& file, origin& o, std::vector<std::string> chain = {});

/// A validated node plus its schema. Getters fall back to the schema default; resolve-time
/// problems (a name that refers to nothing) are reported with fail().
class view {
 public:
  view(YAML::Node node, schema_ptr schema, std::string path, const origin* o);

  bool has(const std::string& key) const;
  view at(const std::string& key) const;
  std::string str(const std::string& key) const;
  double si(const std::string& key) const;  ///< quantity in SI (kelvin for temperatures)
  double num(const std::string& key) const;
  long long integer(const std::string& key) const;
  bool boolean(const std::string& key) const;
  std::vector<std::pair<std::string, view>> entries() const;  ///< map_of
  std::vector<view> items() const;                             ///< list_of
  std::string scalar() const;
  bool is_scalar() const { return node_.IsScalar(); }
  const std::string& path() const { return path_; }
  /// The file that wrote key `key` of this mapping; empty when it is the scenario's own or --set's.
  std::string file_of(const std::string& key) const;
  const YAML::Node& node() const { return node_; }
  /// Reports a problem at this node (or at its `key` child when present).
  void fail(const std::string& message, const std::string& key = "") const;
  /// A warning at this node (or its `key` child): the input is accepted.
  void warn(const std::string& message, const std::string& key = "") const;

 private:
  std::string raw(const std::string& key, const schema_node** s) const;
  const schema_node& object_schema() const;
  /// The value under `key` (first of equal keys, as value_of), or nullptr.
  const YAML::Node* find(const std::string& key) const;
  YAML::Node node_;
  schema_ptr schema_;
  std::string path_;
  const origin* o_;
  // The mapping's scalar keys and values, listed at the first lookup: resolving asks one
  // mapping for many keys, and each walk of a yaml-cpp mapping copies two node handles per
  // entry (a third of resolving `scenarios/default.yaml`). The document is not changed
  // while views of it live.
  mutable std::vector<std::pair<const std::string*, YAML::Node>> index_;
  mutable bool indexed_ = false;
};

}  // namespace ptsim::scenarios::detail
