#include "yaml_subset.hpp"

#include <cstring>
#include <memory>

#include "yaml_memory.hpp"

namespace ptsim::scenarios::detail {
namespace {

/// Thrown where the text leaves the subset: yaml-cpp reads it instead.
struct outside_subset {};

using ynode = YAML::detail::node;

/// Characters that cannot start a plain scalar (YAML 1.2, c-indicator).
bool is_indicator(char c) { return c != '\0' && std::strchr("-?:,[]{}#&*!|>'\"%@`", c) != nullptr; }
bool is_flow_indicator(char c) { return c != '\0' && std::strchr(",[]{}", c) != nullptr; }

class subset_reader {
 public:
  explicit subset_reader(std::string_view text)
      : s_(text), memory_(std::make_shared<YAML::detail::memory_holder>()) {}

  YAML::Node read() {
    // Control characters (tabs, carriage returns, NUL; 0x04 ends yaml-cpp's stream) change how
    // yaml-cpp counts and scans, and a first byte past ASCII may be a byte-order mark, after
    // which it decodes UTF-16 or UTF-32.
    for (const char c : s_)
      if ((static_cast<unsigned char>(c) < 0x20 && c != '\n') || c == '\x7f') throw outside_subset{};
    if (!s_.empty() && static_cast<unsigned char>(s_[0]) >= 0x80) throw outside_subset{};
    next_content_line();
    if (indent_ < 0) throw outside_subset{};  // an empty document
    ynode& root = block_node(indent_, -1);
    if (indent_ >= 0) throw outside_subset{};  // content left over, less indented than the root
    return wrap_node(root, memory_);
  }

 private:
  std::string_view s_;
  YAML::detail::shared_memory_holder memory_;
  std::size_t p_ = 0;           ///< read position
  std::size_t line_start_ = 0;  ///< offset of the line p_ is on
  int line_ = 0;
  int indent_ = -1;  ///< indentation of the content line p_ is at; -1 at the end of the text
  int depth_ = 0;    ///< collections being read, one inside the other

  /// Held while a collection is read. Past 200 levels the text goes to yaml-cpp, which refuses
  /// nesting past 500 with an error, instead of this reader recursing as deep as the text asks.
  struct nesting {
    explicit nesting(int& depth) : depth_(depth) {
      if (++depth_ > 200) throw outside_subset{};
    }
    ~nesting() { --depth_; }
    nesting(const nesting&) = delete;
    nesting& operator=(const nesting&) = delete;
    int& depth_;
  };

  char at(std::size_t i) const { return i < s_.size() ? s_[i] : '\0'; }
  char cur() const { return at(p_); }
  int column() const { return static_cast<int>(p_ - line_start_); }
  bool blank_or_end(std::size_t i) const { return i >= s_.size() || s_[i] == ' ' || s_[i] == '\n'; }
  bool at_entry_dash() const { return cur() == '-' && blank_or_end(p_ + 1); }

  YAML::Mark mark() const {
    YAML::Mark m;
    m.pos = static_cast<int>(p_);
    m.line = line_;
    m.column = column();
    return m;
  }
  ynode& collection(YAML::NodeType::value type, YAML::EmitterStyle::value style) {
    ynode& n = memory_->create_node();
    n.set_mark(mark());
    n.set_type(type);
    n.set_tag("?");
    n.set_style(style);
    return n;
  }
  ynode& scalar(const YAML::Mark& m, std::string value, bool quoted) {
    ynode& n = memory_->create_node();
    n.set_mark(m);
    // A plain null spelling (~, null, empty) is a null node, as yaml-cpp's reader makes it.
    if (!quoted && YAML::IsNullString(value)) {
      n.set_null();
    } else {
      n.set_scalar(value);
      n.set_tag(quoted ? "!" : "?");
    }
    return n;
  }

