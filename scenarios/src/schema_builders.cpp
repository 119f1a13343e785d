#include "ptsim/scenarios/schema.hpp"

#include <cstdio>

namespace ptsim::scenarios {

const field* schema_node::find(const std::string& key) const {
  for (const auto& f : fields)
    if (f.key == key) return &f;
  return nullptr;
}

std::vector<std::string> schema_node::keys() const {
  std::vector<std::string> k;
  for (const auto& f : fields) k.push_back(f.key);
  return k;
}

namespace {
std::shared_ptr<schema_node> make(node_type t, std::string doc, std::optional<std::string> def) {
  auto n = std::make_shared<schema_node>();
  n->type = t;
  n->doc = std::move(doc);
  n->default_value = std::move(def);
  return n;
}
}  // namespace

schema_ptr str(std::string doc, std::optional<std::string> def) { return make(node_type::string, std::move(doc), std::move(def)); }

schema_ptr enumeration(std::vector<std::string> choices, std::string doc, std::optional<std::string> def) {
  auto n = make(node_type::enumeration, std::move(doc), std::move(def));
  n->choices = std::move(choices);
  return n;
}

schema_ptr boolean(std::string doc, std::optional<std::string> def) { return make(node_type::boolean, std::move(doc), std::move(def)); }

schema_ptr integer(std::string doc, std::optional<std::string> def, std::optional<double> min, std::optional<double> max) {
  auto n = make(node_type::integer, std::move(doc), std::move(def));
  n->min = min;
  // Counts are held as 32-bit ints inside: a larger value must not wrap around.
  n->max = max ? max : std::optional<double>(2147483647.0);
  return n;
}

schema_ptr number(std::string doc, std::optional<std::string> def, std::optional<double> min, std::optional<double> max) {
  auto n = make(node_type::number, std::move(doc), std::move(def));
  n->min = min;
  n->max = max;
  return n;
}

schema_ptr quantity(dimension d, std::string doc, std::optional<std::string> def, std::optional<double> min,
                    bool min_exclusive) {
  auto n = make(node_type::quantity, std::move(doc), std::move(def));
  n->dim = d;
  n->min = min;
  n->min_exclusive = min_exclusive;
  // A temperature declared with quantity() is a difference (in K); points are temperature().
  n->absolute_temperature = false;
  return n;
}

schema_ptr temperature(std::string doc, std::optional<std::string> def) {
  auto n = make(node_type::quantity, std::move(doc), std::move(def));
  n->dim = dims::temperature();
  n->absolute_temperature = true;
  return n;
}

schema_ptr object(std::string doc, std::vector<field> fields) {
  auto n = make(node_type::object, std::move(doc), std::nullopt);
  n->fields = std::move(fields);
  return n;
}

schema_ptr map_of(schema_ptr element, std::string doc) {
  auto n = make(node_type::map_of, std::move(doc), std::nullopt);
  n->element = std::move(element);
  return n;
}

schema_ptr list_of(schema_ptr element, std::string doc) {
  auto n = make(node_type::list_of, std::move(doc), std::nullopt);
  n->element = std::move(element);
  return n;
}

schema_ptr variant(std::map<std::string, schema_ptr> kinds, std::string doc) {
  auto n = make(node_type::variant, std::move(doc), std::nullopt);
  n->variants = std::move(kinds);
  return n;
}

schema_ptr one_of(std::vector<schema_ptr> alternatives, std::string doc) {
  auto n = make(node_type::one_of, std::move(doc), std::nullopt);
  n->alternatives = std::move(alternatives);
  return n;
}

std::string format_value(const schema_node& s, double si) {
  char b[64];
  if (s.type == node_type::quantity && s.dim == dims::temperature() && s.absolute_temperature) {
    std::snprintf(b, sizeof b, "%g degC", si - 273.15);
    return b;
  }
  // Whole numbers below 1e10 in full (2147483647, 9200000), others short (1e+11, 0.001).
  if (si == static_cast<double>(static_cast<long long>(si)) && si > -1e10 && si < 1e10)
    std::snprintf(b, sizeof b, "%lld", static_cast<long long>(si));
  else
    std::snprintf(b, sizeof b, "%g", si);
  if (s.type == node_type::quantity) return std::string(b) + " " + unit_hint(s.dim, s.absolute_temperature);
  return b;
}

schema_ptr retiring(const schema_ptr& s, std::map<std::string, std::string> retired) {
  auto n = std::make_shared<schema_node>(*s);
  n->retired = std::move(retired);
  return n;
}

schema_ptr ranged(const schema_ptr& s, std::optional<double> min, std::optional<double> max,
                  std::optional<double> warn_min, std::optional<double> warn_max, std::string note) {
  auto n = std::make_shared<schema_node>(*s);
  if (min) {
    n->min = min;
    n->min_exclusive = false;
  }
  if (max) n->max = max;
  n->warn_min = warn_min;
  n->warn_max = warn_max;
  n->range_note = std::move(note);
  std::string r = " (accepted: ";
  if (n->min) r += (n->min_exclusive ? "> " : ">= ") + format_value(*n, *n->min);
  if (n->min && n->max) r += " and ";
  if (n->max) r += "<= " + format_value(*n, *n->max);
  if (n->warn_min && n->warn_max)
    r += "; a warning outside " + format_value(*n, *n->warn_min) + " .. " + format_value(*n, *n->warn_max);
  else if (n->warn_min)
    r += "; a warning below " + format_value(*n, *n->warn_min);
  else if (n->warn_max)
    r += "; a warning above " + format_value(*n, *n->warn_max);
  r += ")";
  n->doc += r;
  return n;
}

schema_ptr share(std::string doc, std::optional<std::string> def, double max) {
  auto n = make(node_type::number, std::move(doc), std::move(def));
  n->doc += " (accepted: > 0 and <= " + format_value(*n, max) + "; a warning below 0.001)";
  n->min = 0.0;
  n->min_exclusive = true;
  n->max = max;
  n->warn_min = 1e-3;
  return n;
}

field req(std::string key, schema_ptr s) { return field{std::move(key), std::move(s), true, {}}; }
field opt(std::string key, schema_ptr s) { return field{std::move(key), std::move(s), false, {}}; }

}  // namespace ptsim::scenarios
