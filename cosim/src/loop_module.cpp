#include "loop_module.hpp"

#include <algorithm>
#include <string>

#include "ptsim/cosim/interrupt.hpp"

namespace ptsim::cosim {

// The unit's cpuidle governor (plain C++, power/idle_states) behind the TLM hook.
struct loop_module::idle_adapter : tlm::idle_selector {
  idle_adapter(std::vector<power::idle_state> st, double limit_s) : gov(std::move(st), limit_s) {}
  int select() override { return gov.select(); }
  void reflect(double idle_s) override { gov.reflect(idle_s); }
  power::idle_governor gov;
};

loop_module::~loop_module() = default;

loop_module::loop_module(sc_core::sc_module_name name, control_loop& loop, tlm::platform& plat, double period_s,
                         const std::vector<double>& transition_latency_s,
                         const std::vector<scenarios::component_power>& power)
    : sc_module(name), loop_(loop), plat_(plat), period_s_(period_s), latency_s_(transition_latency_s) {
  // The platform's components; power rows after them (fans) have no activity to gather.
  for (std::size_t ci = 0; ci < loop.input_components(); ++ci) {
    const std::string& c = loop.component_names()[ci];
    tlm::activity_ledger* l = nullptr;
    bool compute = false;
    tlm::compute_unit* unit = nullptr;
    for (const auto& u : plat.units())
      if (c == u->basename()) l = &u->ledger(), compute = true, unit = u.get();
    units_.push_back(unit);
    idle_seen_s_.emplace_back(unit ? unit->config().idle_states.size() : 0, 0.0);
    for (const auto& cp : power)
      if (unit && cp.component == c && !cp.idle_states.empty()) {
        idle_govs_.push_back(std::make_unique<idle_adapter>(cp.idle_states, cp.idle_latency_limit_s));
        unit->set_idle_selector(idle_govs_.back().get());
      }
    for (const auto& i : plat.interconnects())
      if (c == i->basename()) l = &i->ledger();
    tlm::memory* storage = nullptr;
    for (const auto& m : plat.memories())
      if (c == m->basename()) l = &m->ledger(), storage = m->config().power_states.empty() ? nullptr : m.get();
    storage_.push_back(storage);
    if (!l) throw std::logic_error("component '" + c + "' has no model in the platform");
    ledgers_.push_back(l);
    is_compute_.push_back(compute);
  }
  for (const auto& d : loop.domain_names()) clocks_.push_back(&plat.clock(d));
  comp_in_.resize(ledgers_.size());
  dom_in_.resize(clocks_.size());
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
    const tlm::period_activity a = ledgers_[i]->take(k_ - 1);
    component_input& c = comp_in_[i];
    c.compute_share = a.compute_s / period_s_;
    c.stall_share = a.stall_s / period_s_;
    c.overhead_share = a.overhead_s / period_s_;
    c.bytes_read = a.bytes_read;
    c.bytes_written = a.bytes_written;
    // Idle residency in the period: the unit's running totals up to now, less last tick's.
    if (tlm::compute_unit* u = units_[i]) {
      auto& seen = idle_seen_s_[i];
      c.idle_s.resize(seen.size());
      for (std::size_t s = 0; s < seen.size(); ++s) {
        const double total = u->idle_state_seconds(s, now);
        c.idle_s[s] = total - seen[s];
        seen[s] = total;
      }
    }
    // NVMe: seconds in each low-power state in the period.
    if (tlm::memory* m = storage_[i]) c.idle_s = m->take_power_state_seconds(k_ - 1, now);
  }
  for (std::size_t d = 0; d < clocks_.size(); ++d) {
    const auto avg = clocks_[d]->collect(now);
    dom_in_[d] = {avg.hz, avg.volts, avg.v2f};
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
