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
  const auto bad = [&] {
    return std::invalid_argument("'" + text + "': expected a range {A..B} of integers with A <= B or a list {X,Y,...} " +
                                 "of names, found '{" + inside + "}'");
  };
  // What the braces stand for, in order: A, A+1, .. B, or the listed names.
  std::vector<std::string> choices;
  if (inside.find(',') != std::string::npos) {
    for (std::size_t at = 0;;) {
      const auto comma = inside.find(',', at);
      const std::string name = inside.substr(at, comma == std::string::npos ? std::string::npos : comma - at);
      if (name.empty() || name.find_first_of(" \t{") != std::string::npos) throw bad();
      choices.push_back(name);
      if (comma == std::string::npos) break;
      at = comma + 1;
    }
  } else {
    const auto all_digits = [](const std::string& s) {
      return !s.empty() && s.size() < 7 && s.find_first_not_of("0123456789") == std::string::npos;
    };
    const auto dots = inside.find("..");
    long a = 0, b = 0;
    if (dots == std::string::npos || !all_digits(inside.substr(0, dots)) || !all_digits(inside.substr(dots + 2)) ||
        (a = std::stol(inside.substr(0, dots))) > (b = std::stol(inside.substr(dots + 2))))
      throw bad();
    for (long i = a; i <= b; ++i) choices.push_back(std::to_string(i));
  }
  // Every first choice with every later one, in the order of the first.
  const std::vector<std::string> rests = expand_ranges(text.substr(close + 1));
  std::vector<std::string> out;
  for (const auto& c : choices)
    for (const auto& rest : rests) out.push_back(text.substr(0, open) + c + rest);
  return out;
}

}  // namespace ptsim::cosim::calibration
