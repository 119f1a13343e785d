// The registry of component kinds: an explicit list, so that nothing depends on static
// initialisers that a linker may drop. A new kind adds its file, its declaration and its
// entry in the list here, and its file to scenarios/CMakeLists.txt.
#include "component_kind.hpp"

namespace ptsim::scenarios::detail {

// Each file's descriptors (kinds/<file>.cpp).
std::vector<component_kind> compute_unit_kinds();  // cpu_cluster, npu, gpu
std::vector<component_kind> interconnect_kinds();  // noc, pcie, nvlink, switch
std::vector<component_kind> dram_kinds();          // lpddr, lpddr5x, ddr5, hbm
std::vector<component_kind> device_kinds();        // nvme, nic
std::vector<component_kind> video_encoder_kind();  // video_encoder

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
