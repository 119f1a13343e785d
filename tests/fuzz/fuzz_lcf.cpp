// libFuzzer: HotSpot layer configuration files (.lcf) against a small materials list.
// Malformed input gives std::runtime_error "file:line: ...".
#include <cstdint>
#include <stdexcept>
#include <string>

#include "ptsim/thermal/lcf_format.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const ptsim::thermal::material_list materials = [] {
    ptsim::thermal::material_list m;
    m.add_text("silicon\nsolid\n100\n1.75e6\ncopper\nsolid\n400\n3.55e6\nwater\nfluid\n0.6\n4.17e6\n0.001\n",
               "fuzz.materials");
    return m;
  }();
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    (void)ptsim::thermal::parse_lcf(text, "fuzz.lcf", materials);
  } catch (const std::runtime_error&) {
  } catch (const std::invalid_argument&) {
  }
  return 0;
}
