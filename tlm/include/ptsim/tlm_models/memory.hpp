#pragma once
// A target that stores or sinks bytes, as a loosely-timed TLM-2.0 target: DRAM (LPDDR,
// DDR, HBM), NVMe storage or a NIC. Timing only: the payload's data is not stored. A
// transaction's completion is its bandwidth booking in the shared calendar (so
// initiators contend) plus the access latency. Storage with different read and write
// rates books each direction in a calendar of its own. NVMe with power states (APST,
// nvme_apst.hpp) delays an I/O that finds the drive in a non-operational state by the
// wake-up, and books per control period the seconds resident in each state. With temporal
// decoupling I/Os are seen in booking order: one starting before the last completion finds
// the drive busy (no wake-up).
#include <cstdint>
#include <deque>
#include <memory>
#include <systemc>
#include <tlm>
#include <tlm_utils/multi_passthrough_target_socket.h>

#include "ptsim/tlm_models/activity_ledger.hpp"
#include "ptsim/tlm_models/bandwidth_calendar.hpp"
#include "ptsim/tlm_models/domain_clock.hpp"
#include "ptsim/tlm_config/platform_config.hpp"

namespace ptsim::tlm_models {
// The models speak the vocabulary of the descriptions they run (ptsim/tlm_config).
using namespace tlm_config;

class memory : public sc_core::sc_module {
 public:
  /// Any number of initiators (units, interconnects) bind here.
  tlm_utils::multi_passthrough_target_socket<memory> socket;

  memory(sc_core::sc_module_name name, const memory_config& cfg, double control_period_s);
  activity_ledger& ledger() { return ledger_; }
  const memory_config& config() const { return cfg_; }
  /// Memory DVFS: the clock of config().domain (top at config().clock_max_hz), which sets
  /// the bandwidth from now on.
  void set_clock(const domain_clock* clock);
  std::uint64_t transactions() const { return transactions_; }
  /// NVMe: seconds resident in each power state (like config().power_states) during control
  /// period `index`, returned once; `now_s` (the period's end, the kernel's time) closes the
  /// idle time up to it, which no later I/O can start before.
  std::vector<double> take_power_state_seconds(std::int64_t index, double now_s);
  /// NVMe: wake-ups paid so far and their summed delay.
  std::uint64_t wakeups() const { return wakeups_; }
  double wake_delay_s() const { return wake_delay_s_; }

 private:
  void b_transport(int port, tlm::tlm_generic_payload& trans, sc_core::sc_time& delay);
  memory_config cfg_;
  bandwidth_calendar calendar_;
  std::unique_ptr<bandwidth_calendar> write_calendar_;  ///< when writes have their own rate
  activity_ledger ledger_;
  const domain_clock* clock_ = nullptr;
  std::uint64_t transactions_ = 0;
  // NVMe power states
  void book_residency(double t0, double t1);
  std::unique_ptr<nvme_apst> apst_;
  double last_done_s_ = 0;      ///< completion of the latest I/O (idle since, when before now)
  double counted_until_s_ = 0;  ///< residency booked up to here
  std::int64_t res_base_ = 0;
  std::deque<std::vector<double>> res_periods_;
  std::uint64_t wakeups_ = 0;
  double wake_delay_s_ = 0;
  double period_s_;
};

}  // namespace ptsim::tlm_models
