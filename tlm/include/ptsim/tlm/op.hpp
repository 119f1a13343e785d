#pragma once
// ML operators as the workload engine issues them: arithmetic and memory traffic.
#include <cstdint>
#include <string>
#include <vector>

namespace ptsim::tlm {

enum class precision { fp32, fp16, bf16, fp8, int8 };
const char* to_string(precision p);
/// Parses "fp32", "fp16", "bf16", "fp8", "int8"; throws std::invalid_argument otherwise.
precision parse_precision(const std::string& s);
/// Bytes per element.
double element_bytes(precision p);

/// Which execution resource an operator mostly uses (its activity weight class).
enum class op_class { tensor, vector, scalar };
const char* to_string(op_class c);

struct op {
  std::string name;    ///< e.g. "conv2d_3x3", "dwconv_3x3", "gemm", "resize"
  op_class cls = op_class::tensor;
  double ops = 0;      ///< arithmetic operations (a MAC counts as 2)
  double bytes_read = 0;     ///< weights + input activations (B)
  double bytes_written = 0;  ///< output activations (B)
};

/// A model as a sequence of operators run on one unit.
struct op_graph {
  std::string name;
  precision prec = precision::int8;
  std::vector<op> ops;
  double total_ops() const;
  double total_bytes() const;
};

}  // namespace ptsim::tlm
