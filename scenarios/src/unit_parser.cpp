#include "ptsim/scenarios/unit_parser.hpp"

#include <cctype>
#include <cmath>
#include <cstdlib>
#include <map>
#include <sstream>
#include <utility>
#include <vector>

#include "ptsim/text/trim.hpp"

namespace ptsim::scenarios {
namespace {

enum base { M, KG, S, A, K, BYTE };

dimension make(std::initializer_list<std::pair<base, int>> parts) {
  dimension d;
  for (auto [b, e] : parts) d.exp[b] += e;
  return d;
}

dimension combine(const dimension& a, const dimension& b, int sign) {
  dimension d = a;
  for (std::size_t i = 0; i < d.exp.size(); ++i) d.exp[i] += sign * b.exp[i];
  return d;
}

struct unit_def {
  double scale;
  dimension dim;
};

// Base symbols that take SI prefixes.
const std::map<std::string, unit_def>& prefixable() {
  static const std::map<std::string, unit_def> m = {
      {"m", {1, make({{M, 1}})}},
      {"g", {1e-3, make({{KG, 1}})}},
      {"s", {1, make({{S, 1}})}},
      {"A", {1, make({{A, 1}})}},
      {"K", {1, make({{K, 1}})}},
      {"B", {1, make({{BYTE, 1}})}},
      {"Hz", {1, make({{S, -1}})}},
      {"W", {1, make({{KG, 1}, {M, 2}, {S, -3}})}},
      {"J", {1, make({{KG, 1}, {M, 2}, {S, -2}})}},
      {"V", {1, make({{KG, 1}, {M, 2}, {S, -3}, {A, -1}})}},
      {"F", {1, make({{KG, -1}, {M, -2}, {S, 4}, {A, 2}})}},
      {"N", {1, make({{KG, 1}, {M, 1}, {S, -2}})}},
      {"FLOP", {1, dimension{}}},
      {"op", {1, dimension{}}},
      {"ops", {1, dimension{}}},
  };
  return m;
}

// Symbols that take no prefix.
const std::map<std::string, unit_def>& plain() {
  static const std::map<std::string, unit_def> m = {
      {"min", {60, make({{S, 1}})}},
      {"h", {3600, make({{S, 1}})}},
      {"KiB", {1024.0, make({{BYTE, 1}})}},
      {"MiB", {1024.0 * 1024, make({{BYTE, 1}})}},
      {"GiB", {1024.0 * 1024 * 1024, make({{BYTE, 1}})}},
      {"TiB", {1024.0 * 1024 * 1024 * 1024, make({{BYTE, 1}})}},
      {"%", {0.01, dimension{}}},
      {"1", {1, dimension{}}},
  };
  return m;
}

const std::map<std::string, double>& prefixes() {
  static const std::map<std::string, double> m = {
      {"P", 1e15}, {"T", 1e12}, {"G", 1e9}, {"M", 1e6}, {"k", 1e3},  {"c", 1e-2},
      {"m", 1e-3}, {"u", 1e-6}, {"\xC2\xB5", 1e-6}, {"n", 1e-9}, {"p", 1e-12}, {"f", 1e-15}};
  return m;
}

bool lookup_symbol(const std::string& sym, unit_def& out) {
  if (auto it = plain().find(sym); it != plain().end()) return out = it->second, true;
  if (auto it = prefixable().find(sym); it != prefixable().end()) return out = it->second, true;
  for (const auto& [p, f] : prefixes()) {
    if (sym.size() > p.size() && sym.compare(0, p.size(), p) == 0) {
      if (auto it = prefixable().find(sym.substr(p.size())); it != prefixable().end()) {
        out = {f * it->second.scale, it->second.dim};
        return true;
      }
    }
  }
  return false;
}

// Recursive-descent parser of unit expressions: term (('*'|'/') term)*, term = symbol['^'int] | '(' expr ')'.
class unit_expr_parser {
 public:
  explicit unit_expr_parser(const std::string& s) : s_(s) {}
  unit_def parse() {
    unit_def u = expr();
    skip_ws();
    if (pos_ != s_.size()) fail("unexpected '" + s_.substr(pos_) + "'");
    return u;
  }

