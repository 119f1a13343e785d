#pragma once
// Errors in scenario input, with where they are: file:line:column, the key path,
// what was expected and what was found.
#include <stdexcept>
#include <string>
#include <vector>

namespace ptsim::scenarios {

struct diagnostic {
  std::string file;  ///< file name, or "--set" for a command-line override
  int line = 0;      ///< 1-based; 0 when unknown
  int column = 0;    ///< 1-based; 0 when unknown
  std::string path;  ///< dotted key path, e.g. "policy.governor"
  std::string message;
  bool warning = false;  ///< a plausibility warning: printed, but the input is accepted
  std::string to_string() const;
};

/// One or more diagnostics; what() lists them all, one per line.
class scenario_error : public std::runtime_error {
 public:
  explicit scenario_error(std::vector<diagnostic> d);
  const std::vector<diagnostic>& diagnostics() const { return diags_; }

 private:
  std::vector<diagnostic> diags_;
};

}  // namespace ptsim::scenarios
