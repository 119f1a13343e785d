// Templates and loops in scenario files (README, "Templates and loops"):
//   templates: { h100: { kind: gpu, domain: "gpu{i}", ... } }   named mappings, dropped after use
//   use: h100                     in a mapping: the template under the mapping's own keys
//   for i in 0..7: { "gpu{i}": { use: h100 } }      in a mapping: its entries once per value
//   - for i in [a, b]: { name: "{i}" }              as a list item: the item once per value
// Inside a loop body or a template, `{EXPR}` in keys and strings is replaced: EXPR is a loop
// variable or integer arithmetic on them (+ - * / % and parentheses); `{{` and `}}` are
// literal braces. Elsewhere braces are plain text.
#include "templates.hpp"

#include "template_text.hpp"
#include "yaml_memory.hpp"

#include <cctype>
#include <optional>
#include <set>

namespace ptsim::scenarios::detail {

namespace {

constexpr int max_template_depth = 8;
// Loops multiply: nested ranges over a large body could make a tree far larger than any
// platform (and yaml-cpp finds a mapping's keys by linear search); past this many nodes
// made, expansion stops with an error (the 8-GPU server makes a small fraction of it).
constexpr std::size_t max_nodes = 10000;

struct too_large {};

using template_text::is_loop_key;
using template_text::loop;
using template_text::parse_loop;
using template_text::substitute;
using template_text::variable;

bool is_loop_item(const YAML::Node& item) {
  return item.IsMap() && item.size() == 1 && item.begin()->first.IsScalar() &&
         is_loop_key(item.begin()->first.Scalar());
}

// `over` on `under`: mappings merge key by key, anything else is replaced (as with extends).
YAML::Node merge_over(const YAML::Node& under, const YAML::Node& over) {
  if (!under.IsMap() || !over.IsMap()) return over;
  YAML::Node out = new_node_beside(under, YAML::NodeType::Map);
  out.SetStyle(under.Style());
  for (auto it = under.begin(); it != under.end(); ++it) {
    const YAML::Node o = over[it->first.Scalar()];
    out[it->first] = o ? merge_over(it->second, o) : it->second;
  }
  for (auto it = over.begin(); it != over.end(); ++it)
    if (!under[it->first.Scalar()]) out[it->first] = it->second;
  return out;
}

// ---- expansion ------------------------------------------------------------------

// One mapping as written, among those merged into one output mapping: a use site over its
// template (the first has priority), or a lone mapping.
struct layer {
  YAML::Node node;
  std::string path;      ///< source path, e.g. templates.h100
  std::string template_name;  ///< non-empty for a template's body
};

struct scope {
  std::vector<variable> vars;
  bool substitute = false;  ///< inside a loop body or a template: `{...}` is replaced
  bool instances = false;   ///< this mapping is a loop body: each entry is an instance
  std::string instance;     ///< e.g. "in instance gpu3 of gpu{i} (i = 3)"
  std::string instance_name;  ///< e.g. "gpu3" or "i = 2": how a folded error lists it
  std::vector<std::string> templates;  ///< templates being used, outermost first (cycles)
  std::string values() const {
    std::string t;
    for (const auto& v : vars) t += (t.empty() ? "" : ", ") + v.name + " = " + v.value;
    return t;
  }
};

class expander {
 public:
  /// New nodes are made beside `document` (yaml_memory.hpp).
  expander(const YAML::Node& templates, const YAML::Node& document, origin& o)
      : templates_(templates), memory_(document), o_(o) {}

  static bool needs_expansion(const YAML::Node& n) {
    if (n.IsSequence()) {
      for (const auto& item : n)
        if (is_loop_item(item) || needs_expansion(item)) return true;
    } else if (n.IsMap()) {
      static const std::string none;
      for (const auto& kv : n) {  // one iterator_value (two node handles) per entry
        const std::string& k = kv.first.IsScalar() ? kv.first.Scalar() : none;
        if (k == "use" || is_loop_key(k) || needs_expansion(kv.second)) return true;
      }
    }
    return false;
  }

