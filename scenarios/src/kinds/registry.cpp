// The registry of component kinds: an explicit list, so that nothing depends on static
// initialisers that a linker may drop. A new kind adds its file kinds/<kind>.cpp, which
// defines `std::vector<component_kind> <kind>_kind()` (its descriptors), and one line
// X(<kind>_kind) below; CMake compiles every file in kinds/.
#include "component_kind.hpp"

namespace ptsim::scenarios::detail {

// Each kind file's descriptor function, one line each, in registration order.
#define PTSIM_KIND_FILES(X) \
  X(compute_unit_kinds)     /* cpu_cluster, npu, gpu */ \
  X(interconnect_kinds)     /* noc, pcie, nvlink, switch */ \
  X(dram_kinds)             /* lpddr, lpddr5x, ddr5, hbm */ \
  X(device_kinds)           /* nvme, nic */ \
  X(video_encoder_kind)     /* video_encoder */ \
  X(mobile_gpu_kind)        /* mobile_gpu */ \
  /* a new kind: one line X(<kind>_kind) \ above this one */

#define PTSIM_DECLARE_KINDS(descriptors) std::vector<component_kind> descriptors();
PTSIM_KIND_FILES(PTSIM_DECLARE_KINDS)
#undef PTSIM_DECLARE_KINDS

const std::vector<component_kind>& component_kinds() {
  static const std::vector<component_kind> all = [] {
    std::vector<component_kind> v;
#define PTSIM_APPEND_KINDS(descriptors) \
  for (auto& k : descriptors()) v.push_back(std::move(k));
    PTSIM_KIND_FILES(PTSIM_APPEND_KINDS)
#undef PTSIM_APPEND_KINDS
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
