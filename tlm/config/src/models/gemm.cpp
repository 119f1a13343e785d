// A single matrix multiply, for micro-benchmarks and roofline checks.
#include "layers.hpp"
#include "models.hpp"

namespace ptsim::tlm_config::models {

op_graph gemm(const model_params& p, precision prec) {
  op_graph g;
  g.name = "gemm";
  g.prec = prec;
  op o = gemm_op("gemm", p.at("batch") * p.at("m"), p.at("n"), p.at("k"), prec);
  g.ops.push_back(o);
  return g;
}

}  // namespace ptsim::tlm_config::models