  YAML::Node node(const YAML::Node& n, const std::string& src, const std::string& out, const scope& sc,
                  const std::string& tpl) {
    if (!sc.substitute && !needs_expansion(n)) return n;
    if (++made_ > max_nodes) throw too_large{};
    if (n.IsMap()) return map({{n, src, tpl}}, out, sc);
    if (n.IsSequence()) return sequence(n, src, out, sc, tpl);
    note(out, src, n.Mark(), sc, tpl);
    if (n.IsScalar() && sc.substitute) {
      const std::string text = n.Scalar();
      if (text.find_first_of("{}") == std::string::npos) return n;
      try {
        return new_scalar_beside(memory_, substitute(text, sc.vars));
      } catch (const std::runtime_error& e) {
        report(n.Mark(), out, src, e.what(), sc, tpl);
        return n;
      }
    }
    return n;
  }

 private:
  void note(const std::string& out, const std::string& src, const YAML::Mark& m, const scope& sc,
            const std::string& tpl) {
    std::string ctx = sc.instance;
    if (!tpl.empty()) ctx += std::string(ctx.empty() ? "" : ", ") + "template " + tpl;
    std::string path;  // list indexes as --set writes them, so that a diagnostic's path matches cheaply
    for (char c : out)
      if (c == '[') path += '.';
      else if (c != ']') path += c;
    o_.expansions.push_back({path, src, m, ctx, sc.instance_name});
  }

  // An error at `m`, naming the instance (through a note that lives as long as the report).
  void report(const YAML::Mark& m, const std::string& out, const std::string& src, const std::string& message,
              const scope& sc, const std::string& tpl) {
    note(out, src, m, sc, tpl);
    const std::size_t before = o_.sink->size();
    o_.report(m, out, message);
    o_.expansions.pop_back();
    // The same problem in every instance of a loop (a bad key in its body): said once.
    for (std::size_t i = 0; i + 1 < o_.sink->size() && o_.sink->size() > before; ++i) {
      const diagnostic &a = (*o_.sink)[i], &b = o_.sink->back();
      if (a.file == b.file && a.line == b.line && a.column == b.column && a.path == b.path && a.message == b.message) {
        o_.sink->pop_back();
        break;
      }
    }
  }

  // `use: NAME` in `l`: l without `use`, over the template's body (itself perhaps using one).
  void add_layers(const layer& l, std::vector<layer>& layers, scope& sc, const std::string& out) {
    layers.push_back(l);
    const YAML::Node use = l.node["use"];
    if (!use) return;
    const std::string at = join_path(out, "use"), src = join_path(l.path, "use");
    if (!use.IsScalar() || use.Scalar().empty())
      return report(use.Mark(), at, src, "expected the name of a template, found a non-string value", sc,
                    l.template_name);
    const std::string name = use.Scalar();
    const YAML::Node& all = templates_;  // const: reading must not add the name
    const bool known = all.IsMap() && all[name];
    const YAML::Node body = known ? all[name] : YAML::Node();
    if (!known || !body.IsMap()) {
      std::string names;
      if (templates_.IsMap())
        for (auto it = templates_.begin(); it != templates_.end(); ++it)
          names += (names.empty() ? "" : ", ") + it->first.Scalar();
      return report(use.Mark(), at, src,
                    !known ? "unknown template '" + name + "' (templates: " + (names.empty() ? "none" : names) + ")"
                          : "template '" + name + "' is not a mapping",
                    sc, l.template_name);
    }
    for (const auto& t : sc.templates)
      if (t == name) return report(use.Mark(), at, src, "template '" + name + "' uses itself", sc, name);
    if (sc.templates.size() >= static_cast<std::size_t>(max_template_depth))
      return report(use.Mark(), at, src, "templates nested too deeply", sc, name);
    sc.templates.push_back(name);
    add_layers({body, join_path("templates", name), name}, layers, sc, out);
  }

  // A mapping being built: its entries so far, and which came from loops.
  struct map_result {
    YAML::Node node;  ///< a mapping, made beside the document (yaml_memory.hpp)
    std::set<std::string> made, from_loops;
    bool has_loops = false;
  };

