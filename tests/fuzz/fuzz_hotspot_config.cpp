// libFuzzer: HotSpot configuration files (-c): the `-name value` reader, then the
// resolution of every option into settings with HotSpot's checks. Malformed input gives
// std::runtime_error ("file:line: ..." or "origin: -name ...").
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "ptsim/thermal/hotspot_options.hpp"
#include "ptsim/thermal/hotspot_run.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    ptsim::thermal::hotspot_options o;
    o.add_config_text(text, "fuzz.config");
    // A materials file named by the input would be read from the disk: not this harness's
    // business (fuzz_materials reads that format), and it could name /dev/zero.
    if (o.has_file("materials_file")) return 0;
    o.add_default("p", "fuzz.ptrace", "fuzz");  // resolution requires a power trace
    std::vector<std::string> notes;
    (void)ptsim::thermal::resolve_hotspot_settings(o, notes);
  } catch (const std::runtime_error&) {
  } catch (const std::invalid_argument&) {
  }
  return 0;
}
