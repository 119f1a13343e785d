#pragma once
// The scenario schema: one declaration of every key (type, unit, default, meaning).
// It validates files (unknown keys, types, units, ranges, with line:column), checks
// --set paths, and is printed as JSON schema by `ptsim schema`.
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "ptsim/scenarios/unit_parser.hpp"

namespace ptsim::scenarios {

struct schema_node;
using schema_ptr = std::shared_ptr<const schema_node>;

enum class node_type {
  object,      ///< fixed keys
  map_of,      ///< user-chosen keys, each an `element`
  list_of,     ///< sequence of `element`
  variant,     ///< object whose allowed keys depend on its `kind:` value
  string,
  enumeration,
  boolean,
  integer,
  number,      ///< plain dimensionless number
  quantity,    ///< string with a unit of `dim`
  one_of,      ///< a scalar alternative or a mapping alternative (`alternatives`)
};

struct field {
  std::string key;
  schema_ptr schema;
  bool required = false;
  std::string missing_note;  ///< said after "missing required key" (what a file without it is)
};

struct schema_node {
  node_type type = node_type::string;
  std::string doc;
  std::optional<std::string> default_value;  ///< as YAML scalar text
  // object
  std::vector<field> fields;
  // map_of, list_of
  schema_ptr element;
  // variant: kind -> object schema (each includes the "kind" field)
  std::map<std::string, schema_ptr> variants;
  // one_of: at most one scalar and one object alternative
  std::vector<schema_ptr> alternatives;
  // enumeration
  std::vector<std::string> choices;
  // quantity
  dimension dim;
  bool absolute_temperature = true;
  // numeric range (SI for quantities), inclusive unless *_exclusive
  std::optional<double> min, max;
  bool min_exclusive = false;
  /// Plausible range (SI): a value inside [min, max] but outside this one validates with a
  /// warning ("merely unusual"); outside [min, max] it is an error.
  std::optional<double> warn_min, warn_max;
  /// Why the accepted range ends where it does, added to range errors.
  std::string range_note;
  /// object: keys no longer accepted, each with how to write it now (the error's text).
  std::map<std::string, std::string> retired;

  const field* find(const std::string& key) const;
  std::vector<std::string> keys() const;
};

// Builders, so declarations read like a table.
schema_ptr str(std::string doc, std::optional<std::string> def = std::nullopt);
schema_ptr enumeration(std::vector<std::string> choices, std::string doc, std::optional<std::string> def = std::nullopt);
schema_ptr boolean(std::string doc, std::optional<std::string> def = std::nullopt);
schema_ptr integer(std::string doc, std::optional<std::string> def = std::nullopt, std::optional<double> min = std::nullopt,
                   std::optional<double> max = std::nullopt);
schema_ptr number(std::string doc, std::optional<std::string> def = std::nullopt, std::optional<double> min = std::nullopt,
                  std::optional<double> max = std::nullopt);
/// A quantity > 0 (strictly) unless `min` says otherwise.
schema_ptr quantity(dimension d, std::string doc, std::optional<std::string> def = std::nullopt,
                    std::optional<double> min = 0.0, bool min_exclusive = true);
schema_ptr temperature(std::string doc, std::optional<std::string> def = std::nullopt);
schema_ptr object(std::string doc, std::vector<field> fields);
schema_ptr map_of(schema_ptr element, std::string doc);
schema_ptr list_of(schema_ptr element, std::string doc);
schema_ptr variant(std::map<std::string, schema_ptr> kinds, std::string doc);
schema_ptr one_of(std::vector<schema_ptr> alternatives, std::string doc);
/// A copy of `s` with an accepted range [min, max] (errors outside) and a plausible range
/// [warn_min, warn_max] (warnings outside), SI units; the ranges are appended to its doc
/// with their unit, so `ptsim schema` and `ptsim list components` show them.
schema_ptr ranged(const schema_ptr& s, std::optional<double> min, std::optional<double> max,
                  std::optional<double> warn_min = std::nullopt, std::optional<double> warn_max = std::nullopt,
                  std::string note = "");
/// A share in (0, max] (max 1 unless a factor relative to a fitted value may exceed it): 0
/// would make the work take forever.
schema_ptr share(std::string doc, std::optional<std::string> def = std::nullopt, double max = 1.0);
/// How a value of `s` is written in messages and docs ("5 V", "-100 degC", "1e+06").
std::string format_value(const schema_node& s, double si);
/// A copy of object `s` that refuses `retired` keys (key -> how to write it now) with
/// that message instead of "unknown key", in files and in --set paths.
schema_ptr retiring(const schema_ptr& s, std::map<std::string, std::string> retired);
field req(std::string key, schema_ptr s);
field opt(std::string key, schema_ptr s);

/// The whole scenario schema (built once).
schema_ptr scenario_schema();

/// JSON Schema (draft 2020-12) of a schema tree.
std::string to_json_schema(const schema_ptr& root);

}  // namespace ptsim::scenarios