  // Keys in the order the lowest layer (the template) gives them, then the others'.
  static std::vector<std::string> ordered_keys(const std::vector<layer>& layers) {
    std::vector<std::string> keys;
    for (auto l = layers.rbegin(); l != layers.rend(); ++l)
      for (auto it = l->node.begin(); it != l->node.end(); ++it) {
        const std::string k = it->first.Scalar();
        if (k == "use") continue;
        bool seen = false;
        for (const auto& s : keys) seen = seen || s == k;
        if (!seen) keys.push_back(k);
      }
    return keys;
  }

  // An entry written beside a loop under the name of one of its instances changes that
  // instance (mappings merge key by key, the entry's values win); any other repeat is an error.
  // The key node as written keeps its line:column for errors about the key.
  void put(map_result& r, const std::string& out, const std::string& key, const YAML::Node& key_node,
           const YAML::Node& value, const std::string& tpl, const scope& s, bool from_loop) {
    if (!r.made.insert(key).second) {
      const bool other_from_loop = r.from_loops.count(key) > 0;
      if (other_from_loop && !from_loop && value.IsNull()) {  // `gpu7: null` beside the loop
        r.node.remove(key);
        return;
      }
      if (other_from_loop != from_loop && value.IsMap() && r.node[key].IsMap()) {
        const YAML::Node earlier = r.node[key];
        r.node[key] = from_loop ? merge_over(value, earlier) : merge_over(earlier, value);
        return;
      }
      return report(key_node.Mark(), join_path(out, key), "", "the key '" + key + "' is given twice (after expansion)",
                    s, tpl);
    }
    if (!from_loop && value.IsNull() && r.has_loops) {
      const std::string message =
          "'" + key + ": null' removes an instance of a loop, but no loop before it here makes '" + key + "'";
      // From a derived scenario (extends): said at its file:line:column, and not as a removed name.
      for (auto rm = o_.removals.begin(); rm != o_.removals.end(); ++rm)
        if (rm->key == key) {
          o_.sink->push_back({rm->file, rm->mark.line + 1, rm->mark.column + 1, join_path(out, key), message});
          o_.removals.erase(rm);
          return;
        }
      return report(key_node.Mark(), join_path(out, key), "", message, s, tpl);
    }
    if (from_loop) r.from_loops.insert(key);
    if (key_node.IsScalar() && key_node.Scalar() == key) r.node[key_node] = value;
    else r.node[key] = value;
  }

  // `for VAR in RANGE:` in a mapping: the body once per value, its entries spliced in here.
  void expand_loop(map_result& r, const std::string& out, const std::string& raw, const YAML::Node& key_node,
                   const layer& h, const scope& sc) {
    const YAML::Node value = h.node[raw];
    const std::string src = join_path(h.path, raw);
    loop lp;
    try {
      lp = parse_loop(raw);
    } catch (const std::runtime_error& e) {
      return report(key_node.Mark(), join_path(out, raw), src, e.what(), sc, h.template_name);
    }
    if (!value.IsMap())
      return report(value.Mark(), join_path(out, raw), src,
                    "a loop in a mapping holds the entries to repeat (a mapping), found " +
                        std::string(value.IsSequence() ? "a list" : "a plain value"),
                    sc, h.template_name);
    for (const auto& v : sc.vars)
      if (v.name == lp.var)
        return report(key_node.Mark(), join_path(out, raw), src,
                      "the loop variable '" + lp.var + "' is already used by an enclosing loop", sc, h.template_name);
    for (const auto& v : lp.values) {
      scope inner = sc;
      inner.substitute = true;
      inner.vars.push_back({lp.var, v});
      scope body_scope = inner;
      body_scope.instances = true;
      const YAML::Node body = map({{value, src, h.template_name}}, out, body_scope);
      for (auto it = body.begin(); it != body.end(); ++it)
        put(r, out, it->first.Scalar(), it->first, it->second, h.template_name, inner, true);
    }
  }

