#pragma once
// A progress line on a terminal (stderr), redrawn at most a few times per second.
#include <chrono>

namespace ptsim::cosim {

class progress_meter {
 public:
  progress_meter(bool enabled, double total_s);
  void update(double simulated_s);
  void finish();

 private:
  bool enabled_;
  double total_s_;
  std::chrono::steady_clock::time_point start_, last_;
  bool drawn_ = false;
};

}  // namespace ptsim::cosim
