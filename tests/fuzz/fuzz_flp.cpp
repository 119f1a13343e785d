// libFuzzer: HotSpot floorplan files; malformed input gives std::runtime_error (file:line).
#include <cstdint>
#include <stdexcept>
#include <string>

#include "ptsim/thermal/flp_format.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    const auto fp = ptsim::thermal::parse_flp(text, "fuzz.flp");
    (void)fp.problems();
    (void)fp.adjacencies();
  } catch (const std::runtime_error&) {
  } catch (const std::invalid_argument&) {
  }
  return 0;
}