  // An ordinary key: substituted where needed; mappings merge key by key down the layers that
  // hold it (as with extends); anything else: the top one's value.
  void expand_entry(map_result& r, const std::string& out, const std::string& raw, const YAML::Node& key_node,
                    const std::vector<const layer*>& holders, const scope& sc, const scope& outer) {
    const layer& h = *holders.front();
    const YAML::Node value = h.node[raw];
    const std::string src = join_path(h.path, raw);
    std::string key = raw;
    if (sc.substitute) {
      try {
        key = substitute(raw, sc.vars);
      } catch (const std::runtime_error& e) {
        return report(key_node.Mark(), join_path(out, raw), src, e.what(), sc, h.template_name);
      }
    }
    scope child = sc;
    if (outer.instances) {
      child.instance = "in instance " + key + " of " + raw + " (" + sc.values() + ")";
      child.instance_name = key;
    }
    const std::string child_out = join_path(out, key);
    std::vector<layer> sub;
    for (const layer* l : holders) {
      const YAML::Node v = l->node[raw];
      if (!v.IsMap()) break;
      sub.push_back({v, join_path(l->path, raw), l->template_name});
    }
    if (sub.size() > 1 || (!sub.empty() && (child.substitute || needs_expansion(value))))
      put(r, out, key, key_node, map(sub, child_out, child), h.template_name, child, false);
    else
      put(r, out, key, key_node, node(value, src, child_out, child, h.template_name), h.template_name, child, false);
  }

  YAML::Node map(const std::vector<layer>& given, const std::string& out, const scope& outer) {
    if (++made_ > max_nodes) throw too_large{};
    scope sc = outer;
    sc.instances = false;
    std::vector<layer> layers;
    for (const auto& l : given) add_layers(l, layers, sc, out);
    if (layers.size() > given.size()) sc.substitute = true;  // a template's body is substituted
    const layer& top = layers.front();
    note(out, top.path, top.node.Mark(), sc, top.template_name);

    const std::vector<std::string> keys = ordered_keys(layers);
    map_result r;
    r.node = new_node_beside(memory_, YAML::NodeType::Map);
    for (const auto& k : keys) r.has_loops = r.has_loops || is_loop_key(k);
    r.node.SetStyle(top.node.Style());
    // A key that is not a name (`null:`, `~:`, a mapping as a key) has nothing to look up by.
    for (const auto& l : layers)
      for (auto it = l.node.begin(); it != l.node.end(); ++it)
        if (!it->first.IsScalar() || !l.node[it->first.Scalar()])
          report(it->first.Mark(), out, l.path, "expected a key that is a name, found a null or structured key", sc,
                 l.template_name);
    for (const auto& raw : keys) {
      // The layers that hold this key, highest priority first.
      std::vector<const layer*> holders;
      for (const auto& l : layers)
        if (l.node[raw]) holders.push_back(&l);
      if (holders.empty()) continue;  // not a name: reported above
      YAML::Node key_node;
      for (auto it = holders.front()->node.begin(); it != holders.front()->node.end(); ++it)
        if (it->first.Scalar() == raw) key_node = it->first;
      if (is_loop_key(raw)) expand_loop(r, out, raw, key_node, *holders.front(), sc);
      else expand_entry(r, out, raw, key_node, holders, sc, outer);
    }
    return r.node;
  }

  YAML::Node sequence(const YAML::Node& n, const std::string& src, const std::string& out, const scope& sc,
                      const std::string& tpl) {
    note(out, src, n.Mark(), sc, tpl);
    YAML::Node result = new_node_beside(memory_, YAML::NodeType::Sequence);
    result.SetStyle(n.Style());
    std::size_t i = 0, written = 0;
    for (const auto& item : n) {
      const std::string item_src = src + "[" + std::to_string(i++) + "]";
      if (!is_loop_item(item)) {
        result.push_back(node(item, item_src, out + "[" + std::to_string(written++) + "]", sc, tpl));
        continue;
      }
      const auto header = item.begin();
      const std::string raw = header->first.Scalar();
      loop lp;
      try {
        lp = parse_loop(raw);
      } catch (const std::runtime_error& e) {
        report(header->first.Mark(), out + "[" + std::to_string(written) + "]", item_src, e.what(), sc, tpl);
        continue;
      }
      for (const auto& v : lp.values) {
        scope inner = sc;
        inner.substitute = true;
        inner.vars.push_back({lp.var, v});
        inner.instance = "in item " + inner.values() + " of '" + raw + "'";
        inner.instance_name = inner.values();
        result.push_back(node(header->second, join_path(item_src, raw), out + "[" + std::to_string(written++) + "]",
                              inner, tpl));
      }
    }
    return result;
  }

