// libFuzzer: --set overrides on the default scenario: "path=value" lines from the input.
#include <cstdint>
#include <sstream>
#include <string>

#include "ptsim/scenarios/scenario.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::istringstream in(std::string(reinterpret_cast<const char*>(data), size));
  ptsim::scenarios::load_options opts;
  std::string line;
  try {
    while (std::getline(in, line)) opts.overrides.push_back(ptsim::scenarios::parse_override(line));
    ptsim::scenarios::load_scenario_text(ptsim::scenarios::builtin_default_scenario(), "default.yaml", opts);
  } catch (const ptsim::scenarios::scenario_error&) {
  }
  return 0;
}
