#include "ptsim/tlm_config/autocast.hpp"

#include "ptsim/tlm_config/operators.hpp"

namespace ptsim::tlm_config {

op_graph with_autocast_casts(const op_graph& g) {
  op_graph out = g;
  out.ops.clear();
  out.ops.reserve(g.ops.size());
  for (const op& o : g.ops) {
    const bool sixteen = o.prec == precision::fp16 || o.prec == precision::bf16;
    if (sixteen && (o.kind == op_kind::conv || o.kind == op_kind::gemm) && o.weight_bytes > 0) {
      const double weights = o.weight_bytes / element_bytes(o.prec);
      op c = elementwise_op(o.name + "_weight_cast", weights, 1, 0, o.prec);
      c.bytes_read = 4 * weights;  // the fp32 master copy
      c.bytes_written = 2 * weights;
      c.repeat = o.repeat;
      c.batch_invariant = true;
      out.ops.push_back(c);
    }
    out.ops.push_back(o);
  }
  return out;
}

}  // namespace ptsim::tlm_config
