// `ptsim schema`: the scenario schema as JSON Schema. A small JSON reader checks that the
// text is well-formed and that it describes the scenario (the ctest 'scenarios_schema_json'
// also runs it through Python's json module).
#include <doctest/doctest.h>

#include <algorithm>
#include <cctype>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "helpers.hpp"
#include "ptsim/scenarios/schema.hpp"

namespace ps = ptsim::scenarios;

namespace {

struct json {
  enum kind_t { null, boolean, number, string, array, object } kind = null;
  bool b = false;
  double num = 0;
  std::string str;
  std::vector<json> items;
  std::vector<std::pair<std::string, json>> members;  // in order, duplicates kept (and checked)

  const json& operator[](const std::string& key) const {
    for (const auto& [k, v] : members)
      if (k == key) return v;
    throw std::out_of_range("no member '" + key + "'");
  }
  bool has(const std::string& key) const {
    for (const auto& m : members)
      if (m.first == key) return true;
    return false;
  }
};

// Strict RFC 8259 reader; throws std::runtime_error with the offset of the first problem.
class json_reader {
 public:
  explicit json_reader(const std::string& s) : s_(s) {}
  json parse() {
    json v = value();
    ws();
    if (i_ != s_.size()) fail("trailing text");
    return v;
  }

 private:
  [[noreturn]] void fail(const std::string& why) {
    throw std::runtime_error("JSON: " + why + " at offset " + std::to_string(i_));
  }
  void ws() {
    while (i_ < s_.size() && (s_[i_] == ' ' || s_[i_] == '\n' || s_[i_] == '\t' || s_[i_] == '\r')) ++i_;
  }
  void expect(char c) {
    ws();
    if (i_ >= s_.size() || s_[i_] != c) fail(std::string("expected '") + c + "'");
    ++i_;
  }
  bool literal(const char* w) {
    std::string lit(w);
    if (s_.compare(i_, lit.size(), lit) == 0) return i_ += lit.size(), true;
    return false;
  }
  json value() {
    ws();
    if (i_ >= s_.size()) fail("unexpected end");
    json v;
    char c = s_[i_];
    if (c == '{') {
      v.kind = json::object;
      ++i_;
      ws();
      if (s_[i_] == '}') return ++i_, v;
      for (;;) {
        ws();
        std::string k = string_lit();
        for (const auto& m : v.members)
          if (m.first == k) fail("duplicate key '" + k + "'");
        expect(':');
        v.members.emplace_back(k, value());
        ws();
        if (i_ < s_.size() && s_[i_] == ',') { ++i_; continue; }
        expect('}');
        return v;
      }
    }
    if (c == '[') {
      v.kind = json::array;
      ++i_;
      ws();
      if (s_[i_] == ']') return ++i_, v;
      for (;;) {
        v.items.push_back(value());
        ws();
        if (i_ < s_.size() && s_[i_] == ',') { ++i_; continue; }
        expect(']');
        return v;
      }
    }
    if (c == '"') {
      v.kind = json::string;
      v.str = string_lit();
      return v;
    }
    if (literal("true")) { v.kind = json::boolean; v.b = true; return v; }
    if (literal("false")) { v.kind = json::boolean; return v; }
    if (literal("null")) return v;
    // number: -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][-+]?[0-9]+)?
    std::size_t start = i_;
    if (s_[i_] == '-') ++i_;
    auto digits = [&] {
      std::size_t d = i_;
      while (i_ < s_.size() && std::isdigit(static_cast<unsigned char>(s_[i_]))) ++i_;
      return i_ - d;
    };
    if (i_ < s_.size() && s_[i_] == '0') ++i_;
    else if (digits() == 0) fail("expected a value");
    if (i_ < s_.size() && s_[i_] == '.') { ++i_; if (digits() == 0) fail("digits after '.'"); }
    if (i_ < s_.size() && (s_[i_] == 'e' || s_[i_] == 'E')) {
      ++i_;
      if (i_ < s_.size() && (s_[i_] == '+' || s_[i_] == '-')) ++i_;
      if (digits() == 0) fail("digits in exponent");
    }
    v.kind = json::number;
    v.num = std::stod(s_.substr(start, i_ - start));
    return v;
  }
  std::string string_lit() {
    if (i_ >= s_.size() || s_[i_] != '"') fail("expected a string");
    ++i_;
    std::string out;
    while (i_ < s_.size() && s_[i_] != '"') {
      unsigned char c = static_cast<unsigned char>(s_[i_]);
      if (c < 0x20) fail("control character in string");
      if (c == '\\') {
        ++i_;
        if (i_ >= s_.size()) fail("unterminated escape");
        char e = s_[i_];
        if (e == 'u') {
          for (int k = 1; k <= 4; ++k)
            if (i_ + k >= s_.size() || !std::isxdigit(static_cast<unsigned char>(s_[i_ + k]))) fail("bad \\u escape");
          i_ += 4;
          out += '?';
        } else if (std::string("\"\\/bfnrt").find(e) != std::string::npos) {
          out += e == 'n' ? '\n' : e == 't' ? '\t' : e;
        } else {
          fail(std::string("bad escape \\") + e);
        }
        ++i_;
      } else {
        out += s_[i_++];
      }
    }
    if (i_ >= s_.size()) fail("unterminated string");
    ++i_;
    return out;
  }
  const std::string& s_;
  std::size_t i_ = 0;
};

json schema_json() {
  static const std::string text = ps::to_json_schema(ps::scenario_schema());
  return json_reader(text).parse();
}

bool has_string(const json& arr, const std::string& s) {
  for (const auto& v : arr.items)
    if (v.kind == json::string && v.str == s) return true;
  return false;
}

}  // namespace

