#include "ptsim/postproc/stats.hpp"

#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

namespace ptsim::postproc {

namespace {

// P(|T| < t) for integer df, from the finite series of Abramowitz & Stegun 26.7.3-4.
double two_sided_cdf(double t, int df) {
  const double pi = std::acos(-1.0);
  const double theta = std::atan(t / std::sqrt(static_cast<double>(df)));
  const double s = std::sin(theta), c2 = std::cos(theta) * std::cos(theta);
  if (df % 2 == 0) {
    double term = 1, sum = 1;
    for (int k = 2; k <= df - 2; k += 2) {
      term *= (k - 1.0) / k * c2;
      sum += term;
    }
    return s * sum;
  }
  if (df == 1) return 2 * theta / pi;
  double term = std::cos(theta), sum = term;
  for (int k = 3; k <= df - 2; k += 2) {
    term *= (k - 1.0) / k * c2;
    sum += term;
  }
  return 2 / pi * (theta + s * sum);
}

}  // namespace

double student_t_975(int df) {
  if (df < 1) throw std::invalid_argument("student_t_975: df must be at least 1, got " + std::to_string(df));
  double lo = 0, hi = 1e3;  // t(0.975, 1) = 12.7: far inside
  for (int i = 0; i < 200 && hi - lo > 1e-14 * hi; ++i) {
    const double mid = 0.5 * (lo + hi);
    (two_sided_cdf(mid, df) < 0.95 ? lo : hi) = mid;
  }
  return 0.5 * (lo + hi);
}

mean_ci mean_with_ci95(const std::vector<double>& values) {
  mean_ci out;
  double sum = 0;
  for (double v : values)
    if (std::isfinite(v)) sum += v, ++out.n;
  out.mean = out.n > 0 ? sum / out.n : std::numeric_limits<double>::quiet_NaN();
  out.half_width = std::numeric_limits<double>::quiet_NaN();
  if (out.n < 2) return out;
  double ss = 0;
  for (double v : values)
    if (std::isfinite(v)) ss += (v - out.mean) * (v - out.mean);
  const double sd = std::sqrt(ss / (out.n - 1));
  out.half_width = student_t_975(out.n - 1) * sd / std::sqrt(static_cast<double>(out.n));
  return out;
}

}  // namespace ptsim::postproc
