// `{EXPR}` substitution and loop headers (template_text.hpp).
#include "template_text.hpp"

#include <cctype>
#include <stdexcept>

namespace ptsim::scenarios::detail::template_text {

namespace {

// ---- `{EXPR}` ----------------------------------------------------------------

// Integer arithmetic by recursive descent: sum := term (('+'|'-') term)*,
// term := factor (('*'|'/'|'%') factor)*, factor := INT | VAR | '-' factor | '(' sum ')'.
class expr_parser {
 public:
  expr_parser(const std::string& text, const std::vector<variable>& vars) : t_(text), vars_(vars) {}

  // The value as text: a lone variable keeps its value as written (a list value needs not be
  // a number); anything else is evaluated as an integer.
  std::string evaluate() {
    skip();
    const std::size_t start = i_;
    if (i_ < t_.size() && (std::isalpha(static_cast<unsigned char>(t_[i_])) || t_[i_] == '_')) {
      const std::string name = identifier();
      skip();
      if (i_ == t_.size()) return lookup(name);
      i_ = start;
    }
    const long long v = sum();
    skip();
    if (i_ != t_.size()) throw std::runtime_error("unexpected '" + t_.substr(i_) + "' in '{" + t_ + "}'");
    return std::to_string(v);
  }

 private:
  void skip() {
    while (i_ < t_.size() && t_[i_] == ' ') ++i_;
  }
  std::string identifier() {
    const std::size_t b = i_;
    while (i_ < t_.size() && (std::isalnum(static_cast<unsigned char>(t_[i_])) || t_[i_] == '_')) ++i_;
    return t_.substr(b, i_ - b);
  }
  std::string lookup(const std::string& name) const {
    for (auto it = vars_.rbegin(); it != vars_.rend(); ++it)
      if (it->name == name) return it->value;
    std::string known;
    for (const auto& v : vars_) known += (known.empty() ? "" : ", ") + v.name;
    throw std::runtime_error("unknown loop variable '" + name + "' in '{" + t_ + "}' (" +
                             (known.empty() ? std::string("not inside a loop") : "loop variables: " + known) + ")");
  }
  long long sum() {
    long long v = term();
    for (;;) {
      skip();
      if (i_ < t_.size() && (t_[i_] == '+' || t_[i_] == '-')) {
        const char op = t_[i_++];
        const long long r = term();
        v = op == '+' ? v + r : v - r;
      } else {
        return v;
      }
    }
  }
  long long term() {
    long long v = factor();
    for (;;) {
      skip();
      if (i_ < t_.size() && (t_[i_] == '*' || t_[i_] == '/' || t_[i_] == '%')) {
        const char op = t_[i_++];
        const long long r = factor();
        if (op != '*' && r == 0) throw std::runtime_error("division by zero in '{" + t_ + "}'");
        v = op == '*' ? v * r : op == '/' ? v / r : v % r;
      } else {
        return v;
      }
    }
  }
  long long factor() {
    skip();
    if (i_ == t_.size()) throw std::runtime_error("incomplete expression '{" + t_ + "}'");
    const char c = t_[i_];
    if (c == '-') {
      ++i_;
      return -factor();
    }
    if (c == '(') {
      ++i_;
      const long long v = sum();
      skip();
      if (i_ == t_.size() || t_[i_] != ')') throw std::runtime_error("missing ')' in '{" + t_ + "}'");
      ++i_;
      return v;
    }
    if (std::isdigit(static_cast<unsigned char>(c))) {
      const std::size_t b = i_;
      while (i_ < t_.size() && std::isdigit(static_cast<unsigned char>(t_[i_]))) ++i_;
      if (i_ - b > 15) throw std::runtime_error("number too long in '{" + t_ + "}'");
      return std::stoll(t_.substr(b, i_ - b));
    }
    if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') {
      const std::string name = identifier();
      const std::string value = lookup(name);
      std::size_t used = 0;
      long long v = 0;
      try {
        v = std::stoll(value, &used);
      } catch (const std::exception&) {
        used = 0;
      }
      if (used == 0 || used != value.size())
        throw std::runtime_error("'" + name + "' is '" + value + "', not an integer, in '{" + t_ + "}'");
      return v;
    }
    throw std::runtime_error("unexpected '" + std::string(1, c) + "' in '{" + t_ + "}'");
  }

