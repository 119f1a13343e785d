#pragma once
// Samples the loop every record period into the result writer, one value per probe and
// label (probes.hpp): means over the record window ending at `time` (so power integrates to
// the run's energy), or values at `time` (temperatures).
#include <array>
#include <functional>
#include <string>
#include <unordered_map>
#include <vector>

#include "ptsim/cosim/control_loop.hpp"
#include "ptsim/postproc/result_file.hpp"
#include "ptsim/tlm_models/platform.hpp"
#include "probes.hpp"

namespace ptsim::cosim {

class recorder {
 public:
  recorder(postproc::result_writer& w, const control_loop& loop, int ticks_per_record);
  /// Called after every control tick at time now_s.
  void after_tick(double now_s);

 private:
  struct slot {
    const probe* p;
    std::size_t at = 0;      ///< first value in the row (the layout's order)
    std::size_t n = 0;       ///< values: the size of the probe's coordinate
    std::size_t sum_at = 0;  ///< first value in sums_ (mean probes)
  };
  postproc::result_writer& w_;
  const control_loop& loop_;
  int ticks_per_record_;
  int ticks_ = 0;
  std::vector<slot> slots_;
  std::vector<double> row_;
  std::vector<double> sums_;     // mean probes' sums over a record period of several ticks
  std::vector<double> scratch_;  // one probe's values of one tick
};

/// Operator executions (the `ops` table, when recording), where each compute unit's time
/// went (from the unit's own accounting of what bound it), and per-domain throttle
/// residency by reason. The summaries are kept even with recording off: they cost a few
/// additions per operator and per tick.
class activity_recorder {
 public:
  activity_recorder(postproc::result_writer& w, tlm_models::platform& plat, double duration_s,
                    bool record_ops);
  /// Called after every control tick (period_s long).
  void after_tick(const control_loop& loop, double period_s);
  /// Hands unit_summary and domain_summary to the writer; call once, at the end.
  void finish(const control_loop& loop);
  /// Receives a failure to record an operator (e.g. the disk is full). on_op runs in a
  /// compute unit's SystemC thread, where an exception would reach SystemC's own handler;
  /// the run stops through this instead. Recording stops after the first failure.
  std::function<void(const std::string&)> on_error;

 private:
  struct unit_sums {
    const tlm_models::compute_unit* unit = nullptr;
    std::uint32_t label = 0;  ///< the unit's name in the ops table
    std::uint64_t ops_in_run = 0;
    std::size_t domain = static_cast<std::size_t>(-1);  ///< index in the loop's domains
    double compute_bound_seen_s = 0;  ///< compute-bound time already charged to a period
  };
  void on_op(unit_sums& u, const tlm_models::op_record& r);

  postproc::result_writer& w_;
  double duration_s_;
  bool record_ops_;
  bool failed_ = false;
  std::vector<unit_sums> units_;  // indexed like plat.units(); never resized after wiring
  std::vector<double> throttled_s_, thermal_s_, power_s_;
  // What the limits cost (domain_summary_row::time_lost_*): the state the period that just
  // ended ran under, i.e. the previous tick's decision.
  std::vector<double> lost_thermal_s_, lost_power_s_, prev_request_hz_;
  std::vector<throttle_reason> prev_reason_;
  bool domains_mapped_ = false;
  // Label ids of the ops table, so that recording an operator costs a lookup rather than
  // string copies: operators by address, with the name seen there (a graph rebuilt in place,
  // as LLM iterations are, may put another operator at the same address); bound_by by kind.
  struct op_label {
    std::string name;
    std::uint32_t id = 0;
  };
  std::unordered_map<const tlm_config::op*, op_label> op_label_;
  std::array<std::uint32_t, tlm_models::bound_kinds> bound_label_{};
};

}  // namespace ptsim::cosim