 private:
  unit_def expr() {
    unit_def u = term();
    for (;;) {
      skip_ws();
      if (pos_ >= s_.size()) return u;
      char c = s_[pos_];
      int sign;
      if (c == '*' || c == '.') sign = 1;
      else if (c == '/') sign = -1;
      else if (s_.compare(pos_, 2, "\xC2\xB7") == 0) { sign = 1; ++pos_; }
      else return u;
      ++pos_;
      unit_def r = term();
      u.scale = sign > 0 ? u.scale * r.scale : u.scale / r.scale;
      u.dim = combine(u.dim, r.dim, sign);
    }
  }
  unit_def term() {
    skip_ws();
    unit_def u;
    if (pos_ < s_.size() && s_[pos_] == '(') {
      ++pos_;
      u = expr();
      skip_ws();
      if (pos_ >= s_.size() || s_[pos_] != ')') fail("missing ')'");
      ++pos_;
    } else {
      std::size_t start = pos_;
      while (pos_ < s_.size() && (std::isalpha(static_cast<unsigned char>(s_[pos_])) || s_[pos_] == '%' ||
                                  static_cast<unsigned char>(s_[pos_]) >= 0x80 ||
                                  (pos_ == start && s_[pos_] == '1')))
        ++pos_;
      std::string sym = s_.substr(start, pos_ - start);
      if (sym.empty()) fail("expected a unit symbol");
      if (!lookup_symbol(sym, u)) fail("unknown unit '" + sym + "'");
    }
    skip_ws();
    if (pos_ < s_.size() && s_[pos_] == '^') {
      ++pos_;
      std::size_t used = 0;
      int e = 0;
      try {
        e = std::stoi(s_.substr(pos_), &used);
      } catch (const std::exception&) {
        fail("expected an integer exponent after '^'");
      }
      pos_ += used;
      // No physical unit needs more; bounded so that nested powers cannot overflow.
      constexpr int max_exponent = 64;
      if (e < -max_exponent || e > max_exponent)
        fail("exponent " + std::to_string(e) + " is out of range (-64 to 64)");
      u.scale = std::pow(u.scale, e);
      for (auto& x : u.dim.exp) {
        const long long p = static_cast<long long>(x) * e;
        if (p < -max_exponent || p > max_exponent) fail("a dimension's exponent goes out of range (-64 to 64)");
        x = static_cast<int>(p);
      }
    }
    return u;
  }
  void skip_ws() {
    while (pos_ < s_.size() && s_[pos_] == ' ') ++pos_;
  }
  [[noreturn]] void fail(const std::string& why) { throw unit_error("bad unit '" + s_ + "': " + why); }
  const std::string& s_;
  std::size_t pos_ = 0;
};

}  // namespace

namespace dims {
dimension none() { return {}; }
dimension time() { return make({{S, 1}}); }
dimension frequency() { return make({{S, -1}}); }
dimension power() { return make({{KG, 1}, {M, 2}, {S, -3}}); }
dimension energy() { return make({{KG, 1}, {M, 2}, {S, -2}}); }
dimension voltage() { return make({{KG, 1}, {M, 2}, {S, -3}, {A, -1}}); }
dimension capacitance() { return make({{KG, -1}, {M, -2}, {S, 4}, {A, 2}}); }
dimension temperature() { return make({{K, 1}}); }
dimension length() { return make({{M, 1}}); }
dimension area() { return make({{M, 2}}); }
dimension bytes() { return make({{BYTE, 1}}); }
dimension bandwidth() { return make({{BYTE, 1}, {S, -1}}); }
dimension thermal_conductivity() { return make({{KG, 1}, {M, 1}, {S, -3}, {K, -1}}); }
dimension volumetric_heat_capacity() { return make({{KG, 1}, {M, -1}, {S, -2}, {K, -1}}); }
dimension thermal_resistance() { return make({{KG, -1}, {M, -2}, {S, 3}, {K, 1}}); }
dimension heat_capacity() { return make({{KG, 1}, {M, 2}, {S, -2}, {K, -1}}); }
dimension energy_per_byte() { return make({{KG, 1}, {M, 2}, {S, -2}, {BYTE, -1}}); }
dimension heat_transfer_coefficient() { return make({{KG, 1}, {S, -3}, {K, -1}}); }
dimension volume_flow() { return make({{M, 3}, {S, -1}}); }
}  // namespace dims

namespace {
const std::vector<std::pair<dimension, std::pair<std::string, std::string>>>& named_dims() {
  static const std::vector<std::pair<dimension, std::pair<std::string, std::string>>> v = {
      {dims::none(), {"dimensionless", "1"}},
      {dims::time(), {"time", "s"}},
      {dims::frequency(), {"frequency", "Hz"}},
      {dims::power(), {"power", "W"}},
      {dims::energy(), {"energy", "J"}},
      {dims::voltage(), {"voltage", "V"}},
      {dims::capacitance(), {"capacitance", "F"}},
      {dims::temperature(), {"temperature", "degC"}},
      {dims::length(), {"length", "m"}},
      {dims::area(), {"area", "m^2"}},
      {dims::bytes(), {"data size", "B"}},
      {dims::bandwidth(), {"bandwidth", "B/s"}},
      {dims::thermal_conductivity(), {"thermal conductivity", "W/(m*K)"}},
      {dims::volumetric_heat_capacity(), {"volumetric heat capacity", "J/(m^3*K)"}},
      {dims::thermal_resistance(), {"thermal resistance", "K/W"}},
      {dims::heat_capacity(), {"heat capacity", "J/K"}},
      {dims::energy_per_byte(), {"energy per byte", "J/B"}},
      {dims::heat_transfer_coefficient(), {"heat transfer coefficient", "W/(m^2*K)"}},
      {dims::volume_flow(), {"volume flow", "m^3/s"}},
  };
  return v;
}
}  // namespace

std::string dimension::describe() const {
  for (const auto& [d, n] : named_dims())
    if (d == *this) return n.first + " (" + n.second + ")";
  static const char* names[] = {"m", "kg", "s", "A", "K", "B"};
  std::ostringstream os;
  bool first = true;
  for (std::size_t i = 0; i < exp.size(); ++i) {
    if (exp[i] == 0) continue;
    os << (first ? "" : "*") << names[i];
    if (exp[i] != 1) os << '^' << exp[i];
    first = false;
  }
  return os.str();
}

std::string unit_hint(const dimension& d, bool absolute_temperature) {
  if (d == dims::temperature() && !absolute_temperature) return "K";
  for (const auto& [dd, n] : named_dims())
    if (dd == d) return n.second;
  return d.describe();
}

parsed_quantity parse_quantity(const std::string& raw) {
  const std::string text = text::trim(raw);
  if (text.empty()) throw unit_error("expected a number with a unit, found an empty string");
  const char* begin = text.c_str();
  char* end = nullptr;
  double v = std::strtod(begin, &end);
  if (end == begin) throw unit_error("expected a number with a unit, found '" + text + "'");
  std::string unit = text::trim(std::string(end));
  // strtod accepts "nan"/"inf"; a physical quantity must be finite.
  if (!std::isfinite(v)) throw unit_error("expected a finite number, found '" + text + "'");
  parsed_quantity q;
  if (unit.empty()) {
    q.value_si = v;
    return q;
  }
  if (unit == "degC" || unit == "\xC2\xB0" "C" || unit == "C") {
    if (unit == "C") throw unit_error("ambiguous unit 'C' in '" + text + "': write degC for degrees Celsius");
    q.value_si = v + 273.15;
    q.dim = dims::temperature();
    q.celsius = true;
    return q;
  }
  // A scenario writes a few units many times ("MHz" and "mV" in every OPP row): each
  // parsed once per thread (parsing them each time was ~3 % of `ptsim validate`). Only
  // units that parsed are kept; a bad one throws each time.
  thread_local std::vector<std::pair<std::string, unit_def>> known;
  const unit_def* found = nullptr;
  for (const auto& [text_of, def] : known)
    if (text_of == unit) found = &def;
  if (!found) {
    constexpr std::size_t max_known = 64;  // bounded: a sweep may write many spellings
    if (known.size() == max_known) known.erase(known.begin());
    known.emplace_back(unit, unit_expr_parser(unit).parse());
    found = &known.back().second;
  }
  const unit_def u = *found;
  q.value_si = v * u.scale;
  q.dim = u.dim;
  return q;
}

double parse_si(const std::string& text, const dimension& expected, bool absolute_temperature) {
  parsed_quantity q = parse_quantity(text);
  if (q.dim != expected) {
    const bool difference = expected == dims::temperature() && !absolute_temperature;
    const std::string what = difference ? "temperature difference (K)" : expected.describe();
    bool bare = q.dim == dims::none() && text.find_first_not_of("0123456789.eE+- ") == std::string::npos;
    if (bare && expected != dims::none())
      throw unit_error("expected " + what + " with a unit, e.g. \"" + "1 " + unit_hint(expected, absolute_temperature) +
                       "\", found '" + text + "' without a unit");
    throw unit_error("expected " + what + ", found '" + text + "' which is " + q.dim.describe());
  }
  if (expected == dims::temperature()) {
    if (!absolute_temperature && q.celsius)
      throw unit_error("expected a temperature difference in K, found '" + text +
                       "' (degC is a point on a scale; write the difference in K)");
    if (absolute_temperature && !(q.value_si > 0))
      throw unit_error("expected a temperature above absolute zero, found '" + text + "'");
  }
  return q.value_si;
}

}  // namespace ptsim::scenarios
