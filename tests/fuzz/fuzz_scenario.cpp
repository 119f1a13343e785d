// libFuzzer: the scenario loader must answer any text with a scenario or a scenario_error.
// Anything else (a crash, another exception type, a sanitizer report) is a bug.
#include <cstdint>
#include <string>

#include "ptsim/scenarios/scenario.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    ptsim::scenarios::load_scenario_text(text, "fuzz.yaml");
  } catch (const ptsim::scenarios::scenario_error&) {
  }
  return 0;
}
