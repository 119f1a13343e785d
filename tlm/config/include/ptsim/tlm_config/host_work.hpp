#pragma once
// Host software around the accelerators: a serving engine's per-iteration work
// (scheduling, preparing inputs, sampling and detokenising: vLLM, TensorRT-LLM) or a
// training loop's per-step Python. It runs as an operator on a host CPU unit, so it
// draws power there and shows in that unit's busy time, and it either holds the
// accelerators up (synchronous) or overlaps their previous iteration (asynchronous).
// Plain C++.
#include <string>
#include <vector>

#include "ptsim/tlm_config/op.hpp"

namespace ptsim::tlm_config {

enum class host_scheduling {
  synchronous,   ///< the accelerators wait for the host's work before each iteration
  asynchronous,  ///< the host prepares iteration k+1 while iteration k runs: max of the two
};

struct host_work_config {
  std::string unit;  ///< host CPU unit that runs it ("": no host work modelled)
  /// CPU clusters it runs on as a scheduler task placed by energy-aware scheduling (unit is
  /// the first); empty: fixed seconds on `unit`. As a task its seconds are those of the
  /// biggest CPU (capacity 1024) at its top clock, and scale with the CPU it lands on.
  std::vector<std::string> units;
  host_scheduling scheduling = host_scheduling::synchronous;
  double per_iteration_s = 0;  ///< fixed part per iteration (per training step)
  double per_sequence_s = 0;   ///< per sequence in the iteration
  double per_token_s = 0;      ///< per token the iteration processes (prompt and decode)
  int cores = 1;               ///< cores of the unit it keeps busy
  /// Decode-only iterations launch their kernels as one captured graph (CUDA graphs):
  /// graph_launch_s once instead of the unit's launch_overhead per kernel.
  bool cuda_graphs = false;
  double graph_launch_s = 0;
  bool enabled() const { return !unit.empty(); }
};

/// Host seconds of one iteration with `sequences` sequences processing `tokens` tokens.
double host_iteration_seconds(const host_work_config& h, double sequences, double tokens);

/// The operator that stands for `seconds` of host work on `share` of a unit's cores.
op host_work_op(const std::string& name, double seconds, double share);

}  // namespace ptsim::tlm_config
