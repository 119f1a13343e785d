#pragma once
// The run's totals for the summary: energy, peaks, throttle time, the power cap's window and
// LLM occupancy over the measurement window [from, duration], and each component's energy
// over the whole run (for the jobs' energy). Plain bookkeeping after every control tick.
#include <cstddef>
#include <deque>
#include <vector>

#include "ptsim/cosim/control_loop.hpp"
#include "ptsim/postproc/metric_catalogue.hpp"
#include "ptsim/scenarios/scenario.hpp"
#include "ptsim/tlm_models/platform.hpp"

namespace ptsim::cosim {

// The power cap's limit, watched over its own window: how long the average was above it
// (power_cap_violation_s).
struct cap_watch {
  double limit_W = 0;
  std::size_t ticks = 0;  // the window in control periods (0: no cap)
  std::deque<double> window;
  double sum = 0;

  cap_watch(const scenarios::scenario& sc, double T);
  /// Whether the window's average, with this period's platform power, is above the limit.
  bool violated(double platform_W);
  /// The platform power averaged over the last full window; NaN before the first one.
  double full_window_mean() const;
};

// The summary's peaks, over what the timeseries records: platform power averaged over each
// record period (the `power` samples summed), block temperatures at each sample time.
struct peak_watch {
  int ticks_per_record = 1;
  int ticks = 0;
  double sum_W = 0;
  /// After a tick: whether it closed a record period, and then that period's mean power.
  bool after_tick(double platform_W, double* mean_W);
};

class run_ledger {
 public:
  run_ledger(const scenarios::scenario& sc, const control_loop& loop, tlm_models::platform& plat);
  /// After the control tick that closes the period [now - T, now).
  void after_tick(double now);
  /// After the simulation: the work done in the window and the components' window energy.
  /// The jobs (write_jobs) add their latencies and counts to totals() as well.
  void finish();

  postproc::run_totals& totals() { return totals_; }
  /// Each component's energy over the whole run, by the loop's component index.
  const std::vector<double>& run_energy_J() const { return run_energy_J_; }
  double from_s() const { return from_; }

 private:
  const scenarios::scenario& sc_;
  const control_loop& loop_;
  tlm_models::platform& plat_;
  double T_;
  double from_;
  postproc::run_totals totals_;
  std::vector<double> run_energy_J_;
  std::vector<double> window_energy_J_;
  cap_watch cap_;
  peak_watch peaks_;
  // What the workload had done when the window opened (throughput counts work within it).
  double work_at_from_ = 0;
  std::vector<double> stream_work_at_from_;
};

}  // namespace ptsim::cosim
