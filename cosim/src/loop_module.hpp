#pragma once
// SystemC adapter of the closed loop: an SC_METHOD every control period gathers the
// platform's activity for the period just ended, runs control_loop::tick, and applies
// its DVFS decisions to the domain clocks (effective after the transition latency).
#include <functional>
#include <memory>
#include <systemc>
#include <vector>

#include "ptsim/cosim/control_loop.hpp"
#include "ptsim/tlm_models/platform.hpp"

namespace ptsim::cosim {

class loop_module : public sc_core::sc_module {
 public:
  /// `sc` gives the components by role and index, and each compute unit's idle states:
  /// the module runs a cpuidle governor for every unit that has some.
  loop_module(sc_core::sc_module_name name, control_loop& loop, tlm_models::platform& plat, double period_s,
              const std::vector<double>& transition_latency_s, const scenarios::scenario& sc);
  ~loop_module() override;
  /// Called after every tick (recording, progress, summary accumulation).
  std::function<void(double now_s, const std::vector<dvfs_decision>&)> after_tick;
  /// Set when the loop failed (e.g. thermal runaway); the simulation is stopped.
  std::string error;
  /// false: each tick only drains the ledgers and clocks (no loop work, no after_tick).
  bool enabled = true;

 private:
  void tick();
  control_loop& loop_;
  double period_s_;
  std::vector<double> latency_s_;
  std::int64_t k_ = 0;
  bool started_ = false;
  // component index -> where its activity comes from
  std::vector<tlm_models::activity_ledger*> ledgers_;
  std::vector<tlm_models::compute_unit*> units_;           // component index -> unit (null: not compute)
  std::vector<std::vector<double>> idle_seen_s_;    // per unit and state: residency already taken
  std::vector<tlm_models::memory*> storage_;               // component index -> NVMe with power states (else null)
  struct idle_adapter;
  std::vector<std::unique_ptr<idle_adapter>> idle_govs_;
  std::vector<tlm_models::domain_clock*> clocks_;
  std::vector<component_input> comp_in_;
  std::vector<domain_input> dom_in_;
  // The CPU scheduler (policy.scheduler: eas; else null): per its domain, the loop's domain
  // index; per loop domain, its performance domain or -1.
  tlm_config::cpu_scheduler* sched_ = nullptr;
  std::vector<std::size_t> sched_dom_of_;
  std::vector<std::ptrdiff_t> pd_of_dom_;
  std::vector<double> sched_scale_, sched_cpu_, sched_task_;
};

}  // namespace ptsim::cosim
