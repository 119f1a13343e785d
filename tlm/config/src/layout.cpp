#include "ptsim/tlm_config/layout.hpp"

#include <stdexcept>

#include "ptsim/tlm_config/operators.hpp"
#include "ptsim/tlm_config/topology.hpp"

namespace ptsim::tlm_config {

const char* to_string(memory_format f) { return f == memory_format::nhwc ? "nhwc" : "nchw"; }

memory_format parse_memory_format(const std::string& s) {
  for (auto f : {memory_format::nchw, memory_format::nhwc})
    if (s == to_string(f)) return f;
  throw std::invalid_argument("unknown memory format '" + s + "' (expected nchw or nhwc)");
}

std::vector<std::string> memory_format_names() { return {"nchw", "nhwc"}; }

namespace {

// One transpose kernel: reads the tensor and writes it in the other layout.
op transpose(const op& conv, const std::string& suffix, double bytes) {
  op t = elementwise_op(conv.name + suffix, bytes / element_bytes(conv.prec), 0, 1, conv.prec);
  t.repeat = conv.repeat;
  t.batch_invariant = conv.batch_invariant;
  t.rules = conv.rules;
  t.same_call = true;
  return t;
}

}  // namespace

op_graph with_layout_transposes(const op_graph& g, const compute_unit_config& unit) {
  op_graph out = g;
  out.ops.clear();
  out.ops.reserve(g.ops.size());
  for (const op& o : g.ops) {
    if (o.kind != op_kind::conv || !on_tensor_path(unit, o)) {
      out.ops.push_back(o);
      continue;
    }
    out.ops.push_back(transpose(o, "_to_nhwc", o.bytes_read - o.weight_bytes));
    out.ops.push_back(o);
    out.ops.push_back(transpose(o, "_to_nchw", o.bytes_written));
  }
  return out;
}

}  // namespace ptsim::tlm_config
