#pragma once
// An interconnect: a NoC or bus, a PCIe or NVLink link, or a switch. Each adds a latency
// and has a bandwidth of its own, in series with what lies behind it (the slower of the
// two sets the pace of a transfer). Transactions are routed by address: the platform
// gives every target an address range and each interconnect a table from target to
// downstream port. An interconnect with nothing downstream is a terminal: collectives
// cross it and end there (an NVSwitch, or a direct link between two GPUs). Full-duplex
// links book reads and writes in separate calendars. Loosely timed, timing only.
#include <vector>
#include <memory>
#include <systemc>
#include <tlm>
#include <tlm_utils/multi_passthrough_initiator_socket.h>
#include <tlm_utils/multi_passthrough_target_socket.h>

#include "ptsim/tlm_models/activity_ledger.hpp"
#include "ptsim/tlm_models/bandwidth_calendar.hpp"
#include "ptsim/tlm_config/platform_config.hpp"

namespace ptsim::tlm_models {
// The models speak the vocabulary of the descriptions they run (ptsim/tlm_config).
using namespace tlm_config;

class interconnect : public sc_core::sc_module {
 public:
  /// Upstream initiators bind here (units, other interconnects).
  tlm_utils::multi_passthrough_target_socket<interconnect> target;
  /// Bound to each downstream component, in the order of config().connect.
  tlm_utils::multi_passthrough_initiator_socket_optional<interconnect> initiator;

  interconnect(sc_core::sc_module_name name, const interconnect_config& cfg, double control_period_s);
  activity_ledger& ledger() { return ledger_; }
  const interconnect_config& config() const { return cfg_; }
  /// Routes target `id` through downstream port `port`.
  /// Routes target `id` through downstream port `port` (-1: this interconnect is the
  /// target); `downstream_latency_s` is the latency of the rest of the path.
  void add_route(std::uint64_t id, int port, double downstream_latency_s = 0) {
    if (routes_.size() <= id) routes_.resize(id + 1, route{no_route, 0});
    routes_[id] = {port, downstream_latency_s};
  }
  std::uint64_t transactions() const { return transactions_; }

 private:
  void b_transport(int port, tlm::tlm_generic_payload& trans, sc_core::sc_time& delay);
  interconnect_config cfg_;
  bandwidth_calendar calendar_;                         ///< reads (or both directions)
  std::unique_ptr<bandwidth_calendar> write_calendar_;  ///< writes, on duplex links
  activity_ledger ledger_;
  static constexpr int no_route = -2;
  struct route {
    int port;
    double downstream_latency_s;
  };
  std::vector<route> routes_;  ///< by target id
  std::uint64_t transactions_ = 0;
};

/// Address bits above this select the target (the platform's address map).
inline constexpr int target_address_shift = 40;

}  // namespace ptsim::tlm_models