  void new_line() {
    ++p_;
    ++line_;
    line_start_ = p_;
  }
  void skip_spaces() {
    while (cur() == ' ') ++p_;
  }
  /// From the start of a line: past blank and comment-only lines to the first content
  /// character; indent_ is its column (-1 at the end of the text).
  void next_content_line() {
    while (true) {
      std::size_t i = p_;
      while (at(i) == ' ') ++i;
      if (i >= s_.size()) {
        p_ = s_.size();
        indent_ = -1;
        return;
      }
      if (s_[i] == '\n' || s_[i] == '#') {
        p_ = s_.find('\n', i);
        if (p_ == std::string_view::npos) {
          p_ = s_.size();
          indent_ = -1;
          return;
        }
        new_line();
        continue;
      }
      p_ = i;
      indent_ = column();
      // Document markers and directives start at column 0.
      if (indent_ == 0 && (s_.compare(p_, 3, "---") == 0 || s_.compare(p_, 3, "...") == 0 || cur() == '%'))
        throw outside_subset{};
      return;
    }
  }
  /// After a value written on its line: spaces, an optional comment, the line's end.
  void finish_line() {
    skip_spaces();
    if (cur() == '#') {
      if (at(p_ - 1) != ' ') throw outside_subset{};
      p_ = s_.find('\n', p_);
      if (p_ == std::string_view::npos) p_ = s_.size();
    }
    if (cur() == '\n') new_line();
    else if (p_ < s_.size()) throw outside_subset{};
    next_content_line();
  }
  bool at_line_end_or_comment() const { return p_ >= s_.size() || cur() == '\n' || cur() == '#'; }

  // --- block context ---

  /// The node whose first line starts at column `indent`, below the line of the key or
  /// `-` it belongs to (at column `parent`; -1 for the document).
  ynode& block_node(int indent, int parent) {
    if (at_entry_dash()) return block_sequence(indent);
    const char c = cur();
    // A flow collection or a quoted scalar on its own line; a plain one might go on over
    // the lines below (folded), which is yaml-cpp's business.
    if (c == '[' || c == '{' || ((c == '"' || c == '\'') && !key_on_this_line())) {
      if (parent < 0) throw outside_subset{};
      return inline_value(parent);
    }
    return block_mapping(indent);
  }

  ynode& block_sequence(int indent) {
    const nesting level(depth_);
    ynode& seq = collection(YAML::NodeType::Sequence, YAML::EmitterStyle::Block);
    while (true) {
      ++p_;  // the '-'
      skip_spaces();
      ynode* item;
      if (at_line_end_or_comment()) {  // the item is on the lines below
        finish_line();
        if (indent_ <= indent) throw outside_subset{};  // an empty item
        item = &block_node(indent_, indent);
      } else if (key_on_this_line()) {
        item = &block_mapping(column());
      } else {
        item = &inline_value(indent);
      }
      seq.push_back(*item, memory_);
      if (indent_ > indent) throw outside_subset{};
      if (indent_ == indent && at_entry_dash()) continue;
      return seq;  // less indented, the end, or the next key of a mapping at this indentation
    }
  }

  ynode& block_mapping(int indent) {
    const nesting level(depth_);
    ynode& map = collection(YAML::NodeType::Map, YAML::EmitterStyle::Block);
    while (true) {
      ynode& key = block_key();
      skip_spaces();
      ynode* value;
      if (at_line_end_or_comment()) {  // the value is on the lines below
        finish_line();
        if (indent_ > indent) value = &block_node(indent_, indent);
        else if (indent_ == indent && at_entry_dash()) value = &block_sequence(indent);
        else throw outside_subset{};  // an empty value
      } else {
        value = &inline_value(indent);
      }
      map.insert(key, *value, memory_);
      if (indent_ > indent) throw outside_subset{};
      if (indent_ < indent) return map;
      if (at_entry_dash()) throw outside_subset{};
    }
  }

  /// Whether the rest of this line starts with `KEY:` (a plain or quoted scalar, then ':'
  /// before a blank).
  bool key_on_this_line() const {
    std::size_t i = p_;
    const char c = cur();
    if (c == '"' || c == '\'') {
      i = quoted_end(i);
      return i != std::string_view::npos && at(i) == ':' && blank_or_end(i + 1);
    }
    if (!plain_may_start(p_, false)) return false;
    for (; i < s_.size() && s_[i] != '\n'; ++i) {
      if (s_[i] == ':' && blank_or_end(i + 1)) return true;
      if (s_[i] == '#' && s_[i - 1] == ' ') return false;
    }
    return false;
  }

  /// yaml-cpp refuses a key whose ':' is more than 1024 characters past its start (a
  /// "simple key"); far below that, the two agree.
  void key_length_check(const YAML::Mark& start) const {
    if (p_ - static_cast<std::size_t>(start.pos) > 1000) throw outside_subset{};
  }

