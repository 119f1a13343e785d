// libFuzzer: sweep files. Any text gives a sweep_spec or a scenario_error; the runs of a
// sweep that loads are expanded into their overrides (run_load_options), which must parse.
#include <cstdint>
#include <string>

#include "ptsim/scenarios/sweep.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  (void)ptsim::scenarios::is_sweep_text(text);
  try {
    const auto sweep = ptsim::scenarios::load_sweep_text(text, "fuzz.sweep.yaml");
    for (const auto& run : sweep.runs) (void)ptsim::scenarios::run_load_options(sweep, run);
  } catch (const ptsim::scenarios::scenario_error&) {
  }
  return 0;
}
