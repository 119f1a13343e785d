// Checked readers shared by the parts of a study file.
#include "study_reading.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <stdexcept>

#include "ptsim/scenarios/schema.hpp"
#include "ptsim/text/input_file.hpp"

namespace ptsim::cosim::calibration::reading {

std::string found(const YAML::Node& n) {
  if (n.IsScalar()) return "'" + n.Scalar() + "'";
  if (n.IsMap()) return "a mapping";
  if (n.IsSequence()) return "a list";
  return "nothing";
}

std::string read_file(const fs::path& p) {
  std::string why;
  auto content = text::read_input_file(p, why);
  if (!content) throw std::runtime_error("cannot read " + p.string() + ": " + why);
  return std::move(*content);
}

scenarios::sweep_value condition_value(const std::string& path, const std::string& text) {
  scenarios::sweep_value v;
  v.path = path;
  v.text = text;
  // Read as --set reads its value: YAML (`[gpu0, gpu1]` a list, `null` removing the key);
  // text YAML cannot read stays the string it is, for the loader to judge.
  YAML::Node n;
  try {
    n = YAML::Load(text);
  } catch (const YAML::Exception&) {
    n = YAML::Node(text);
  }
  v.yaml = n.IsNull() ? "null" : scenarios::flow_yaml(n);
  return v;
}

bool parse_number(const std::string& t, double& x) {
  if (t.empty()) return false;
  char* end = nullptr;
  x = std::strtod(t.c_str(), &end);
  while (end && *end == ' ') ++end;
  return end != t.c_str() && *end == '\0' && std::isfinite(x);
}

bool parse_fraction(const std::string& t, double& x) {
  std::string s = t;
  bool percent = false;
  if (!s.empty() && s.back() == '%') {
    s.pop_back();
    percent = true;
  }
  while (!s.empty() && s.back() == ' ') s.pop_back();
  if (!parse_number(s, x)) return false;
  if (percent) x /= 100;
  return x >= 0;
}

bool split_quantity(const std::string& t, double& x, std::string& unit) {
  const char* b = t.c_str();
  char* end = nullptr;
  x = std::strtod(b, &end);
  if (end == b || !std::isfinite(x)) return false;
  std::string rest(end);
  const auto first = rest.find_first_not_of(' ');
  unit = first == std::string::npos ? "" : rest.substr(first);
  return true;
}

bool looks_like_path(const std::string& column) {
  if (column.find(' ') != std::string::npos) return false;
  if (column.find('.') != std::string::npos) return true;
  const auto root = scenarios::scenario_schema();
  return std::any_of(root->fields.begin(), root->fields.end(), [&](const scenarios::field& f) { return f.key == column; });
}

std::vector<std::size_t> row_numbers(const YAML::Node& n, std::size_t n_rows, const std::string& key, collector& c) {
  std::vector<std::size_t> out;
  if (!n.IsSequence() || n.size() == 0) {
    c.report(n, key, "expected a non-empty list of row numbers (1 = the first data row), found " + found(n));
    return out;
  }
  for (const auto& e : n) {
    double x = 0;
    if (!e.IsScalar() || !parse_number(e.Scalar(), x) || x != std::floor(x) || x < 1 || x > static_cast<double>(n_rows))
      c.report(e, key, "expected a row number from 1 to " + std::to_string(n_rows) + ", found " + found(e));
    else
      out.push_back(static_cast<std::size_t>(x));
  }
  return out;
}

void read_set(const YAML::Node& n, const std::string& key, collector& c, std::vector<scenarios::sweep_value>& out,
              std::vector<where>& out_at) {
  if (!n.IsMap()) return c.report(n, key, "expected a mapping of dotted paths to values, found " + found(n));
  for (const auto& e : n) {
    const std::string path = e.first.Scalar();
    scenarios::sweep_value v;
    v.path = path;
    if (e.second.IsNull()) {
      // `key: null` (or nothing) removes the key, as --set KEY=null does.
      v.text = v.yaml = "null";
      out.push_back(v);
      out_at.push_back(c.at(e.second));
      continue;
    }
    if (!e.second.IsScalar() && !e.second.IsSequence() && !e.second.IsMap()) {
      c.report(e.second, key + "." + path, "expected a value, found nothing");
      continue;
    }
    v.text = e.second.IsScalar() ? e.second.Scalar() : scenarios::flow_yaml(e.second);
    v.yaml = scenarios::flow_yaml(e.second);
    out.push_back(v);
    out_at.push_back(c.at(e.second));
  }
}

}  // namespace ptsim::cosim::calibration::reading