  ynode& block_key() {
    const YAML::Mark m = mark();
    const char c = cur();
    if (c == '"' || c == '\'') {
      std::string text = quoted_text();
      if (cur() != ':' || !blank_or_end(p_ + 1)) throw outside_subset{};
      key_length_check(m);
      ++p_;
      return scalar(m, std::move(text), true);
    }
    if (!plain_may_start(p_, false)) throw outside_subset{};
    const std::size_t begin = p_;
    while (true) {
      if (p_ >= s_.size() || cur() == '\n') throw outside_subset{};
      if (cur() == ':' && blank_or_end(p_ + 1)) break;
      if (cur() == '#' && at(p_ - 1) == ' ') throw outside_subset{};
      ++p_;
    }
    std::string text(trimmed(begin, p_));
    key_length_check(m);
    ++p_;  // the ':'
    if (YAML::IsNullString(text)) throw outside_subset{};  // a null key
    return scalar(m, std::move(text), false);
  }

  /// A value written after `key: ` or `- `, to the end of its line (a flow collection may
  /// go on over more lines, each indented past `indent`).
  ynode& inline_value(int indent) {
    const char c = cur();
    ynode* n;
    if (c == '[' || c == '{') {
      n = &flow_node(indent);
    } else if (c == '"' || c == '\'') {
      const YAML::Mark m = mark();
      n = &scalar(m, quoted_text(), true);
    } else {
      if (!plain_may_start(p_, false)) throw outside_subset{};
      const YAML::Mark m = mark();
      const std::size_t begin = p_;
      while (p_ < s_.size() && cur() != '\n' && !(cur() == '#' && at(p_ - 1) == ' ')) {
        if (cur() == ':' && blank_or_end(p_ + 1)) throw outside_subset{};  // `a: b: c`
        ++p_;
      }
      n = &scalar(m, std::string(trimmed(begin, p_)), false);
    }
    finish_line();
    return *n;
  }

  // --- flow context ---

  /// Spaces, line breaks and comments inside a flow collection; a continuation line must be
  /// indented past the block it is in.
  void skip_flow_space(int indent) {
    while (true) {
      const char c = cur();
      if (c == ' ') {
        ++p_;
      } else if (c == '\n') {
        new_line();
        std::size_t i = p_;
        while (at(i) == ' ') ++i;
        if (at(i) != '\n' && at(i) != '#' && static_cast<int>(i - line_start_) <= indent) throw outside_subset{};
      } else if (c == '#') {
        if (p_ != line_start_ && at(p_ - 1) != ' ') throw outside_subset{};
        while (p_ < s_.size() && cur() != '\n') ++p_;
      } else {
        if (p_ >= s_.size()) throw outside_subset{};  // the text ends inside the collection
        return;
      }
    }
  }

  ynode& flow_node(int indent) {
    const char c = cur();
    if (c == '[') return flow_sequence(indent);
    if (c == '{') return flow_mapping(indent);
    const YAML::Mark m = mark();
    if (c == '"' || c == '\'') return scalar(m, quoted_text(), true);
    return scalar(m, flow_plain(), false);
  }

  /// A flow collection's entries, from its opening bracket past `close`, each read by
  /// `entry` (an item, or a `key: value`); a trailing or empty entry leaves the subset.
  template <class Entry>
  void flow_entries(char close, int indent, Entry entry) {
    ++p_;  // the opening bracket
    skip_flow_space(indent);
    if (cur() == close) {
      ++p_;
      return;
    }
    while (true) {
      entry();
      skip_flow_space(indent);
      if (cur() == close) {
        ++p_;
        return;
      }
      if (cur() != ',') throw outside_subset{};  // `[a: b]` (a mapping in a sequence) or stray text
      ++p_;
      skip_flow_space(indent);
      if (cur() == close || cur() == ',') throw outside_subset{};
    }
  }

  ynode& flow_sequence(int indent) {
    const nesting level(depth_);
    ynode& seq = collection(YAML::NodeType::Sequence, YAML::EmitterStyle::Flow);
    flow_entries(']', indent, [&] { seq.push_back(flow_node(indent), memory_); });
    return seq;
  }

