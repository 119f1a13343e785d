#include "ptsim/tlm_models/domain_clock.hpp"

#include <algorithm>

namespace ptsim::tlm_models {

domain_clock::domain_clock(double hz, double volts) : hz_(hz), v_(volts) {}

void domain_clock::integrate_to(double t) {
  while (last_s_ < t) {
    const double seg_end = (pending_ && switch_s_ > last_s_) ? std::min(t, switch_s_) : t;
    const double dt = seg_end - last_s_;
    int_f_ += hz_ * dt;
    int_v_ += v_ * dt;
    int_v2f_ += v_ * v_ * hz_ * dt;
    last_s_ = seg_end;
    if (pending_ && last_s_ >= switch_s_) {
      hz_ = next_hz_;
      v_ = next_v_;
      pending_ = false;
    }
  }
  if (pending_ && last_s_ >= switch_s_) {
    hz_ = next_hz_;
    v_ = next_v_;
    pending_ = false;
  }
}

void domain_clock::request(double now_s, double hz, double volts, double effective_s) {
  integrate_to(now_s);
  if (pending_ && next_hz_ == hz) return;
  if (!pending_ && hz == hz_) return;
  // Going up, the regulator raises the voltage first; the frequency follows at the end
  // of the transition. Going down, the voltage stays until the frequency has dropped.
  const double base_v = v_;
  next_hz_ = hz;
  next_v_ = volts;
  switch_s_ = effective_s;
  pending_ = effective_s > now_s;
  if (!pending_) {
    hz_ = hz;
    v_ = volts;
  } else {
    v_ = std::max(base_v, volts);
  }
}

domain_clock::averages domain_clock::collect(double now_s) {
  integrate_to(now_s);
  const double span = now_s - since_s_;
  averages a{hz_, v_, v_ * v_ * hz_};
  if (span > 0) a = {int_f_ / span, int_v_ / span, int_v2f_ / span};
  int_f_ = int_v_ = int_v2f_ = 0;
  since_s_ = now_s;
  return a;
}

}  // namespace ptsim::tlm_models
