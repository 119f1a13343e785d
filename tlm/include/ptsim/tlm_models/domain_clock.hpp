#pragma once
// A DVFS domain's clock as a value with scheduled changes (O(1) per change), not a
// toggling signal. A change requested at t takes effect at t + transition latency;
// until then the domain runs at the old frequency, with the voltage already raised
// when the new point needs more (voltage leads frequency up and trails it down).
// It integrates f, V and V^2 f over time so the power model sees exact period averages.
// Plain C++; times in s.
namespace ptsim::tlm_models {

class domain_clock {
 public:
  domain_clock(double hz, double volts);
  /// Schedules (hz, volts) to take effect at `effective_s`; replaces a pending change.
  void request(double now_s, double hz, double volts, double effective_s);
  /// Frequency in effect at time t (t may run ahead of the last advance()).
  double hz_at(double t) const { return (pending_ && t >= switch_s_) ? next_hz_ : hz_; }
  double hz() const { return hz_; }
  double volts() const { return v_; }
  bool pending() const { return pending_; }
  double pending_hz() const { return next_hz_; }
  double target_hz() const { return pending_ ? next_hz_ : hz_; }
  /// When the latest requested frequency change takes (or took) effect; -1 before any.
  double last_switch_s() const { return switch_s_; }

  struct averages {
    double hz, volts, v2f;
  };
  /// Advances the integrals to `now_s` and returns the averages since the last call.
  averages collect(double now_s);

 private:
  void integrate_to(double t);
  double hz_, v_;
  bool pending_ = false;
  double next_hz_ = 0, next_v_ = 0, switch_s_ = -1;
  double last_s_ = 0, since_s_ = 0;
  double int_f_ = 0, int_v_ = 0, int_v2f_ = 0;
};

}  // namespace ptsim::tlm_models
