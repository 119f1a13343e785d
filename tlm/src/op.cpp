#include "ptsim/tlm/op.hpp"

#include <stdexcept>

namespace ptsim::tlm {

const char* to_string(precision p) {
  switch (p) {
    case precision::fp32: return "fp32";
    case precision::fp16: return "fp16";
    case precision::bf16: return "bf16";
    case precision::fp8: return "fp8";
    case precision::int8: return "int8";
  }
  return "?";
}

precision parse_precision(const std::string& s) {
  if (s == "fp32") return precision::fp32;
  if (s == "fp16") return precision::fp16;
  if (s == "bf16") return precision::bf16;
  if (s == "fp8") return precision::fp8;
  if (s == "int8") return precision::int8;
  throw std::invalid_argument("unknown precision '" + s + "' (expected fp32, fp16, bf16, fp8 or int8)");
}

double element_bytes(precision p) {
  switch (p) {
    case precision::fp32: return 4;
    case precision::fp16:
    case precision::bf16: return 2;
    case precision::fp8:
    case precision::int8: return 1;
  }
  return 4;
}

const char* to_string(op_class c) {
  switch (c) {
    case op_class::tensor: return "tensor";
    case op_class::vector: return "vector";
    case op_class::scalar: return "scalar";
  }
  return "?";
}

double op_graph::total_ops() const {
  double s = 0;
  for (const auto& o : ops) s += o.ops;
  return s;
}

double op_graph::total_bytes() const {
  double s = 0;
  for (const auto& o : ops) s += o.bytes_read + o.bytes_written;
  return s;
}

}  // namespace ptsim::tlm
