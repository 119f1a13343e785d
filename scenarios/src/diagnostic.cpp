#include "ptsim/scenarios/diagnostic.hpp"

#include <sstream>

namespace ptsim::scenarios {

std::string diagnostic::to_string() const {
  std::ostringstream os;
  os << file;
  if (line > 0) os << ':' << line << ':' << column;
  os << ": ";
  if (warning) os << "warning: ";
  if (!path.empty()) os << path << ": ";
  os << message;
  return os.str();
}

std::optional<override_blame> blamed_override(const diagnostic& d) {
  const std::string tag = "--set ";  // as origin::emit and apply_override name them
  if (d.file.compare(0, tag.size(), tag) != 0) return std::nullopt;
  const std::string rest = d.file.substr(tag.size());
  const std::size_t eq = rest.find('=');
  return override_blame{rest.substr(0, eq), eq != std::string::npos};
}

namespace {
std::string join(const std::vector<diagnostic>& d) {
  std::string s;
  for (std::size_t i = 0; i < d.size(); ++i) s += (i ? "\n" : "") + d[i].to_string();
  return s;
}
}  // namespace

scenario_error::scenario_error(std::vector<diagnostic> d) : std::runtime_error(join(d)), diags_(std::move(d)) {}

}  // namespace ptsim::scenarios
