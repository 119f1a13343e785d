#pragma once
// A temperature sensor as a thermal zone reads it: the true temperature of a node seen
// through a first-order lag (the sensor's own thermal mass and filtering) plus additive
// Gaussian measurement noise.
//
//   tau dy/dt = T(t) - y(t)            lag state y (K), time constant tau (s; 0 = no lag)
//   reading   = y + noise_K * n_k      n_k ~ N(0, 1), drawn from a seeded generator
//
// update() advances the lag by one period dt with T held at its new value over the period
// (zero-order hold), for which the exact solution is y' = y + (1 - exp(-dt/tau)) (T - y):
// a step from T0 to T1 reads T1 - (T1 - T0) exp(-k dt / tau) after k updates, at any dt.
// The noise is drawn by Box-Muller from a 64-bit Mersenne Twister, so that a seed gives
// the same readings on every platform and standard library. Plain C++, no allocation.
#include <cstdint>
#include <random>

namespace ptsim::thermal {

class sensor {
 public:
  /// Throws std::invalid_argument for dt <= 0, tau < 0 or noise < 0 (or non-finite).
  sensor(double dt_s, double time_constant_s = 0.0, double noise_K = 0.0, std::uint64_t seed = 1);
  /// Sets the lag state to T (a sensor in equilibrium with its node); the reading is T plus noise.
  void reset(double T_K);
  /// One period with the node at T_K; returns the new reading (K).
  double update(double T_K);
  double reading() const { return reading_; }
  double lagged() const { return y_; }  ///< the lag state, without noise (K)

 private:
  double noise_sample();
  double alpha_;  // 1 - exp(-dt/tau); 1 without lag
  double noise_K_;
  std::mt19937_64 rng_;
  double y_ = 0, reading_ = 0;
  bool have_spare_ = false;
  double spare_ = 0;
};

}  // namespace ptsim::thermal
