#pragma once
// A target that stores or sinks bytes, as a loosely-timed TLM-2.0 target: DRAM (LPDDR,
// DDR, HBM), NVMe storage or a NIC. Timing only: the payload's data is not stored. A
// transaction's completion is its bandwidth booking in the shared calendar (so
// initiators contend) plus the access latency. Storage with different read and write
// rates books each direction in a calendar of its own.
#include <memory>
#include <systemc>
#include <tlm>
#include <tlm_utils/multi_passthrough_target_socket.h>

#include "ptsim/tlm/activity_ledger.hpp"
#include "ptsim/tlm/bandwidth_calendar.hpp"
#include "ptsim/tlm/platform_config.hpp"

namespace ptsim::tlm {

class memory : public sc_core::sc_module {
 public:
  /// Any number of initiators (units, interconnects) bind here.
  tlm_utils::multi_passthrough_target_socket<memory> socket;

  memory(sc_core::sc_module_name name, const memory_config& cfg, double control_period_s);
  activity_ledger& ledger() { return ledger_; }
  const memory_config& config() const { return cfg_; }
  std::uint64_t transactions() const { return transactions_; }

 private:
  void b_transport(int port, ::tlm::tlm_generic_payload& trans, sc_core::sc_time& delay);
  memory_config cfg_;
  bandwidth_calendar calendar_;
  std::unique_ptr<bandwidth_calendar> write_calendar_;  ///< when writes have their own rate
  activity_ledger ledger_;
  std::uint64_t transactions_ = 0;
};

}  // namespace ptsim::tlm
