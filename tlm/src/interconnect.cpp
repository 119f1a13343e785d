#include "ptsim/tlm/interconnect.hpp"

#include <algorithm>

namespace ptsim::tlm {

interconnect::interconnect(sc_core::sc_module_name name, const interconnect_config& cfg, double control_period_s)
    : sc_module(name),
      target("target"),
      initiator("initiator"),
      cfg_(cfg),
      calendar_(cfg.bandwidth_Bps, 1e-6),
      ledger_(control_period_s) {
  target.register_b_transport(this, &interconnect::b_transport);
}

void interconnect::b_transport(int /*port*/, ::tlm::tlm_generic_payload& trans, sc_core::sc_time& delay) {
  const double now = sc_core::sc_time_stamp().to_seconds();
  const double start = now + delay.to_seconds();
  const double bytes = trans.get_data_length();
  calendar_.retire_before(now);
  // Link and memory stream the tile concurrently (pipelined): the slower one sets the pace.
  const double link_done = calendar_.reserve(start, bytes) + cfg_.latency.value();
  if (trans.is_read()) ledger_.add_bytes(start, bytes, 0);
  else ledger_.add_bytes(start, 0, bytes);
  sc_core::sc_time fwd = delay + sc_core::sc_time(cfg_.latency.value(), sc_core::SC_SEC);
  initiator->b_transport(trans, fwd);
  const double mem_done = now + fwd.to_seconds();
  delay = sc_core::sc_time(std::max(link_done, mem_done) - now, sc_core::SC_SEC);
}

}  // namespace ptsim::tlm
