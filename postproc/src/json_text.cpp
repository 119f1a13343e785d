#include "json_text.hpp"

#include <cmath>
#include <cstdio>

#include "number_text.hpp"

namespace ptsim::postproc::json {

std::string quote(const std::string& s) {
  std::string out = "\"";
  for (unsigned char c : s) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      default:
        if (c < 0x20) {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\u%04x", c);
          out += buf;
        } else {
          out += static_cast<char>(c);
        }
    }
  }
  return out + "\"";
}

std::string number(double x) { return std::isfinite(x) ? significant_text(x, 17) : "null"; }

std::string short_number(double x) { return std::isfinite(x) ? shortest_text(x) : "null"; }

}  // namespace ptsim::postproc::json
