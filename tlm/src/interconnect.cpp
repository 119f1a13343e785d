#include "ptsim/tlm_models/interconnect.hpp"

#include <algorithm>
#include <stdexcept>

#include "sc_seconds.hpp"

namespace ptsim::tlm_models {

interconnect::interconnect(sc_core::sc_module_name name, const interconnect_config& cfg, double control_period_s)
    : sc_module(name),
      target("target"),
      initiator("initiator"),
      cfg_(cfg),
      calendar_(cfg.bandwidth_Bps, calendar_bucket_s),
      ledger_(control_period_s) {
  if (cfg.duplex) write_calendar_ = std::make_unique<bandwidth_calendar>(cfg.bandwidth_Bps, calendar_bucket_s);
  target.register_b_transport(this, &interconnect::b_transport);
}

void interconnect::b_transport(int /*port*/, tlm::tlm_generic_payload& trans, sc_core::sc_time& delay) {
  const double now = detail::now_s();
  const double start = now + delay.to_seconds();
  const double bytes = trans.get_data_length();
  bandwidth_calendar& cal = (write_calendar_ && trans.is_write()) ? *write_calendar_ : calendar_;
  cal.retire_before(now);
  const double lat = cfg_.latency.value();
  const double link_done = cal.reserve(start, bytes) + lat;
  if (trans.is_read()) ledger_.add_bytes(start, bytes, 0);
  else ledger_.add_bytes(start, 0, bytes);
  ++transactions_;
  const auto id = trans.get_address() >> target_address_shift;
  const route r = id < routes_.size() ? routes_[id] : route{no_route, 0};
  const int port = r.port;
  if (port == no_route) {
    trans.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
    return;
  }
  if (port < 0) {  // terminal: the transfer ends here
    delay = detail::to_sc(link_done - now);
    trans.set_response_status(tlm::TLM_OK_RESPONSE);
    return;
  }
  // Downstream streams the same bytes concurrently (pipelined): the slower one sets the
  // pace, and the last byte through this hop still crosses the rest of the path.
  sc_core::sc_time fwd = delay + detail::to_sc(lat);
  initiator[port]->b_transport(trans, fwd);
  const double down_done = now + fwd.to_seconds();
  delay = detail::to_sc(std::max(link_done + r.downstream_latency_s, down_done) - now);
}

}  // namespace ptsim::tlm_models
