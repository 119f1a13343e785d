#include "yaml_tree.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <sstream>

#include "diagnostic_text.hpp"

namespace ptsim::scenarios::detail {

std::string join_path(const std::string& base, const std::string& key) {
  return base.empty() ? key : base + "." + key;
}

namespace {

// "a[0].b" -> "a.0.b": diagnostics index lists with brackets, --set paths with dots.
std::string dotted(const std::string& path) {
  std::string out;
  for (char c : path) {
    if (c == '[') out += '.';
    else if (c != ']') out += c;
  }
  return out;
}

}  // namespace

bool starts_with_path(const std::string& path_any, const std::string& prefix_any) {
  const std::string path = dotted(path_any), prefix = dotted(prefix_any);
  return path == prefix || (path.size() > prefix.size() && path.compare(0, prefix.size(), prefix) == 0 &&
                            path[prefix.size()] == '.');
}

namespace {

std::string type_name(const schema_node& s) {
  switch (s.type) {
    case node_type::object:
    case node_type::variant:
    case node_type::map_of: return "a mapping";
    case node_type::list_of: return "a list";
    case node_type::string: return "a string";
    case node_type::enumeration: return "one of [" + list_choices(s.choices) + "]";
    case node_type::boolean: return "true or false";
    case node_type::integer: return "an integer";
    case node_type::number: return "a number";
    case node_type::quantity:
      return s.dim.describe() + " with a unit, e.g. \"1 " + unit_hint(s.dim, s.absolute_temperature) + "\"";
    case node_type::one_of: {
      std::string out;
      for (std::size_t i = 0; i < s.alternatives.size(); ++i)
        out += (i ? " or " : "") + (s.alternatives[i]->type == node_type::list_of ? std::string("a list")
                                    : s.alternatives[i]->type == node_type::object ? std::string("a mapping")
                                                                                  : type_name(*s.alternatives[i]));
      return out;
    }
  }
  return "?";
}

bool parse_number(const std::string& text, double& out) {
  const char* b = text.c_str();
  char* e = nullptr;
  out = std::strtod(b, &e);
  while (*e == ' ') ++e;
  return e != b && *e == '\0' && std::isfinite(out);
}

// The value under `key` of a mapping, or an invalid node (false) when the key is absent or
// `map` is no mapping. Walks the entries itself: yaml-cpp's const operator[] makes an
// error node through a stringstream for every absent key, which was a tenth of the CPU of
// `ptsim validate` (optional keys are mostly absent).
YAML::Node value_of(const YAML::Node& map, const std::string& key) {
  if (!map.IsMap()) return YAML::Node(YAML::NodeType::Undefined);
  for (const auto& kv : map)
    if (kv.first.IsScalar() && kv.first.Scalar() == key) return kv.second;
  return YAML::Node(YAML::NodeType::Undefined);
}

// Checks range; returns an empty string when fine.
std::string range_problem(const schema_node& s, double v, const std::string& text) {
  const bool below = s.min && (s.min_exclusive ? !(v > *s.min) : !(v >= *s.min));
  const bool above = s.max && v > *s.max;
  if (!below && !above) return "";
  std::ostringstream os;  // only when there is something to say: a stream costs ~2k instructions
  if (below) os << "expected a value " << (s.min_exclusive ? "> " : ">= ") << format_value(s, *s.min);
  else os << "expected a value <= " << format_value(s, *s.max);
  os << ", found '" << text << "'";
  if (!s.range_note.empty()) os << " (" << s.range_note << ")";
  return os.str();
}

// Inside the accepted range but outside the plausible one: a warning.
std::string plausibility_note(const schema_node& s, double v, const std::string& text) {
  if (!((s.warn_min && v < *s.warn_min) || (s.warn_max && v > *s.warn_max))) return "";
  std::string r = "unusual value '" + text + "' (plausible: ";
  if (s.warn_min && s.warn_max) r += format_value(s, *s.warn_min) + " .. " + format_value(s, *s.warn_max);
  else if (s.warn_min) r += ">= " + format_value(s, *s.warn_min);
  else r += "<= " + format_value(s, *s.warn_max);
  return r + "); check the value and its unit";
}


std::string missing_key(const field& f) {
  return "missing required key '" + f.key + "'" + (f.missing_note.empty() ? "" : " (" + f.missing_note + ")");
}

void validate_object(const YAML::Node& node, const schema_node& s, const std::string& path, const origin& o) {
  if (node.IsNull()) {
    for (const auto& f : s.fields)
      if (f.required) o.report(node, join_path(path, f.key), missing_key(f));
    return;
  }
  if (!node.IsMap()) {
    o.report(node, path, "expected a mapping, found " + found(node));
    return;
  }
  check_duplicate_keys(node, path, o);
  // Range-for: one iterator_value (two node handles) per entry, where each `it->` made one.
  for (const auto& kv : node) {
    const std::string& key = kv.first.Scalar();
    const field* f = s.find(key);
    if (!f) {
      const auto r = s.retired.find(key);
      // A merged mapping (extends) made its keys anew, without marks: then the value's.
      const YAML::Node& at = kv.first.Mark().is_null() ? kv.second : kv.first;
      o.report(at, join_path(path, key), r != s.retired.end() ? r->second : unknown_key(key, s.keys()));
      continue;
    }
    validate(kv.second, f->schema, join_path(path, key), o);
  }
  for (const auto& f : s.fields)
    if (f.required && !value_of(node, f.key)) o.report(node, join_path(path, f.key), missing_key(f));
}

}  // namespace

void check_duplicate_keys(const YAML::Node& node, const std::string& path, const origin& o) {
  // The keys' text lives in the document's nodes, which outlive this loop.
  std::vector<std::pair<const std::string*, YAML::Mark>> seen;
  for (const auto& kv : node) {
    if (!kv.first.IsScalar()) continue;
    const std::string& key = kv.first.Scalar();
    for (const auto& [k, mark] : seen)
      if (*k == key) {
        o.report(kv.first, join_path(path, key),
                 "duplicate key '" + key + "' (first given at line " + std::to_string(mark.line + 1) + ")");
        break;
      }
    seen.emplace_back(&key, kv.first.Mark());
  }
}

void origin::report(const YAML::Node& at, const std::string& path, const std::string& message) const {
  report(at.Mark(), path, message);
}

void origin::warn(const YAML::Node& at, const std::string& path, const std::string& message) const {
  if (warnings) emit(*warnings, at.Mark(), path, message, true);
}

void origin::report(const YAML::Mark& at, const std::string& path, const std::string& message) const {
  emit(*sink, at, path, message, false);
}

namespace {
// "gpu1, gpu2, ..., gpu7": at most eight names, then how many more.
std::string fold_list(const std::vector<std::string>& names) {
  constexpr std::size_t shown = 8;
  std::string t;
  for (std::size_t i = 0; i < names.size() && i < shown; ++i) t += (i ? ", " : "") + names[i];
  if (names.size() > shown) t += " and " + std::to_string(names.size() - shown) + " more";
  return t;
}
}  // namespace

std::string origin::file_of(const std::string& path) const {
  const std::string dp = dotted(path);
  const expansion_note* note = nullptr;
  for (const auto& n : expansions) {
    const bool under = n.path.empty() || dp == n.path ||
                       (dp.size() > n.path.size() && dp.compare(0, n.path.size(), n.path) == 0 && dp[n.path.size()] == '.');
    if (under && (!note || n.path.size() > note->path.size())) note = &n;
  }
  std::string source = dp;
  if (note) {
    std::string rest = dp.substr(note->path.size());
    if (note->path.empty() && !rest.empty()) rest = "." + rest;
    source = note->source_path.empty() ? rest.substr(rest.empty() ? 0 : 1) : note->source_path + rest;
  }
  for (const auto& p : override_paths)
    if (starts_with_path(path, p) || starts_with_path(source, p)) return {};
  std::string f;
  std::size_t best = 0;
  for (const auto& [prefix, pf] : path_files)
    if (starts_with_path(source, prefix) && prefix.size() + 1 >= best) {
      best = prefix.size() + 1;
      f = pf;
    }
  return f;
}

void origin::emit(std::vector<diagnostic>& out, const YAML::Mark& at, const std::string& path,
                  const std::string& message, bool warning) const {
  diagnostic d;
  d.path = path;
  d.message = message;
  d.warning = warning;
  // A node from an expanded template or loop: its source path (for --set and extends files),
  // its mark when expansion made the node, and which instance it is.
  std::string source = path;
  YAML::Mark mark = at;
  const expansion_note* note = nullptr;
  const std::string dp = dotted(path);
  for (const auto& n : expansions) {  // n.path is dotted already: this runs once per note per diagnostic
    const bool under = n.path.empty() || dp == n.path ||
                       (dp.size() > n.path.size() && dp.compare(0, n.path.size(), n.path) == 0 && dp[n.path.size()] == '.');
    if (under && (!note || n.path.size() > note->path.size())) note = &n;
  }
  // A value that replaced the expanded one at the same path (an entry written beside a loop
  // under an instance's name) is not what the note describes: it is where it is written.
  if (note && note->path == dp && !at.is_null() && !note->mark.is_null() &&
      (at.line != note->mark.line || at.column != note->mark.column))
    note = nullptr;
  if (note) {
    std::string rest = dp.substr(note->path.size());  // "" or ".key..." below the note
    if (note->path.empty() && !rest.empty()) rest = "." + rest;
    source = note->source_path.empty() ? rest.substr(rest.empty() ? 0 : 1) : note->source_path + rest;
    if (mark.is_null()) mark = note->mark;
  }
  // A name that a derived scenario removed, still used here.
  for (const auto& r : removals)
    if (message.find("'" + r.key + "'") != std::string::npos)
      d.message += " ('" + r.key + "' was removed at " + r.file + ":" + std::to_string(r.mark.line + 1) + ":" +
                   std::to_string(r.mark.column + 1) + "; remove or change what uses it too)";
  const auto set_by = std::find_if(override_paths.begin(), override_paths.end(), [&](const std::string& p) {
    return starts_with_path(path, p) || starts_with_path(source, p);
  });
  if (set_by != override_paths.end()) {
    d.file = "--set " + *set_by;
  } else {
    d.file = file;
    // The longest prefix wins; of equal ones the last, recorded by the outer (overriding) merge.
    std::size_t best = 0;
    for (const auto& [prefix, f] : path_files)
      if (starts_with_path(source, prefix) && prefix.size() + 1 >= best) {
        best = prefix.size() + 1;
        d.file = f;
      }
    if (!mark.is_null()) {
      d.line = mark.line + 1;
      d.column = mark.column + 1;
    }
  }
  if (note && !note->context.empty()) {
    // The same problem at the same place in another instance (a bad value in a template
    // used by eight GPUs): one diagnostic naming them all, not eight.
    if (!note->instance.empty())
      for (auto& f : folds) {
        if (f.list != &out || f.index >= out.size() || f.message != d.message) continue;
        diagnostic& first = out[f.index];
        if (first.file != d.file || first.line != d.line || first.column != d.column || first.warning != d.warning) continue;
        f.more.push_back(note->instance);
        first.message = f.message + " (" + f.context + "; the same in " + fold_list(f.more) + ")";
        return;
      }
    if (!note->instance.empty()) folds.push_back({&out, out.size(), d.message, note->context, {}});
    d.message += " (" + note->context + ")";
  }
  out.push_back(d);
}

void validate(const YAML::Node& node, const schema_ptr& sp, const std::string& path, const origin& o) {
  const schema_node& s = *sp;
  switch (s.type) {
    case node_type::object: validate_object(node, s, path, o); return;
    case node_type::variant: {
      if (!node.IsMap()) return o.report(node, path, "expected a mapping with a 'kind', found " + found(node));
      std::vector<std::string> kinds;
      for (const auto& [k, _] : s.variants) kinds.push_back(k);
      if (!node["kind"]) return o.report(node, path + ".kind", "missing required key 'kind' (one of: " + list_choices(kinds) + ")");
      const YAML::Node kind = node["kind"];
      auto it = kind.IsScalar() ? s.variants.find(kind.Scalar()) : s.variants.end();
      if (it == s.variants.end()) {
        return o.report(kind, path + ".kind",
                        "unknown component kind " + found(kind) + ", expected one of [" + list_choices(kinds) + "]" +
                            (kind.IsScalar() ? did_you_mean(kind.Scalar(), kinds) : ""));
      }
      validate_object(node, *it->second, path, o);
      return;
    }
    case node_type::map_of:
      if (node.IsNull()) return;
      if (!node.IsMap()) return o.report(node, path, "expected a mapping, found " + found(node));
      check_duplicate_keys(node, path, o);
      for (const auto& kv : node) validate(kv.second, s.element, join_path(path, kv.first.Scalar()), o);
      return;
    case node_type::list_of:
      if (!node.IsSequence()) return o.report(node, path, "expected a list, found " + found(node));
      for (std::size_t i = 0; i < node.size(); ++i) validate(node[i], s.element, path + "[" + std::to_string(i) + "]", o);
      return;
    case node_type::one_of:
      for (const auto& alt : s.alternatives) {
        // The alternative of the node's own shape: a mapping, a list, or a scalar.
        const bool alt_is_map = alt->type == node_type::object, alt_is_list = alt->type == node_type::list_of;
        if (alt_is_map == node.IsMap() && alt_is_list == node.IsSequence()) return validate(node, alt, path, o);
      }
      return o.report(node, path, "expected " + type_name(s) + ", found " + found(node));
    default: break;
  }
  // Scalars.
  if (!node.IsScalar()) return o.report(node, path, "expected " + type_name(s) + ", found " + found(node));
  const std::string text = node.Scalar();
  switch (s.type) {
    case node_type::string:
      if (text.empty()) o.report(node, path, "expected a non-empty string");
      return;
    case node_type::enumeration: {
      for (const auto& c : s.choices)
        if (c == text) return;
      return o.report(node, path, "expected one of [" + list_choices(s.choices) + "], found '" + text + "'" +
                                      did_you_mean(text, s.choices));
    }
    case node_type::boolean:
      if (text == "true" || text == "false") return;
      return o.report(node, path, "expected true or false, found '" + text + "'");
    case node_type::integer: {
      double v;
      if (!parse_number(text, v) || v != std::floor(v) || std::fabs(v) > 9.0e15)
        return o.report(node, path, "expected an integer, found '" + text + "'");
      if (auto p = range_problem(s, v, text); !p.empty()) o.report(node, path, p);
      else if (auto w = plausibility_note(s, v, text); !w.empty()) o.warn(node, path, w);
      return;
    }
    case node_type::number: {
      double v;
      if (!parse_number(text, v)) return o.report(node, path, "expected a finite number, found '" + text + "'");
      if (auto p = range_problem(s, v, text); !p.empty()) o.report(node, path, p);
      else if (auto w = plausibility_note(s, v, text); !w.empty()) o.warn(node, path, w);
      return;
    }
    case node_type::quantity: {
      try {
        double v = parse_si(text, s.dim, s.absolute_temperature);
        if (auto p = range_problem(s, v, text); !p.empty()) o.report(node, path, p);
        else if (auto w = plausibility_note(s, v, text); !w.empty()) o.warn(node, path, w);
      } catch (const unit_error& e) {
        o.report(node, path, e.what());
      }
      return;
    }
    default: return;
  }
}

namespace {
std::vector<std::string> split_path(const std::string& p) {
  std::vector<std::string> out;
  std::string cur;
  for (char c : p) {
    if (c == '.') {
      out.push_back(cur);
      cur.clear();
    } else {
      cur += c;
    }
  }
  out.push_back(cur);
  return out;
}

bool is_index(const std::string& s) {
  return !s.empty() && s.find_first_not_of("0123456789") == std::string::npos;
}
}  // namespace

namespace {
// `--set KEY=null` (or `KEY=`): removes what KEY names, as `key: null` does in a derived
// scenario: a named entry (a component; an error when there is none of that name, most
// likely a misspelling), a list item (the later ones move up), or an optional key (its
// default applies; nothing to do when the file leaves it out).
template <typename Fail>
bool remove_at(YAML::Node& cur, const schema_node& parent, const std::string& seg, std::size_t list_index,
               const std::string& walked, Fail& fail) {
  if (parent.type == node_type::list_of) {
    YAML::Node kept(YAML::NodeType::Sequence);
    for (std::size_t i = 0; i < cur.size(); ++i)
      if (i != list_index) kept.push_back(cur[i]);
    cur = kept;  // a handle into the document: replaces the list in place
    return true;
  }
  if (cur.IsMap() && cur[seg]) {
    cur.remove(seg);
    return true;
  }
  if (parent.type != node_type::map_of) return true;
  std::string names;
  if (cur.IsMap())
    for (auto it = cur.begin(); it != cur.end(); ++it) names += (names.empty() ? "" : ", ") + it->first.Scalar();
  return fail("nothing to remove: '" + walked + "' is not in the scenario (" +
              (names.empty() ? std::string("there is nothing there") : "there are: " + names) + ")");
}
// The schema of path segment `seg` under `s` at the document node `cur` (`walked`: the
// path so far): `child`, and for a list the element's index. Returns the error, or "".
std::string child_schema(const schema_node& s, const YAML::Node& cur, const std::string& seg,
                         const std::string& walked, schema_ptr& child, std::size_t& list_index) {
  switch (s.type) {
    case node_type::object: {
      const field* f = s.find(seg);
      if (const auto r = s.retired.find(seg); !f && r != s.retired.end()) return r->second;
      if (!f)
        return "unknown key '" + seg + "' in '" + (walked.empty() ? "<top>" : walked) + "'" +
               did_you_mean(seg, s.keys());
      child = f->schema;
      return "";
    }
    case node_type::variant: {
      std::string kind = cur.IsMap() && cur["kind"] && cur["kind"].IsScalar() ? cur["kind"].Scalar() : "";
      auto it = s.variants.find(kind);
      if (it == s.variants.end()) return "'" + walked + "' has no valid 'kind', so '" + seg + "' cannot be checked";
      const field* f = it->second->find(seg);
      if (!f)
        return "unknown key '" + seg + "' for a component of kind '" + kind + "'" +
               did_you_mean(seg, it->second->keys());
      child = f->schema;
      return "";
    }
    case node_type::map_of: child = s.element; return "";
    case node_type::list_of: {
      if (!is_index(seg)) return "'" + walked + "' is a list: expected an index, found '" + seg + "'";
      // Compared as text first: an index of 20 digits does not fit any integer type.
      const std::size_t size = cur.IsSequence() ? cur.size() : 0;
      if (seg.size() > 9 || std::strtoull(seg.c_str(), nullptr, 10) >= size)
        return "index " + seg + " is out of range for '" + walked + "' (" +
               (size ? "0 to " + std::to_string(size - 1) : std::string("it has no elements")) + ")";
      list_index = static_cast<std::size_t>(std::strtoull(seg.c_str(), nullptr, 10));
      child = s.element;
      return "";
    }
    default: return "'" + walked + "' is a value and has no key '" + seg + "'";
  }
}
}  // namespace

bool apply_override(YAML::Node& root, const schema_ptr& schema, const override_kv& kv, const origin& o) {
  auto fail = [&](const std::string& msg) {
    diagnostic d;
    d.file = "--set " + kv.path + "=" + kv.value;
    d.path = kv.path;
    d.message = msg;
    o.sink->push_back(d);
    return false;
  };
  const auto segs = split_path(kv.path);
  schema_ptr s = schema;
  YAML::Node cur = root;
  std::string walked;
  for (std::size_t i = 0; i < segs.size(); ++i) {
    const std::string& seg = segs[i];
    if (seg.empty()) return fail("empty segment in key path");
    const bool last = i + 1 == segs.size();
    // Choose the schema of the child.
    schema_ptr child;
    std::size_t list_index = 0;
    if (s->type == node_type::one_of) {
      // The alternative of the node's shape: a list's elements by index, else the mapping's keys.
      schema_ptr pick;
      for (const auto& alt : s->alternatives)
        if (alt->type == (cur.IsSequence() ? node_type::list_of : node_type::object)) pick = alt;
      if (!pick) return fail("'" + walked + "' has no key '" + seg + "'");
      s = pick;
      if (s->type == node_type::object && cur.IsScalar()) {
        // Promote "name" to {governor: name} so a tunable can be set beside it.
        const field* first = s->fields.empty() ? nullptr : &s->fields.front();
        YAML::Node m(YAML::NodeType::Map);
        if (first) m[first->key] = cur.Scalar();
        cur = m;  // cur is a handle into root: assignment replaces the value in place
      }
    }
    if (std::string e = child_schema(*s, cur, seg, walked, child, list_index); !e.empty()) return fail(e);
    // An earlier --set may have put a value where the schema has a mapping ("thermal=x",
    // then "thermal.ambient=..."): refuse it here, as the walk below does, rather than
    // indexing a scalar (yaml-cpp throws BadSubscript).
    if (last && s->type != node_type::list_of && cur.IsDefined() && !cur.IsNull() && !cur.IsMap())
      return fail("'" + walked + "' is not a mapping");
    walked = join_path(walked, seg);
    if (last) {
      YAML::Node value;
      try {
        value = YAML::Load(kv.value);
      } catch (const YAML::Exception& e) {
        return fail("value is not valid YAML: " + e.msg);
      }
      if (value.IsNull()) return remove_at(cur, *s, seg, list_index, walked, fail);
      if (s->type == node_type::list_of) cur[list_index] = value;
      else cur[seg] = value;
      return true;
    }
    if (s->type == node_type::list_of) {
      YAML::Node next = cur[list_index];
      cur.reset(next);
    } else {
      if (!cur.IsMap()) {
        if (!cur.IsNull() && cur.IsDefined()) return fail("'" + walked + "' is not a mapping");
        cur = YAML::Node(YAML::NodeType::Map);
      }
      if (!cur[seg] || cur[seg].IsNull()) cur[seg] = YAML::Node(YAML::NodeType::Map);
      YAML::Node next = cur[seg];
      cur.reset(next);
    }
    s = child;
  }
  return true;
}

// ---- view --------------------------------------------------------------------

view::view(YAML::Node node, schema_ptr schema, std::string path, const origin* o)
    : node_(std::move(node)), schema_(std::move(schema)), path_(std::move(path)), o_(o) {}

const schema_node& view::object_schema() const {
  if (schema_->type == node_type::variant) {
    return *schema_->variants.at(node_["kind"].Scalar());
  }
  if (schema_->type == node_type::one_of) {
    for (const auto& alt : schema_->alternatives)
      if (alt->type == node_type::object) return *alt;
  }
  return *schema_;
}

const YAML::Node* view::find(const std::string& key) const {
  if (!indexed_) {
    indexed_ = true;
    if (node_.IsMap())
      for (const auto& kv : node_)
        if (kv.first.IsScalar()) index_.emplace_back(&kv.first.Scalar(), kv.second);
  }
  for (const auto& [k, v] : index_)
    if (*k == key) return &v;
  return nullptr;
}

bool view::has(const std::string& key) const {
  const YAML::Node* v = find(key);
  return v && *v && !v->IsNull();
}

std::string view::file_of(const std::string& key) const { return o_ ? o_->file_of(join_path(path_, key)) : std::string(); }

view view::at(const std::string& key) const {
  const field* f = object_schema().find(key);
  if (!f) throw std::logic_error("scenario schema has no key '" + join_path(path_, key) + "'");
  const YAML::Node* child = find(key);
  return view(child && *child ? *child : YAML::Node(YAML::NodeType::Null), f->schema, join_path(path_, key), o_);
}

std::string view::raw(const std::string& key, const schema_node** s) const {
  const field* f = object_schema().find(key);
  if (!f) throw std::logic_error("scenario schema has no key '" + join_path(path_, key) + "'");
  *s = f->schema.get();
  if (const YAML::Node* v = find(key); v && *v && !v->IsNull()) return v->Scalar();
  if (f->schema->default_value) return *f->schema->default_value;
  throw std::logic_error("no value and no default for '" + join_path(path_, key) + "'");
}

std::string view::str(const std::string& key) const {
  const schema_node* s;
  return raw(key, &s);
}

double view::si(const std::string& key) const {
  const schema_node* s;
  std::string text = raw(key, &s);
  return parse_si(text, s->dim, s->absolute_temperature);
}

double view::num(const std::string& key) const {
  const schema_node* s;
  return std::strtod(raw(key, &s).c_str(), nullptr);
}

long long view::integer(const std::string& key) const {
  const schema_node* s;
  return static_cast<long long>(std::strtod(raw(key, &s).c_str(), nullptr));
}

bool view::boolean(const std::string& key) const {
  const schema_node* s;
  return raw(key, &s) == "true";
}

std::string view::scalar() const { return node_.Scalar(); }

std::vector<std::pair<std::string, view>> view::entries() const {
  std::vector<std::pair<std::string, view>> out;
  if (!node_.IsMap()) return out;
  for (auto it = node_.begin(); it != node_.end(); ++it) {
    const std::string k = it->first.Scalar();
    out.emplace_back(k, view(it->second, schema_->element, join_path(path_, k), o_));
  }
  return out;
}

std::vector<view> view::items() const {
  std::vector<view> out;
  if (!node_.IsSequence()) return out;
  schema_ptr element = schema_->element;
  if (schema_->type == node_type::one_of)  // the list alternative's elements
    for (const auto& alt : schema_->alternatives)
      if (alt->type == node_type::list_of) element = alt->element;
  for (std::size_t i = 0; i < node_.size(); ++i)
    out.emplace_back(node_[i], element, path_ + "[" + std::to_string(i) + "]", o_);
  return out;
}

void view::warn(const std::string& message, const std::string& key) const {
  if (!key.empty() && has(key)) o_->warn(node_[key], join_path(path_, key), message);
  else o_->warn(node_, key.empty() ? path_ : join_path(path_, key), message);
}

void view::fail(const std::string& message, const std::string& key) const {
  if (!key.empty() && has(key)) o_->report(node_[key], join_path(path_, key), message);
  else o_->report(node_, key.empty() ? path_ : join_path(path_, key), message);
}

}  // namespace ptsim::scenarios::detail
