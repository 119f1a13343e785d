#pragma once
// How long a transaction holds a memory's bandwidth relative to its bytes. An operator
// whose access pattern reaches only a share e of the memory's streaming rate (paged
// KV-cache gathers, scattered rows) holds it for bytes / e worth of time; the memory's
// ledger, and so its energy, still counts the bytes moved. Compute units attach it to
// their transactions (compute_unit_config::memory_efficiency); memories read it.
#include <tlm>

namespace ptsim::tlm_models {
// The models speak the vocabulary of the descriptions they run (ptsim/tlm_config).
using namespace tlm_config;

struct memory_occupancy : tlm::tlm_extension<memory_occupancy> {
  double factor = 1;  ///< bandwidth booked per byte moved (1 / e)
  tlm::tlm_extension_base* clone() const override {
    auto* c = new memory_occupancy;
    c->factor = factor;
    return c;
  }
  void copy_from(const tlm::tlm_extension_base& e) override { factor = static_cast<const memory_occupancy&>(e).factor; }
};

}  // namespace ptsim::tlm_models
