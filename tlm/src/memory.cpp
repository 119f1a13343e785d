#include "ptsim/tlm/memory.hpp"

#include "sc_seconds.hpp"

namespace ptsim::tlm {

namespace {
constexpr double bucket_s = 1e-6;  // booking granularity: well below a tile's transfer time
}

memory::memory(sc_core::sc_module_name name, const memory_config& cfg, double control_period_s)
    : sc_module(name),
      socket("socket"),
      cfg_(cfg),
      calendar_(cfg.bandwidth_Bps * cfg.efficiency, bucket_s),
      ledger_(control_period_s) {
  if (cfg.write_bandwidth_Bps > 0)
    write_calendar_ = std::make_unique<bandwidth_calendar>(cfg.write_bandwidth_Bps * cfg.efficiency, bucket_s);
  socket.register_b_transport(this, &memory::b_transport);
}

void memory::b_transport(int /*port*/, ::tlm::tlm_generic_payload& trans, sc_core::sc_time& delay) {
  const double now = detail::now_s();
  const double start = now + delay.to_seconds();
  const double bytes = trans.get_data_length();
  bandwidth_calendar& cal = (write_calendar_ && trans.is_write()) ? *write_calendar_ : calendar_;
  cal.retire_before(now);
  const double done = cal.reserve(start, bytes) + cfg_.latency.value();
  if (trans.is_read()) ledger_.add_bytes(start, bytes, 0);
  else ledger_.add_bytes(start, 0, bytes);
  ++transactions_;
  delay = detail::to_sc(done - now);
  trans.set_response_status(::tlm::TLM_OK_RESPONSE);
}

}  // namespace ptsim::tlm
