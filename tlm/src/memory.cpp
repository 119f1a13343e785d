#include "ptsim/tlm_models/memory.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "ptsim/tlm_models/memory_occupancy.hpp"
#include "sc_seconds.hpp"

namespace ptsim::tlm_models {

memory::memory(sc_core::sc_module_name name, const memory_config& cfg, double control_period_s)
    : sc_module(name),
      socket("socket"),
      cfg_(cfg),
      calendar_(cfg.bandwidth_Bps * cfg.efficiency, calendar_bucket_s),
      ledger_(control_period_s),
      period_s_(control_period_s) {
  if (!cfg.power_states.empty()) apst_ = std::make_unique<nvme_apst>(cfg.power_states);
  if (cfg.write_bandwidth_Bps > 0)
    write_calendar_ = std::make_unique<bandwidth_calendar>(cfg.write_bandwidth_Bps * cfg.efficiency, calendar_bucket_s);
  socket.register_b_transport(this, &memory::b_transport);
}

void memory::set_clock(const domain_clock* clock) {
  if (clock && !(cfg_.clock_max_hz > 0))
    throw std::invalid_argument("memory '" + cfg_.name + "': a clock needs the domain's top frequency");
  clock_ = clock;
}

void memory::b_transport(int /*port*/, tlm::tlm_generic_payload& trans, sc_core::sc_time& delay) {
  const double now = detail::now_s();
  double start = now + delay.to_seconds();
  const double bytes = trans.get_data_length();
  if (apst_ && start > last_done_s_) {
    // The drive has been idle since the last completion: book where it rested, then wake it.
    book_residency(std::max(last_done_s_, counted_until_s_), start);
    const double wake = apst_->wake_delay(last_done_s_, start);
    if (wake > 0) ++wakeups_, wake_delay_s_ += wake;
    start += wake;
  }
  bandwidth_calendar& cal = (write_calendar_ && trans.is_write()) ? *write_calendar_ : calendar_;
  cal.retire_before(now);
  // An access pattern below streaming efficiency holds the bandwidth longer; the ledger
  // (energy) still books the bytes moved.
  const auto* occ = trans.get_extension<memory_occupancy>();
  double held = occ ? bytes * occ->factor : bytes;
  if (clock_) held *= cfg_.clock_max_hz / clock_->hz_at(start);
  const double done = cal.reserve(start, held) + cfg_.latency.value();
  if (trans.is_read()) ledger_.add_bytes(start, bytes, 0);
  else ledger_.add_bytes(start, 0, bytes);
  ++transactions_;
  if (apst_) last_done_s_ = std::max(last_done_s_, done);
  delay = detail::to_sc(done - now);
  trans.set_response_status(tlm::TLM_OK_RESPONSE);
}

void memory::book_residency(double t0, double t1) {
  if (!(t1 > t0)) return;
  counted_until_s_ = std::max(counted_until_s_, t1);
  const std::size_t n = apst_->states().size();
  // Split [t0, t1) at period boundaries into the periods' buckets.
  auto k = static_cast<std::int64_t>(std::floor(t0 / period_s_));
  for (double a = t0; a < t1; ++k) {
    const double b = std::min(t1, static_cast<double>(k + 1) * period_s_);
    if (k >= res_base_) {
      while (res_base_ + static_cast<std::int64_t>(res_periods_.size()) <= k) res_periods_.emplace_back(n, 0.0);
      apst_->add_residency(last_done_s_, a, b, res_periods_[static_cast<std::size_t>(k - res_base_)]);
    }
    a = b;
  }
}

std::vector<double> memory::take_power_state_seconds(std::int64_t index, double now_s) {
  if (!apst_) return {};
  if (now_s > last_done_s_) book_residency(std::max(last_done_s_, counted_until_s_), now_s);
  std::vector<double> out(apst_->states().size(), 0.0);
  while (res_base_ <= index) {
    if (!res_periods_.empty()) {
      if (res_base_ == index) out = std::move(res_periods_.front());
      res_periods_.pop_front();
    }
    ++res_base_;
  }
  return out;
}

}  // namespace ptsim::tlm_models
