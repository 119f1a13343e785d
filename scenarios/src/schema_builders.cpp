#include "ptsim/scenarios/schema.hpp"

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
  n->max = max;
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

field req(std::string key, schema_ptr s) { return field{std::move(key), std::move(s), true}; }
field opt(std::string key, schema_ptr s) { return field{std::move(key), std::move(s), false}; }

}  // namespace ptsim::scenarios
