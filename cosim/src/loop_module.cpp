#include "loop_module.hpp"

#include <algorithm>
#include <string>

#include "ptsim/cosim/interrupt.hpp"

namespace ptsim::cosim {

// The unit's cpuidle governor (plain C++, power/idle_states) behind the TLM hook.
struct loop_module::idle_adapter : tlm_models::idle_selector {
  idle_adapter(std::vector<power::idle_state> st, double limit_s) : gov(std::move(st), limit_s) {}
  int select() override { return gov.select(); }
  void reflect(double idle_s) override { gov.reflect(idle_s); }
  power::idle_governor gov;
};

loop_module::~loop_module() = default;

loop_module::loop_module(sc_core::sc_module_name name, control_loop& loop, tlm_models::platform& plat, double period_s,
                         const std::vector<double>& transition_latency_s, const scenarios::scenario& sc)
    : sc_module(name), loop_(loop), period_s_(period_s), latency_s_(transition_latency_s) {
  // The platform's components, by role and index as resolved (the loop's inputs, in the
  // same order); power rows after them (fans, base) have no activity to gather.
  for (const auto& ref : sc.components) {
    tlm_models::compute_unit* unit = nullptr;
    tlm_models::memory* storage = nullptr;
    switch (ref.role) {
      case tlm_config::component_role::compute:
        unit = plat.units().at(ref.index).get();
        ledgers_.push_back(&unit->ledger());
        break;
      case tlm_config::component_role::interconnect: ledgers_.push_back(&plat.interconnects().at(ref.index)->ledger()); break;
      case tlm_config::component_role::target: {
        tlm_models::memory& m = *plat.memories().at(ref.index);
        ledgers_.push_back(&m.ledger());
        if (!m.config().power_states.empty()) storage = &m;
        break;
      }
    }
    units_.push_back(unit);
    storage_.push_back(storage);
    idle_seen_s_.emplace_back(unit ? unit->config().idle_states.size() : 0, 0.0);
    const scenarios::component_power& cp = sc.power[ref.power];
    if (unit && !cp.idle_states.empty()) {
      idle_govs_.push_back(std::make_unique<idle_adapter>(cp.idle_states, cp.idle_latency_limit_s));
      unit->set_idle_selector(idle_govs_.back().get());
    }
  }
  if (ledgers_.size() != loop.input_components()) throw std::logic_error("the loop and the platform differ in components");
  for (const auto& d : loop.domain_names()) clocks_.push_back(&plat.clock(d));
  comp_in_.resize(ledgers_.size());
  dom_in_.resize(clocks_.size());
  pd_of_dom_.assign(clocks_.size(), -1);
  if ((sched_ = plat.workload().scheduler())) {
    const auto& names = loop.domain_names();
    for (std::size_t pd = 0; pd < sched_->config().domains.size(); ++pd) {
      const auto it = std::find(names.begin(), names.end(), sched_->config().domains[pd].name);
      if (it == names.end()) throw std::logic_error("the scheduler's domain is not the loop's");
      sched_dom_of_.push_back(static_cast<std::size_t>(it - names.begin()));
      pd_of_dom_[sched_dom_of_.back()] = static_cast<std::ptrdiff_t>(pd);
    }
    sched_scale_.resize(sched_dom_of_.size());
    sched_cpu_.resize(sched_->config().cpus.size());
    sched_task_.resize(sched_->tasks());
  }
  // SystemC reports sc_stop() as an info message on stdout; stdout is ptsim's own.
  sc_core::sc_report_handler::set_actions(sc_core::SC_INFO, sc_core::SC_DO_NOTHING);
  SC_HAS_PROCESS(loop_module);
  SC_METHOD(tick);  // first runs at t = 0 to schedule the first tick at T
}

void loop_module::tick() {
  if (!started_) {
    started_ = true;
    next_trigger(sc_core::sc_time(period_s_, sc_core::SC_SEC));
    return;
  }
  if (const int sig = interrupt_signal()) {
    error = "interrupted by signal " + std::to_string(sig);
    sc_core::sc_stop();
    return;
  }
  ++k_;
  // Period k-1 is [(k-1)T, kT); multiplying avoids drift from summing T.
  const double now = static_cast<double>(k_) * period_s_;
  for (std::size_t i = 0; i < ledgers_.size(); ++i) {
    const tlm_models::period_activity a = ledgers_[i]->take(k_ - 1);
    component_input& c = comp_in_[i];
    c.compute_share = a.compute_s / period_s_;
    c.quiet_share = a.quiet_s / period_s_;
    c.stall_share = a.stall_s / period_s_;
    c.overhead_share = a.overhead_s / period_s_;
    c.bytes_read = a.bytes_read;
    c.bytes_written = a.bytes_written;
    // Idle residency in the period: the unit's running totals up to now, less last tick's.
    if (tlm_models::compute_unit* u = units_[i]) {
      auto& seen = idle_seen_s_[i];
      c.idle_s.resize(seen.size());
      for (std::size_t s = 0; s < seen.size(); ++s) {
        const double total = u->idle_state_seconds(s, now);
        c.idle_s[s] = total - seen[s];
        seen[s] = total;
      }
    }
    // NVMe: seconds in each low-power state in the period.
    if (tlm_models::memory* m = storage_[i]) c.idle_s = m->take_power_state_seconds(k_ - 1, now);
  }
  for (std::size_t d = 0; d < clocks_.size(); ++d) {
    const auto avg = clocks_[d]->collect(now);
    dom_in_[d] = {avg.hz, avg.volts, avg.v2f, -1};
  }
  if (sched_) {
    // PELT advances with each domain's mean frequency over the period; schedutil then reads
    // the tasks' utilisation instead of the busy share.
    for (std::size_t pd = 0; pd < sched_dom_of_.size(); ++pd)
      sched_scale_[pd] = dom_in_[sched_dom_of_[pd]].avg_hz / sched_->config().domains[pd].freq_hz.back();
    sched_->tick(now, sched_scale_);
    for (std::size_t d = 0; d < dom_in_.size(); ++d)
      if (pd_of_dom_[d] >= 0) dom_in_[d].sched_util = sched_->domain_util(static_cast<std::size_t>(pd_of_dom_[d]));
    for (std::size_t c = 0; c < sched_cpu_.size(); ++c) sched_cpu_[c] = sched_->cpu_sched_util(c);
    for (std::size_t t = 0; t < sched_task_.size(); ++t) sched_task_[t] = sched_->task_util(t);
    loop_.set_sched_sample(sched_cpu_, sched_task_);  // copies into the loop's vectors: no allocation per tick
  }
  if (enabled) try {
    const auto& decisions = loop_.tick(now, comp_in_, dom_in_);
    for (const auto& dec : decisions) clocks_[dec.domain]->request(now, dec.hz, dec.volts, now + latency_s_[dec.domain]);
    if (after_tick) after_tick(now, decisions);
  } catch (const std::exception& e) {
    error = e.what();
    sc_core::sc_stop();
    return;
  }
  // Next tick at (k+1)T exactly, from the kernel's current time.
  const double next = static_cast<double>(k_ + 1) * period_s_;
  next_trigger(sc_core::sc_time(next, sc_core::SC_SEC) - sc_core::sc_time_stamp());
}

}  // namespace ptsim::cosim
