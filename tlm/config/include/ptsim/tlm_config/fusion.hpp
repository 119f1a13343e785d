#pragma once
// Operator fusion: which of a graph's operators run as one kernel, as an inference
// compiler or a framework's fused kernels do it. A fused kernel does the same arithmetic
// as its parts; the intermediate activations between them stay on chip, so their write
// and read to memory go away. Plain C++ (no SystemC).
#include <string>
#include <vector>

#include "ptsim/tlm_config/op.hpp"

namespace ptsim::tlm_config {

/// A rule set. The model builders' graphs are the `eager` kernels; the others change them.
///  - eager: a framework in eager mode (PyTorch): attention is one fused kernel
///    (torch.nn.functional.scaled_dot_product_attention dispatches to FlashAttention-2 or the
///    memory-efficient kernel, PyTorch 2.x docs), every GEMM, convolution, norm and
///    elementwise operator its own kernel. ResNet-50 runs each batch norm and ReLU as a
///    kernel of its own, as eager PyTorch does; the other CNNs of the zoo fold them into the
///    convolution (as inference exports do).
///  - none: no fusion at all: attention runs as scores (QK^T), softmax and context (PV),
///    the score and probability matrices written to memory and read back (PyTorch's SDPA
///    math backend, or a framework without fused attention), with the scaling and masking
///    passes before the softmax where the model's code runs them apart (op::pre_softmax_passes).
///  - tensorrt: an inference compiler (TensorRT's layer fusion catalog: convolution or
///    fully-connected/matmul followed by pointwise operations, e.g. bias, ReLU/GELU and a
///    residual ElementWise sum; multi-head attention fused): a convolution or GEMM takes
///    the elementwise operators that consume its output into its epilogue.
/// (enum class fusion_rules is in op.hpp: each operator records its rule set.)
const char* to_string(fusion_rules r);
/// Parses the names printed by to_string; throws std::invalid_argument otherwise.
fusion_rules parse_fusion_rules(const std::string& s);
/// Every rule set's name, for the scenario schema.
std::vector<std::string> fusion_rule_names();

/// The graph as the rule set's kernels. A fused operator is named after its parts joined
/// by '+' ("conv_1x1_expand+residual_add"), has their summed ops and weights, reads what
/// its parts read from outside it and writes what its last part writes.
op_graph fuse(const op_graph& g, fusion_rules r);

}  // namespace ptsim::tlm_config
