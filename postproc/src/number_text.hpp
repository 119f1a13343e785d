#pragma once
// Locale-independent number printing (std::to_chars never consults the C or C++ locale).
#include <string>

namespace ptsim::postproc {

/// Shortest text that reads back as exactly x: "0.1", "1e+300", "nan", "inf".
std::string shortest_text(double x);
/// x with the given significant digits in %g style ("0.10000000000000001" for 17).
std::string significant_text(double x, int digits);

}  // namespace ptsim::postproc
