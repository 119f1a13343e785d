#include "ptsim/tlm_config/host_work.hpp"

namespace ptsim::tlm_config {

double host_iteration_seconds(const host_work_config& h, double sequences, double tokens) {
  return h.per_iteration_s + h.per_sequence_s * sequences + h.per_token_s * tokens;
}

op host_work_op(const std::string& name, double seconds, double share) {
  op o;
  o.name = name;
  o.kind = op_kind::other;
  o.cls = op_class::vector;
  o.prec = precision::fp32;
  o.host_s = seconds;
  o.host_share = share;
  return o;
}

}  // namespace ptsim::tlm_config
