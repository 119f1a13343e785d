// The registry of component kinds: an explicit list, so that nothing depends on static
// initialisers that a linker may drop. A new kind adds its file and one line here.
#include "component_kind.hpp"

namespace ptsim::scenarios::detail {

const std::vector<component_kind>& component_kinds() {
  static const std::vector<component_kind> all = [] {
    std::vector<component_kind> v;
    for (auto family : {compute_unit_kinds, interconnect_kinds, dram_kinds, device_kinds,
                        video_encoder_kind})
      for (auto& k : family()) v.push_back(std::move(k));
    return v;
  }();
  return all;
}

const component_kind* find_component_kind(const std::string& name) {
  for (const auto& k : component_kinds())
    if (k.name == name) return &k;
  return nullptr;
}

}  // namespace ptsim::scenarios::detail
