#pragma once
// Errors in scenario input, with where they are: file:line:column, the key path,
// what was expected and what was found.
#include <optional>
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

/// The override a diagnostic blames: the loader names "--set PATH" for a value it refused
/// and "--set PATH=VALUE" for a path it cannot apply (then the path is at fault). Callers that
/// made the overrides themselves (sweeps, calibration studies) point it back at their file.
struct override_blame {
  std::string path;
  bool path_at_fault = false;
};
/// nullopt when the diagnostic does not come from an override.
std::optional<override_blame> blamed_override(const diagnostic& d);

/// One or more diagnostics; what() lists them all, one per line.
class scenario_error : public std::runtime_error {
 public:
  explicit scenario_error(std::vector<diagnostic> d);
  const std::vector<diagnostic>& diagnostics() const { return diags_; }

 private:
  std::vector<diagnostic> diags_;
};

}  // namespace ptsim::scenarios
