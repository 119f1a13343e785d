#pragma once
// NVMe Autonomous Power State Transitions (APST), timing only (their power belongs to the
// power model). PS0 is the operational state; the non-operational states below are listed
// shallow to deep. After the last I/O completes at L, the drive idles in PS0 until
// L + idle_after_1, then enters state 1: the entry takes entry_latency_1 (drawing the
// shallower state's power), after which it is resident in state 1 until L + idle_after_2,
// and so on. (The drive's own table counts each state's idle time from entering the one
// before; here the times are from the last I/O, which is what a scenario states.) An I/O
// arriving while the drive is in state k waits for what is left of the entry into k plus
// exit_latency_k before it starts. Plain C++.
#include <string>
#include <vector>

namespace ptsim::tlm_config {

struct nvme_state_timing {
  std::string name;
  double idle_after_s = 0;     ///< idle time since the last I/O completed before entering
  double entry_latency_s = 0;  ///< time to enter (ENLAT)
  double exit_latency_s = 0;   ///< time to return to PS0 (EXLAT), paid by the next I/O
};

class nvme_apst {
 public:
  /// Throws std::invalid_argument unless each state starts after the previous one's entry
  /// has finished (idle_after_k >= idle_after_{k-1} + entry_latency_{k-1}), and times >= 0.
  explicit nvme_apst(std::vector<nvme_state_timing> states);
  const std::vector<nvme_state_timing>& states() const { return states_; }
  /// Adds to out[k] the seconds resident in state k during [t0, t1) of an idle period that
  /// began when the last I/O completed at last_io_s (last_io_s <= t0; out sized like states).
  void add_residency(double last_io_s, double t0, double t1, std::vector<double>& out) const;
  /// Delay before an I/O arriving at t (>= last_io_s, drive idle since then) can start.
  double wake_delay(double last_io_s, double t) const;

 private:
  std::vector<nvme_state_timing> states_;
};

}  // namespace ptsim::tlm_config
