#pragma once
// Replicate statistics: the mean of a metric over runs that differ only by seed, with the
// half-width of its 95% confidence interval (Student t).
#include <vector>

namespace ptsim::postproc {

/// t such that P(|T| < t) = 0.95 for Student's t with `df` degrees of freedom (df >= 1):
/// 12.706 for 1, 4.303 for 2, 2.228 for 10. Exact to ~1e-12 (closed-form CDF, bisection).
double student_t_975(int df);

struct mean_ci {
  double mean = 0;
  double half_width = 0;  ///< NaN with fewer than two finite values
  int n = 0;              ///< finite values used
};

/// Mean and 95% CI half-width (t * s / sqrt(n), s the sample standard deviation) of the
/// finite values; non-finite ones (a metric a run could not define) are left out.
mean_ci mean_with_ci95(const std::vector<double>& values);

}  // namespace ptsim::postproc
