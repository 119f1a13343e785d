// libFuzzer: HotSpot materials files (-materials_file). Malformed records give
// std::runtime_error "file:line: ...".
#include <cstdint>
#include <stdexcept>
#include <string>

#include "ptsim/thermal/materials.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    ptsim::thermal::material_list m;
    m.add_text(text, "fuzz.materials");
    for (const auto& mat : m.all()) (void)m.find(mat.name);
  } catch (const std::runtime_error&) {
  } catch (const std::invalid_argument&) {
  }
  return 0;
}
