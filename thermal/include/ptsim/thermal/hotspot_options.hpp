#pragma once
// HotSpot 7 options: `-name value` pairs from the command line and from configuration
// files, with HotSpot's precedence (the command line first, then the file; within one
// source the first occurrence wins), the origin of every value for error messages, and
// the catalogue of every name HotSpot 7 knows.
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace ptsim::thermal {

/// How ptsim treats a HotSpot option.
enum class option_support {
  modelled,    ///< ptsim reads it and reproduces its effect
  no_effect,   ///< HotSpot's `hotspot` does not use it either (floorplanner, base_proc_freq)
  unmodelled,  ///< changes HotSpot's results but ptsim does not model it: reported once
  ptsim_only,  ///< a ptsim extension (not a HotSpot option)
};

/// One entry of the option catalogue.
struct option_info {
  const char* name;  ///< without the leading '-'
  option_support support;
  const char* help;  ///< one line; for unmodelled options, what is not modelled
};

/// Every option name HotSpot 7 (hotspot, hotfloorplan, package and microchannel
/// configurations) understands, plus ptsim's own, in --help order.
const std::vector<option_info>& option_catalogue();
/// The catalogue entry for a name (without '-'), or nullptr.
const option_info* find_option(const std::string& name);
/// The catalogue name closest to `name` (edit distance), for "did you mean" hints; empty if none is close.
std::string nearest_option(const std::string& name);

/// A value and where it came from: "command line" or "file:line".
struct option_value {
  std::string value;
  std::string origin;
};

/// Name-value options with HotSpot's precedence. Unknown names are errors.
class hotspot_options {
 public:
  /// Reads `-name value` pairs (argv after the command name). Throws std::runtime_error for a
  /// name without '-', a name without value or a name that no HotSpot version knows.
  void add_command_line(const std::vector<std::string>& args);
  /// Reads a HotSpot configuration file: one `-name value` per line, anything after the value
  /// ignored (HotSpot reads two words), lines whose first word starts with '#' and blank lines
  /// skipped. Entries already present (from the command line or earlier lines) are kept, as
  /// in HotSpot. Throws std::runtime_error "file:line: ..." for malformed lines and unknown names.
  void add_config_file(const std::filesystem::path& path);
  /// Parses configuration text; `source` names it in errors.
  void add_config_text(const std::string& text, const std::string& source);
  /// Sets a value unless the name is present (lowest precedence).
  void add_default(const std::string& name, const std::string& value, const std::string& origin);

  bool has(const std::string& name) const { return find(name) != nullptr; }
  const option_value* find(const std::string& name) const;
  /// HotSpot's "no file": absent or "(null)".
  bool has_file(const std::string& name) const;

  /// Typed access; throw std::runtime_error "origin: -name expects ..., found '...'".
  double get_double(const std::string& name, double fallback) const;
  int get_int(const std::string& name, int fallback) const;
  std::string get_string(const std::string& name, const std::string& fallback) const;
  /// The file named by an option, or empty for absent / "(null)".
  std::string get_file(const std::string& name) const;

  /// All entries in precedence order (command line first).
  struct entry {
    std::string name;
    option_value v;
  };
  const std::vector<entry>& entries() const { return entries_; }

 private:
  void add(const std::string& name, std::string value, std::string origin);
  std::vector<entry> entries_;
};

}  // namespace ptsim::thermal
