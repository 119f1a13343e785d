#pragma once
// An on-chip NoC or bus between initiators and one memory: a latency and a shared
// bandwidth of its own, in series with the memory's. Loosely timed, timing only.
#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/multi_passthrough_target_socket.h>

#include "ptsim/tlm/activity_ledger.hpp"
#include "ptsim/tlm/bandwidth_calendar.hpp"
#include "ptsim/tlm/platform_config.hpp"

namespace ptsim::tlm {

class interconnect : public sc_core::sc_module {
 public:
  /// Many initiators bind here (one per connected unit).
  tlm_utils::multi_passthrough_target_socket<interconnect> target;
  tlm_utils::simple_initiator_socket<interconnect> initiator;

  interconnect(sc_core::sc_module_name name, const interconnect_config& cfg, double control_period_s);
  activity_ledger& ledger() { return ledger_; }
  const interconnect_config& config() const { return cfg_; }

 private:
  void b_transport(int port, ::tlm::tlm_generic_payload& trans, sc_core::sc_time& delay);
  interconnect_config cfg_;
  bandwidth_calendar calendar_;
  activity_ledger ledger_;
};

}  // namespace ptsim::tlm
