#include "number_text.hpp"

#include <charconv>

namespace ptsim::postproc {

std::string shortest_text(double x) {
  char buf[64];
  const auto r = std::to_chars(buf, buf + sizeof buf, x);
  return std::string(buf, r.ptr);
}

std::string significant_text(double x, int digits) {
  char buf[64];
  const auto r = std::to_chars(buf, buf + sizeof buf, x, std::chars_format::general, digits);
  return std::string(buf, r.ptr);
}

}  // namespace ptsim::postproc
