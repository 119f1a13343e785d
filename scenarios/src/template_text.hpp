#pragma once
// Internal: the text of templates and loops — `{EXPR}` in keys and strings, and the
// `for VAR in RANGE` header of a loop (README, "Templates and loops").
#include <string>
#include <vector>

namespace ptsim::scenarios::detail::template_text {

struct variable {
  std::string name, value;
};

/// `text` with every `{EXPR}` replaced (`{{`, `}}`: literal braces); EXPR is a variable, or
/// integer arithmetic (+ - * / %, parentheses) on them. Throws std::runtime_error saying what
/// is wrong (an unknown variable, a nested '{', an unclosed brace, ...).
std::string substitute(const std::string& text, const std::vector<variable>& vars);

/// A key that starts with "for ": a loop header (checked by parse_loop).
bool is_loop_key(const std::string& key);

struct loop {
  std::string var;
  std::vector<std::string> values;
};

/// "for i in 0..7" (integers, both ends included) or "for s in [a, b, c]"; throws
/// std::runtime_error with what was expected.
loop parse_loop(const std::string& key);

}  // namespace ptsim::scenarios::detail::template_text
