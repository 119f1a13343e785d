#pragma once
// JSON text pieces shared by reports and traces: escaped strings and exact numbers.
#include <string>

namespace ptsim::postproc::json {

/// A JSON string literal, with control characters escaped; UTF-8 passes through.
std::string quote(const std::string& s);
/// 17 significant digits (reads back to the same double); NaN and infinities are null.
std::string number(double x);
/// The shortest text that reads back to the same double (trace timestamps); null if not finite.
std::string short_number(double x);

}  // namespace ptsim::postproc::json
