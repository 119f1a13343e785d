// `ptsim schema`: the scenario schema as JSON Schema, for editors (YAML language servers).
#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <vector>

#include "ptsim/scenarios/schema.hpp"

namespace ptsim::scenarios {
namespace {

// Shortest text that reads back as the same double (ostream's default 6 digits would
// print 2147483647 as 2.14748e+09, a different bound).
std::string num(double v) {
  char b[40];
  for (int p = 1; p <= 17; ++p) {
    std::snprintf(b, sizeof b, "%.*g", p, v);
    if (std::strtod(b, nullptr) == v) break;
  }
  return b;
}

std::string quote(const std::string& s) {
  std::string o = "\"";
  for (char c : s) {
    switch (c) {
      case '"': o += "\\\""; break;
      case '\\': o += "\\\\"; break;
      case '\n': o += "\\n"; break;
      case '\t': o += "\\t"; break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {  // other control characters are not allowed raw in JSON
          const char* hex = "0123456789abcdef";
          o += "\\u00";
          o += hex[(c >> 4) & 0xF];
          o += hex[c & 0xF];
        } else {
          o += c;
        }
    }
  }
  return o + "\"";
}

// nullable: the value may also be null (a property: `key: null` removes an inherited key).
void emit(std::ostringstream& os, const schema_node& s, int indent, bool nullable = false);

// True when `v` can be written as it is: a JSON number for an integer or number node,
// true/false for a boolean one.
bool json_literal(const schema_node& s, const std::string& v) {
  if (s.type == node_type::boolean) return v == "true" || v == "false";
  if (s.type != node_type::integer && s.type != node_type::number) return false;
  // JSON number: -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][-+]?[0-9]+)?
  std::size_t i = 0;
  auto digits = [&] {
    std::size_t b = i;
    while (i < v.size() && v[i] >= '0' && v[i] <= '9') ++i;
    return i - b;
  };
  if (i < v.size() && v[i] == '-') ++i;
  if (i < v.size() && v[i] == '0') ++i;
  else if (digits() == 0) return false;
  if (i < v.size() && v[i] == '.') {
    ++i;
    if (digits() == 0) return false;
  }
  if (i < v.size() && (v[i] == 'e' || v[i] == 'E')) {
    ++i;
    if (i < v.size() && (v[i] == '+' || v[i] == '-')) ++i;
    if (digits() == 0) return false;
  }
  return i == v.size();
}

void pad(std::ostringstream& os, int n) { os << std::string(static_cast<std::size_t>(n), ' '); }

// The scenario's own mapping: it also takes `templates:`, which is expanded (and dropped)
// before validation, so the validating schema never sees it.
const schema_node* scenario_top = nullptr;
/// The item schemas of lists, written once under $defs (an element may hold lists of its own).
std::vector<std::string> item_defs;

void emit_templates_property(std::ostringstream& os, int in) {
  pad(os, in); os << "\"templates\": {\n";
  pad(os, in + 2);
  os << "\"description\": " << quote("named mappings that `use: NAME` in any mapping puts under its own keys; with "
                                     "`for VAR in A..B:` / `for VAR in [a, b]:` keys (entries, or list items, once per "
                                     "value) and `{EXPR}` substitution, expanded before validation (README, Templates "
                                     "and loops)") << ",\n";
  pad(os, in + 2); os << "\"type\": \"object\",\n";
  pad(os, in + 2); os << "\"additionalProperties\": { \"type\": \"object\" }\n";
  pad(os, in); os << "}";
}

// What template expansion reads in any mapping, before validation: `use: NAME` and
// `for VAR in ...:` keys (README, Templates and loops).
void emit_use_property(std::ostringstream& os, int in) {
  pad(os, in);
  os << "\"use\": { \"type\": \"string\", \"minLength\": 1, \"description\": "
     << quote("a template (top-level `templates:`) put under this mapping's own keys") << " }";
}
void emit_loop_keys(std::ostringstream& os, int in) {
  pad(os, in);
  os << "\"patternProperties\": { \"^for \": { \"type\": \"object\", \"description\": "
     << quote("`for VAR in A..B:` or `for VAR in [a, b]:`: these entries once per value") << " } },\n";
}
// A list item `- for VAR in ...: ITEM` (the item once per value).
void emit_loop_item(std::ostringstream& os, int in) {
  pad(os, in);
  os << "{ \"type\": \"object\", \"minProperties\": 1, \"maxProperties\": 1, \"additionalProperties\": false, "
        "\"patternProperties\": { \"^for \": {} }, \"description\": "
     << quote("`- for VAR in A..B: ITEM`: the item once per value") << " }";
}

// "type": "T", or ["T", "null"]: properties, patterns and bounds apply to T's values only,
// so a null passes them and every other check keeps its place in an editor's report.
std::string type_of(const char* t, bool nullable) {
  return nullable ? std::string("[\"") + t + "\", \"null\"]" : std::string("\"") + t + "\"";
}

void emit_object_body(std::ostringstream& os, const schema_node& s, int in, const std::string* kind_const,
                      bool nullable = false) {
  pad(os, in); os << "\"type\": " << type_of("object", nullable) << ",\n";
  pad(os, in); os << "\"additionalProperties\": false,\n";
  emit_loop_keys(os, in);
  pad(os, in); os << "\"properties\": {\n";
  for (std::size_t i = 0; i < s.fields.size(); ++i) {
    const auto& f = s.fields[i];
    pad(os, in + 2); os << quote(f.key) << ": ";
    if (kind_const && f.key == "kind") {
      os << "{ \"const\": " << quote(*kind_const) << " }";
    } else {
      // A property may be null: a scenario that extends another removes an inherited key
      // with `key: null` (one file does not say whether it extends another; `ptsim
      // validate` refuses a null where nothing is inherited).
      os << "{\n";
      emit(os, *f.schema, in + 4, true);
      os << "\n"; pad(os, in + 2); os << "}";
    }
    os << ",\n";
  }
  if (&s == scenario_top) {
    emit_templates_property(os, in + 2);
    os << ",\n";
  }
  emit_use_property(os, in + 2);
  os << "\n";
  pad(os, in); os << "}";
  // No "required": a file is often a part of a scenario (a preset without a workload, a
  // derived scenario that changes one key of a component, a mapping that takes its keys
  // from a template, an entry beside a loop); `ptsim validate` checks what the whole
  // scenario lacks. Names, types, choices and units are checked here.
}

void emit(std::ostringstream& os, const schema_node& s, int in, bool nullable) {
  pad(os, in); os << "\"description\": " << quote(s.doc);
  if (s.default_value) {
    os << ",\n"; pad(os, in);
    // Numbers and booleans as JSON numbers and booleans, so that the default has the declared type.
    os << "\"default\": " << (json_literal(s, *s.default_value) ? *s.default_value : quote(*s.default_value));
  }
  os << ",\n";
  switch (s.type) {
    case node_type::object: emit_object_body(os, s, in, nullptr, nullable); break;
    case node_type::variant: {
      // anyOf, not oneOf: a mapping that takes its `kind` from a template (`use:`) names no
      // kind and may match several variants; with a kind, its const matches one only.
      pad(os, in); os << "\"anyOf\": [\n";
      if (nullable) { pad(os, in + 2); os << "{ \"type\": \"null\" },\n"; }
      std::size_t i = 0;
      for (const auto& [kind, obj] : s.variants) {
        pad(os, in + 2); os << "{\n";
        pad(os, in + 4); os << "\"description\": " << quote(obj->doc) << ",\n";
        emit_object_body(os, *obj, in + 4, &kind);
        os << "\n"; pad(os, in + 2); os << "}" << (++i < s.variants.size() ? ",\n" : "\n");
      }
      pad(os, in); os << "]";
      break;
    }
    case node_type::map_of:
      // An entry may be null: a derived scenario removes an inherited one (`nvme1: null`).
      pad(os, in); os << "\"type\": " << type_of("object", nullable) << ",\n";
      emit_loop_keys(os, in);
      pad(os, in); os << "\"additionalProperties\": { \"anyOf\": [ { \"type\": \"null\" }, {\n";
      emit(os, *s.element, in + 2);
      os << "\n"; pad(os, in); os << "} ] }";
      break;
    case node_type::list_of: {
      // A list, or in a derived scenario a mapping of item numbers that patches the inherited
      // list's items (`opps: { 4: { volt: ... } }`, README "Scenario inheritance"). The item
      // schema is written once, in $defs, and both forms refer to it.
      const std::size_t index = item_defs.size();
      const std::string ref = "#/$defs/item" + std::to_string(index);
      item_defs.emplace_back();  // its place first: the element's own lists come after it
      std::ostringstream def;
      emit(def, *s.element, 6);
      item_defs[index] = def.str();
      pad(os, in); os << "\"anyOf\": [ {\n";
      pad(os, in + 2); os << "\"type\": " << type_of("array", nullable) << ",\n";
      pad(os, in + 2); os << "\"items\": { \"anyOf\": [\n";
      emit_loop_item(os, in + 4);
      os << ",\n"; pad(os, in + 4); os << "{ \"$ref\": " << quote(ref) << " } ] }\n";
      pad(os, in); os << "}, {\n";
      pad(os, in + 2); os << "\"type\": \"object\", \"minProperties\": 1,\n";
      pad(os, in + 2); os << "\"propertyNames\": { \"pattern\": \"^[0-9]{1,9}$\" },\n";
      pad(os, in + 2); os << "\"additionalProperties\": { \"$ref\": " << quote(ref) << " }\n";
      pad(os, in); os << "} ]";
      break;
    }
    case node_type::one_of:
      pad(os, in); os << "\"oneOf\": [\n";
      if (nullable) { pad(os, in + 2); os << "{ \"type\": \"null\" },\n"; }
      for (std::size_t i = 0; i < s.alternatives.size(); ++i) {
        pad(os, in + 2); os << "{\n";
        emit(os, *s.alternatives[i], in + 4);
        os << "\n"; pad(os, in + 2); os << "}" << (i + 1 < s.alternatives.size() ? ",\n" : "\n");
      }
      pad(os, in); os << "]";
      break;
    case node_type::string: pad(os, in); os << "\"type\": " << type_of("string", nullable) << ", \"minLength\": 1"; break;
    case node_type::enumeration:
      pad(os, in); os << "\"enum\": [";
      for (std::size_t i = 0; i < s.choices.size(); ++i) os << (i ? ", " : "") << quote(s.choices[i]);
      os << (nullable ? ", null]" : "]");
      break;
    case node_type::boolean: pad(os, in); os << "\"type\": " << type_of("boolean", nullable); break;
    case node_type::integer:
    case node_type::number:
      pad(os, in); os << "\"type\": " << type_of(s.type == node_type::integer ? "integer" : "number", nullable);
      if (s.min) os << ", \"" << (s.min_exclusive ? "exclusiveMinimum" : "minimum") << "\": " << num(*s.min);
      if (s.max) os << ", \"maximum\": " << num(*s.max);
      break;
    case node_type::quantity:
      pad(os, in); os << "\"type\": " << type_of("string", nullable) << ",\n";
      pad(os, in); os << "\"x-ptsim-unit\": " << quote(unit_hint(s.dim, s.absolute_temperature)) << ",\n";
      pad(os, in); os << "\"pattern\": " << quote("^\\s*[-+]?[0-9.]+([eE][-+]?[0-9]+)?\\s*\\S.*$");
      break;
  }
}

}  // namespace

std::string to_json_schema(const schema_ptr& root) {
  std::ostringstream os;
  os << "{\n  \"$schema\": \"https://json-schema.org/draft/2020-12/schema\",\n  \"title\": \"ptsim scenario\",\n";
  scenario_top = root.get();
  item_defs.clear();
  emit(os, *root, 2);
  scenario_top = nullptr;
  os << ",\n  \"$defs\": {";
  for (std::size_t i = 0; i < item_defs.size(); ++i)
    os << (i ? "," : "") << "\n    \"item" << i << "\": {\n" << item_defs[i] << "\n    }";
  os << "\n  }\n}\n";
  item_defs.clear();
  return os.str();
}

}  // namespace ptsim::scenarios
