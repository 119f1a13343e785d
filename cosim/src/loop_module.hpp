#pragma once
// SystemC adapter of the closed loop: an SC_METHOD every control period gathers the
// platform's activity for the period just ended, runs control_loop::tick, and applies
// its DVFS decisions to the domain clocks (effective after the transition latency).
#include <functional>
#include <systemc>
#include <vector>

#include "ptsim/cosim/control_loop.hpp"
#include "ptsim/tlm/platform.hpp"

namespace ptsim::cosim {

class loop_module : public sc_core::sc_module {
 public:
  loop_module(sc_core::sc_module_name name, control_loop& loop, tlm::platform& plat, double period_s,
              const std::vector<double>& transition_latency_s);
  /// Called after every tick (recording, progress, summary accumulation).
  std::function<void(double now_s, const std::vector<dvfs_decision>&)> after_tick;
  /// Set when the loop failed (e.g. thermal runaway); the simulation is stopped.
  std::string error;
  /// false: each tick only drains the ledgers and clocks (no loop work, no after_tick).
  bool enabled = true;

 private:
  void tick();
  control_loop& loop_;
  tlm::platform& plat_;
  double period_s_;
  std::vector<double> latency_s_;
  std::int64_t k_ = 0;
  bool started_ = false;
  // component index -> where its activity comes from
  std::vector<tlm::activity_ledger*> ledgers_;
  std::vector<bool> is_compute_;
  std::vector<tlm::domain_clock*> clocks_;
  std::vector<component_input> comp_in_;
  std::vector<domain_input> dom_in_;
};

}  // namespace ptsim::cosim