  YAML::Node templates_;
  YAML::Node memory_;
  origin& o_;
  std::size_t made_ = 0;
};

std::vector<std::string> split_dots(const std::string& p) {
  std::vector<std::string> out(1);
  for (char c : p) {
    if (c == '.') out.emplace_back();
    else out.back() += c;
  }
  return out;
}

}  // namespace

bool is_template_path(const std::string& path) { return path.compare(0, 10, "templates.") == 0; }

bool apply_template_override(YAML::Node& root, const override_kv& kv, const origin& o) {
  auto fail = [&](const std::string& msg) {
    o.sink->push_back({"--set " + kv.path + "=" + kv.value, 0, 0, kv.path, msg});
    return false;
  };
  const auto segs = split_dots(kv.path);
  if (segs.size() < 3) return fail("expected templates.NAME.KEY, found '" + kv.path + "'");
  YAML::Node templates = root["templates"];
  if (!templates || !templates.IsMap() || !templates[segs[1]]) {
    std::string names;
    if (templates && templates.IsMap())
      for (auto it = templates.begin(); it != templates.end(); ++it) names += (names.empty() ? "" : ", ") + it->first.Scalar();
    return fail("unknown template '" + segs[1] + "' (templates: " + (names.empty() ? "none" : names) + ")");
  }
  YAML::Node value;
  try {
    value = YAML::Load(kv.value);
  } catch (const YAML::Exception& e) {
    return fail("value is not valid YAML: " + e.msg);
  }
  // No schema here: a template is checked where it is used, as each instance.
  YAML::Node cur = templates[segs[1]];
  std::string walked = "templates." + segs[1];
  for (std::size_t i = 2; i < segs.size(); ++i) {
    const std::string& seg = segs[i];
    if (seg.empty()) return fail("empty segment in key path");
    const bool last = i + 1 == segs.size();
    if (cur.IsSequence()) {
      if (seg.size() > 9 || seg.find_first_not_of("0123456789") != std::string::npos || std::stoul(seg) >= cur.size())
        return fail("'" + walked + "' is a list of " + std::to_string(cur.size()) + ": expected an index, found '" +
                    seg + "'");
      const std::size_t k = std::stoul(seg);
      if (last) {
        cur[k] = value;
        return true;
      }
      YAML::Node next = cur[k];
      cur.reset(next);
    } else {
      if (!cur.IsMap()) return fail("'" + walked + "' is a value and has no key '" + seg + "'");
      if (last) {
        cur[seg] = value;
        return true;
      }
      if (!cur[seg]) cur[seg] = YAML::Node(YAML::NodeType::Map);
      YAML::Node next = cur[seg];
      cur.reset(next);
    }
    walked += "." + seg;
  }
  return true;
}

YAML::Node expand_templates(const YAML::Node& root, origin& o) {
  if (!root.IsMap()) return root;
  const YAML::Node templates = root["templates"];
  if (templates && !templates.IsMap()) {
    o.report(templates, "templates", "expected a mapping of template names to mappings, found " +
                                         std::string(templates.IsSequence() ? "a list" : "a plain value"));
    return root;
  }
  // Most scenarios have neither templates nor loops: asked of the document itself first,
  // as building `rest` merges every top-level entry's memory into it (~4 % of the
  // instructions of `ptsim validate`). Nothing of `root` that `rest` lacks can need expansion.
  if (!templates && !expander::needs_expansion(root)) return root;
  YAML::Node rest = new_node_beside(root, YAML::NodeType::Map);
  for (auto it = root.begin(); it != root.end(); ++it)
    if (it->first.Scalar() != "templates") rest[it->first] = it->second;
  if (!templates && !expander::needs_expansion(rest)) return root;
  expander e(templates ? templates : YAML::Node(), rest, o);  // a missing key's node may not be read
  YAML::Node out;
  try {
    out = e.node(rest, "", "", scope{}, "");
  } catch (const too_large&) {
    o.report(root, "", "templates and loops expand to more than " + std::to_string(max_nodes) +
                           " values (a loop's range too wide?)");
    return root;
  }
  for (auto& n : o.expansions)  // `rest` is new: the document's own position, for errors at the top
    if (n.path.empty()) n.mark = root.Mark();
  return out;
}

}  // namespace ptsim::scenarios::detail