TEST_CASE("the JSON reader used here rejects what it should") {
  CHECK_NOTHROW(json_reader(R"({"a": [1, -2.5e3, true, null, "x\"y"]})").parse());
  CHECK_THROWS(json_reader(R"({"a": 1,})").parse());
  CHECK_THROWS(json_reader(R"({"a": 1} x)").parse());
  CHECK_THROWS(json_reader(R"({"a": "\q"})").parse());
  CHECK_THROWS(json_reader("{\"a\": \"tab\there\"}").parse());
  CHECK_THROWS(json_reader(R"({"a": 1, "a": 2})").parse());
  CHECK_THROWS(json_reader(R"({"a": 01})").parse());
}

TEST_CASE("the JSON schema is well-formed JSON describing the scenario") {
  json root;
  REQUIRE_NOTHROW(root = schema_json());
  REQUIRE(root.kind == json::object);
  CHECK(root["$schema"].str == "https://json-schema.org/draft/2020-12/schema");
  CHECK(root["type"].str == "object");
  CHECK(root["additionalProperties"].kind == json::boolean);
  CHECK_FALSE(root["additionalProperties"].b);  // unknown keys are errors
  const json& props = root["properties"];
  for (const char* k : {"name", "duration", "control_period", "record_period", "seed", "platform", "workload",
                        "thermal", "policy"})
    CHECK_MESSAGE(props.has(k), k);
  // No required keys: a file may be a part of a scenario (a preset, a derived scenario).
  CHECK_FALSE(root.has("required"));
  // What template expansion reads: `templates` at the top, `use` and `for ...` keys anywhere.
  CHECK(props.has("templates"));
  CHECK(props["use"]["type"].str == "string");
  CHECK(root["patternProperties"].has("^for "));
}

TEST_CASE("the JSON schema's details") {
  const json root = schema_json();
  const json& props = root["properties"];
  // Quantities are strings with a unit hint. Every property may also be null: a derived
  // scenario removes an inherited key with `key: null`.
  const auto type_is = [](const json& t, const std::string& name) {
    return t.items.size() == 2 && t.items[0].str == name && t.items[1].str == "null";
  };
  CHECK(type_is(props["duration"]["type"], "string"));
  CHECK(props["duration"]["x-ptsim-unit"].str == "s");
  CHECK(props["control_period"]["default"].str == "1 ms");
  // Integers and numbers carry numeric defaults, not strings.
  CHECK(type_is(props["seed"]["type"], "integer"));
  CHECK(props["seed"]["default"].kind == json::number);
  CHECK(props["seed"]["default"].num == 1.0);
  CHECK(props["seed"]["minimum"].num == 0.0);
  // Governors are an enumeration of the registered ones.
  const json& gov = props["policy"]["properties"]["governor"];
  for (const char* g : {"schedutil", "performance", "powersave", "ondemand", "conservative"})
    CHECK_MESSAGE(has_string(gov["enum"], g), g);
  CHECK(gov["default"].str == "schedutil");
  // Components: one alternative per kind, each pinned by a const kind.
  // (An entry is null, to remove an inherited one, or a component.)
  const json& entry = props["platform"]["properties"]["components"]["additionalProperties"]["anyOf"];
  REQUIRE(entry.items.size() == 2);
  CHECK(entry.items[0]["type"].str == "null");
  const json& comp = entry.items[1];
  std::vector<std::string> kinds;
  for (const auto& alt : comp["anyOf"].items) kinds.push_back(alt["properties"]["kind"]["const"].str);
  // Exactly the kinds the schema declares, in its (sorted) order...
  const auto& declared = ps::scenario_schema()->find("platform")->schema->find("components")->schema->element->variants;
  std::vector<std::string> expected;
  for (const auto& [kind, alt] : declared) expected.push_back(kind);
  CHECK(kinds == expected);
  // ...which cover every family of component the platforms are built from.
  for (const char* k : {"cpu_cluster", "npu", "gpu", "noc", "pcie", "nvlink", "switch", "lpddr5x", "ddr5", "hbm", "nvme", "nic"})
    CHECK_MESSAGE(std::find(kinds.begin(), kinds.end(), k) != kinds.end(), k);
  // Temperatures: points in degC, differences in K.
  const json& thermal = props["policy"]["properties"]["thermal"]["properties"];
  CHECK(thermal["control_temp"]["x-ptsim-unit"].str == "degC");
  CHECK(thermal["hysteresis"]["x-ptsim-unit"].str == "K");
}
