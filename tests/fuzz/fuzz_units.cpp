// libFuzzer: strings with units; anything unparsable is a unit_error.
#include <cstdint>
#include <string>

#include "ptsim/scenarios/unit_parser.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    (void)ptsim::scenarios::parse_quantity(text);
    (void)ptsim::scenarios::parse_si(text, ptsim::scenarios::dims::frequency());
  } catch (const ptsim::scenarios::unit_error&) {
  }
  return 0;
}
