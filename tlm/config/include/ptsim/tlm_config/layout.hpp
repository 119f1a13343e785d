#pragma once
// The activation layout a framework keeps its tensors in, and what it costs a GPU's
// tensor-core convolutions. Plain C++.
#include <string>
#include <vector>

#include "ptsim/tlm_config/op.hpp"
#include "ptsim/tlm_config/platform_config.hpp"

namespace ptsim::tlm_config {

/// nchw: PyTorch's default (channels first); nhwc: channels last (torch.channels_last,
/// DeepLearningExamples' --memory-format nhwc).
enum class memory_format { nchw, nhwc };
const char* to_string(memory_format f);
/// Parses "nchw" or "nhwc"; throws std::invalid_argument otherwise.
memory_format parse_memory_format(const std::string& s);
std::vector<std::string> memory_format_names();

/// Tensor cores take channels-last operands: given NCHW tensors, cuDNN transposes a
/// convolution's inputs to NHWC before it and its output back after it, each a kernel of
/// its own that reads and writes the tensor (MosaicML Composer's Channels Last method card;
/// NVIDIA's Deep Learning Performance guide). Returns the graph with those transposes around
/// every convolution (backward ones too) that runs on `unit`'s tensor path, named
/// `<conv>_to_nhwc` and `<conv>_to_nchw`, launched from the convolution's own library call
/// (no host issue of their own). Convolutions on the vector units (FP32 on a V100) read NCHW
/// as it is: nothing added. The filters' transposes (a few MB a step) are left out.
op_graph with_layout_transposes(const op_graph& g, const compute_unit_config& unit);

}  // namespace ptsim::tlm_config