  const std::string& t_;
  const std::vector<variable>& vars_;
  std::size_t i_ = 0;
};

}  // namespace

// Replaces every `{EXPR}`; throws with the problem.
std::string substitute(const std::string& text, const std::vector<variable>& vars) {
  std::string out;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if ((c == '{' || c == '}') && i + 1 < text.size() && text[i + 1] == c) {
      out += c;
      ++i;
    } else if (c == '}') {
      throw std::runtime_error("'}' without '{' (write '}}' for a literal brace)");
    } else if (c == '{') {
      const auto end = text.find_first_of("{}", i + 1);
      if (end == std::string::npos || text[end] == '{')
        throw std::runtime_error(end == std::string::npos ? "'{' without '}' (write '{{' for a literal brace)"
                                                          : "nested '{' in '" + text + "'");
      const std::string e = text.substr(i + 1, end - i - 1);
      out += expr_parser(e, vars).evaluate();
      i = end;
    } else {
      out += c;
    }
  }
  return out;
}

// ---- `for VAR in RANGE` -------------------------------------------------------

bool is_loop_key(const std::string& key) { return key.compare(0, 4, "for ") == 0; }

// "for i in 0..7" (integers, both ends included) or "for s in [a, b, c]".
loop parse_loop(const std::string& key) {
  const std::string expected = "expected 'for VAR in A..B' or 'for VAR in [a, b, ...]', found '" + key + "'";
  std::size_t i = 4;
  auto skip = [&] {
    while (i < key.size() && key[i] == ' ') ++i;
  };
  skip();
  loop l;
  while (i < key.size() && (std::isalnum(static_cast<unsigned char>(key[i])) || key[i] == '_')) l.var += key[i++];
  if (l.var.empty() || std::isdigit(static_cast<unsigned char>(l.var[0]))) throw std::runtime_error(expected);
  skip();
  if (key.compare(i, 3, "in ") != 0) throw std::runtime_error(expected);
  i += 3;
  skip();
  std::string rest = key.substr(i);
  while (!rest.empty() && rest.back() == ' ') rest.pop_back();
  if (!rest.empty() && rest.front() == '[') {
    if (rest.back() != ']') throw std::runtime_error(expected);
    std::string item;
    auto flush = [&] {
      const auto b = item.find_first_not_of(' '), e = item.find_last_not_of(' ');
      if (b == std::string::npos) throw std::runtime_error("an empty item in the list of '" + key + "'");
      l.values.push_back(item.substr(b, e - b + 1));
      item.clear();
    };
    for (std::size_t k = 1; k + 1 < rest.size(); ++k) {
      if (rest[k] == ',') flush();
      else item += rest[k];
    }
    flush();
    return l;
  }
  const auto dots = rest.find("..");
  auto integer = [&](const std::string& s, long long& v) {
    if (s.empty() || s.size() > 9 || s.find_first_not_of("0123456789") != std::string::npos) return false;
    v = std::stoll(s);
    return true;
  };
  long long a = 0, b = 0;
  if (dots == std::string::npos || !integer(rest.substr(0, dots), a) || !integer(rest.substr(dots + 2), b))
    throw std::runtime_error(expected);
  if (b < a) throw std::runtime_error("the range " + rest + " is empty (write the smaller end first)");
  if (b - a >= 10000) throw std::runtime_error("the range " + rest + " has more than 10000 values");
  for (long long v = a; v <= b; ++v) l.values.push_back(std::to_string(v));
  return l;
}


}  // namespace ptsim::scenarios::detail::template_text