  ynode& flow_mapping(int indent) {
    const nesting level(depth_);
    ynode& map = collection(YAML::NodeType::Map, YAML::EmitterStyle::Flow);
    flow_entries('}', indent, [&] {
      const YAML::Mark m = mark();
      const char c = cur();
      if (c == '[' || c == '{') throw outside_subset{};  // a collection as a key
      const bool quoted = c == '"' || c == '\'';
      std::string text = quoted ? quoted_text() : flow_plain();
      if (!quoted && YAML::IsNullString(text)) throw outside_subset{};
      if (cur() != ':' || !blank_or_end(p_ + 1)) throw outside_subset{};  // no value, or `a:b`
      key_length_check(m);
      ynode& key = scalar(m, std::move(text), quoted);
      ++p_;
      skip_flow_space(indent);
      if (cur() == ',' || cur() == '}') throw outside_subset{};  // an empty value
      map.insert(key, flow_node(indent), memory_);
    });
    return map;
  }

  /// A plain scalar inside a flow collection, on one line.
  std::string flow_plain() {
    if (!plain_may_start(p_, true)) throw outside_subset{};
    const std::size_t begin = p_;
    while (p_ < s_.size()) {
      const char c = cur();
      if (c == '\n' || is_flow_indicator(c)) break;
      if (c == '?') throw outside_subset{};  // ends a flow scalar in yaml-cpp
      if (c == ':' && (blank_or_end(p_ + 1) || is_flow_indicator(at(p_ + 1)))) break;
      if (c == '#' && at(p_ - 1) == ' ') break;
      ++p_;
    }
    std::string_view text = trimmed(begin, p_);
    if (text.empty()) throw outside_subset{};
    // A plain scalar cut by a line break may go on below (folded): yaml-cpp's business.
    if (cur() == '\n' || cur() == '#') {
      std::size_t i = cur() == '#' ? s_.find('\n', p_) : p_;
      if (i == std::string_view::npos) throw outside_subset{};
      // After the break only a separator or the collection's end may come.
      for (++i; i < s_.size() && (s_[i] == ' ' || s_[i] == '\n'); ++i) {}
      const char next = at(i);
      if (next != ',' && next != ']' && next != '}') throw outside_subset{};
    }
    return std::string(text);
  }

  // --- scalars ---

  /// Whether a plain scalar may start at i: not an indicator, except `-`, `?`, `:` before
  /// a character that is not blank (nor, in a flow collection, a flow indicator).
  bool plain_may_start(std::size_t i, bool flow) const {
    const char c = at(i);
    if (c == '\0' || c == ' ' || c == '\n') return false;
    if (!is_indicator(c)) return true;
    if (c != '-') return false;  // `?` and `:` starts are rare: leave them to yaml-cpp
    const char next = at(i + 1);
    return !blank_or_end(i + 1) && !(flow && is_flow_indicator(next));
  }

  /// Offset just past the closing quote of the quoted scalar at i, on the same line;
  /// npos when it has an escape, a line break or no end.
  std::size_t quoted_end(std::size_t i) const {
    const char q = s_[i];
    for (++i; i < s_.size(); ++i) {
      const char c = s_[i];
      if (c == '\n' || (q == '"' && c == '\\')) return std::string_view::npos;
      if (c == q) {
        if (q == '\'' && at(i + 1) == '\'') {
          ++i;
          continue;
        }
        return i + 1;
      }
    }
    return std::string_view::npos;
  }
  std::string quoted_text() {
    const std::size_t end = quoted_end(p_);
    if (end == std::string_view::npos) throw outside_subset{};
    std::string text;
    const char q = s_[p_];
    for (std::size_t i = p_ + 1; i + 1 < end; ++i) {
      text += s_[i];
      if (q == '\'' && s_[i] == '\'') ++i;  // '' is one quote
    }
    p_ = end;
    return text;
  }

  std::string_view trimmed(std::size_t begin, std::size_t end) const {
    while (end > begin && s_[end - 1] == ' ') --end;
    return s_.substr(begin, end - begin);
  }
};

}  // namespace

std::optional<YAML::Node> load_yaml_subset(std::string_view text) {
  try {
    return subset_reader(text).read();
  } catch (const outside_subset&) {
    return std::nullopt;
  }
}

YAML::Node load_yaml(const std::string& text) {
  if (auto tree = load_yaml_subset(text)) return *std::move(tree);
  return YAML::Load(text);
}

}  // namespace ptsim::scenarios::detail
