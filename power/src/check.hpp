#pragma once
// Parameter validation shared by the power models: one message format everywhere,
// naming the parameter, what was expected and what was found.
#include <cmath>
#include <sstream>
#include <stdexcept>
#include <string>

namespace ptsim::power::detail {

[[noreturn]] inline void bad_param(const std::string& name, const std::string& expected,
                                   double found) {
  std::ostringstream os;
  os << name << ": expected " << expected << ", found " << found;
  throw std::invalid_argument(os.str());
}

/// Finite and >= 0.
inline double require_non_negative(const std::string& name, double v) {
  if (!std::isfinite(v) || v < 0.0) bad_param(name, "a finite value >= 0", v);
  return v;
}

/// Finite and > 0.
inline double require_positive(const std::string& name, double v) {
  if (!std::isfinite(v) || v <= 0.0) bad_param(name, "a finite value > 0", v);
  return v;
}

/// Finite and within [lo, hi].
inline double require_range(const std::string& name, double v, double lo, double hi) {
  if (!std::isfinite(v) || v < lo || v > hi) {
    std::ostringstream os;
    os << "a finite value in [" << lo << ", " << hi << "]";
    bad_param(name, os.str(), v);
  }
  return v;
}

}  // namespace ptsim::power::detail
