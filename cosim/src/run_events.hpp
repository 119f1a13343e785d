#pragma once
// The control decisions as events in the result file: each DVFS change with the limit
// that set it, throttling's start and end per domain, a memory's own temperature limit
// tripping and releasing, a board power limit the lowest clock cannot hold, and the
// loader's notes on policy.limits.
#include <vector>

#include "ptsim/cosim/control_loop.hpp"
#include "ptsim/postproc/result_file.hpp"
#include "ptsim/scenarios/scenario.hpp"

namespace ptsim::cosim {

class run_events {
 public:
  /// Writes the loader's notes (a clock rounded onto its table) at t = 0.
  run_events(const scenarios::scenario& sc, const control_loop& loop, postproc::result_writer& writer);
  /// After the control tick at `now` with the decisions it made.
  void after_tick(double now, const std::vector<dvfs_decision>& decisions);

 private:
  void throttling(double now);
  void memory_limits(double now);
  void unreachable_board_limits(double now);

  const scenarios::scenario& sc_;
  const control_loop& loop_;
  postproc::result_writer& writer_;
  std::vector<bool> was_throttled_;
  std::vector<bool> memory_was_hot_;
  std::vector<double> over_at_floor_since_;  ///< per domain: since when over its limit at the lowest clock; < 0: not
  std::vector<bool> unreachable_said_;
};

}  // namespace ptsim::cosim
