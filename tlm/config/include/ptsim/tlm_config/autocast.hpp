#pragma once
// Mixed precision as eager frameworks run it (PyTorch's autocast): the weights stay in fp32
// and each forward pass casts them to the 16-bit precision it computes in. Plain C++.
#include "ptsim/tlm_config/op.hpp"

namespace ptsim::tlm_config {

/// Inserts before each operator with weights (a convolution or a GEMM holding
/// weight_bytes) a kernel casting its fp32 weights to the graph's 16-bit precision:
/// `<op>_weight_cast`, reading 4 B and writing 2 B per weight, issued by the framework like
/// any kernel, its size independent of the batch (batch_invariant). Autocast caches a cast
/// only within one autocast region, which one forward pass is: the cast is paid every pass.
/// A graph whose operators are not fp16 or bf16 comes back unchanged. A training step built
/// on the result (training_step) gives each cast its backward, the weight gradient's cast.
op_graph with_autocast_casts(const op_graph& g);

}  // namespace ptsim::tlm_config
