#pragma once
// Samples the loop every record period into the result writer: power, frequency,
// voltage and utilisation as averages over the record window ending at `time` (so the
// timeseries integrates to the run's energy); temperature as the value at `time`.
#include <vector>

#include "ptsim/cosim/control_loop.hpp"
#include "ptsim/postproc/result_file.hpp"

namespace ptsim::cosim {

class recorder {
 public:
  recorder(postproc::result_writer& w, const control_loop& loop, int ticks_per_record);
  /// Called after every control tick at time now_s.
  void after_tick(double now_s);

 private:
  postproc::result_writer& w_;
  const control_loop& loop_;
  int ticks_per_record_;
  int ticks_ = 0;
  std::vector<double> power_, hz_, volts_, util_, temp_c_, throttled_;
};

/// The timeseries layout ptsim writes (coordinates and variables with units).
postproc::timeseries_layout timeseries_layout_for(const control_loop& loop);

}  // namespace ptsim::cosim
