// The parts of a study that are plain text functions: parameter values and path ranges.
// Reading a study file: study_load.cpp; checking it against the scenario: study_conditions.cpp.
#include "study.hpp"

#include <algorithm>
#include <charconv>
#include <stdexcept>

namespace ptsim::cosim::calibration {

std::string number_text(double x) {
  char buf[64];
  const auto r = std::to_chars(buf, buf + sizeof buf, x);
  return std::string(buf, r.ptr);
}

std::string target::quantity() const { return reciprocal ? "1/" + metric.text : metric.text; }

std::string target::units() const {
  if (ratio_to_row) return "ratio to row " + std::to_string(ratio_to_row);
  return reciprocal ? "1/" + metric.units() : metric.units();
}

std::string parameter::value_text(double x) const { return unit.empty() ? number_text(x) : number_text(x) + " " + unit; }

std::vector<std::string> expand_ranges(const std::string& text) {
  const auto open = text.find('{');
  if (open == std::string::npos) {
    if (text.find('}') != std::string::npos) throw std::invalid_argument("'" + text + "': a '}' without its '{'");
    return {text};
  }
  const auto close = text.find('}', open);
  if (close == std::string::npos) throw std::invalid_argument("'" + text + "': an unclosed '{'");
  const std::string inside = text.substr(open + 1, close - open - 1);
  const auto dots = inside.find("..");
  long a = 0, b = 0;
  const auto all_digits = [](const std::string& s) {
    return !s.empty() && s.size() < 7 && s.find_first_not_of("0123456789") == std::string::npos;
  };
  if (dots == std::string::npos || !all_digits(inside.substr(0, dots)) || !all_digits(inside.substr(dots + 2)) ||
      (a = std::stol(inside.substr(0, dots))) > (b = std::stol(inside.substr(dots + 2))))
    throw std::invalid_argument("'" + text + "': expected a range {A..B} of integers with A <= B, found '{" + inside + "}'");
  std::vector<std::string> out;
  for (const auto& rest : expand_ranges(text.substr(close + 1)))
    for (long i = a; i <= b; ++i) out.push_back(text.substr(0, open) + std::to_string(i) + rest);
  // Every first-range value with every later one, in the order of the first range.
  std::stable_sort(out.begin(), out.end(), [&](const std::string& x, const std::string& y) {
    return std::stol(x.substr(open)) < std::stol(y.substr(open));
  });
  return out;
}

}  // namespace ptsim::cosim::calibration
