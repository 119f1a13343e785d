#include "ptsim/thermal/sensor.hpp"

#include <cmath>
#include <stdexcept>

namespace ptsim::thermal {

sensor::sensor(double dt_s, double time_constant_s, double noise_K, std::uint64_t seed) : rng_(seed) {
  if (!(dt_s > 0) || !std::isfinite(dt_s)) throw std::invalid_argument("sensor: the period must be positive");
  if (!(time_constant_s >= 0) || !std::isfinite(time_constant_s))
    throw std::invalid_argument("sensor: the time constant must be >= 0");
  if (!(noise_K >= 0) || !std::isfinite(noise_K)) throw std::invalid_argument("sensor: the noise must be >= 0 K");
  alpha_ = time_constant_s > 0 ? -std::expm1(-dt_s / time_constant_s) : 1.0;
  noise_K_ = noise_K;
}

double sensor::noise_sample() {
  // Box-Muller on two uniforms in (0, 1]: both normals of a pair are used.
  if (have_spare_) {
    have_spare_ = false;
    return spare_;
  }
  constexpr double two_pi = 6.283185307179586;
  constexpr double scale = 1.0 / 18446744073709551616.0;  // 2^-64
  const double u1 = (static_cast<double>(rng_()) + 1.0) * scale;
  const double u2 = static_cast<double>(rng_()) * scale;
  const double r = std::sqrt(-2.0 * std::log(u1));
  spare_ = r * std::sin(two_pi * u2);
  have_spare_ = true;
  return r * std::cos(two_pi * u2);
}

void sensor::reset(double T_K) {
  y_ = T_K;
  reading_ = noise_K_ > 0 ? y_ + noise_K_ * noise_sample() : y_;
}

double sensor::update(double T_K) {
  y_ += alpha_ * (T_K - y_);
  reading_ = noise_K_ > 0 ? y_ + noise_K_ * noise_sample() : y_;
  return reading_;
}

}  // namespace ptsim::thermal
