#pragma once
// The default scenario with its explicit floorplan replaced by a component list (shared by the
// scenario and end-to-end tests of thermal.floorplan: {components: ...}).
#include <string>

namespace scen_test {

/// The six components of the default phone die (65 mm^2 with 5 % white space), hinted so that
/// the NoC sits between the NPU and the memory controller and the big and mid CPUs touch.
inline const char* layout_yaml =
    "  floorplan:\n"
    "    die_aspect: 1.25\n"
    "    whitespace: 0.05\n"
    "    components:\n"
    "      - { name: npu,        area: \"25 mm^2\", next_to: [noc] }\n"
    "      - { name: cpu_big,    area: \"9 mm^2\",  next_to: [cpu_mid] }\n"
    "      - { name: cpu_mid,    area: \"9 mm^2\",  next_to: [noc] }\n"
    "      - { name: cpu_little, area: \"12 mm^2\" }\n"
    "      - { name: noc,        area: \"10 mm^2\", aspect: 2.5, next_to: [mem_ctrl] }\n"
    "      - { name: mem_ctrl,   area: \"15 mm^2\" }\n";

/// `text` (the default scenario) with its floorplan list replaced by layout_yaml.
inline std::string with_layout(std::string text) {
  const std::string head = "  floorplan:                     # 10 mm x 8 mm die\n";
  const std::size_t a = text.find(head);
  const std::size_t b = text.find("  power_map:", a);
  if (a == std::string::npos || b == std::string::npos) return "";
  return text.replace(a, b - a, layout_yaml);
}

}  // namespace scen_test
