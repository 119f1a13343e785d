// Replicate statistics against published Student t quantiles and hand-computed intervals.
#include <doctest/doctest.h>

#include "relative_approx.hpp"

#include <cmath>
#include <limits>
#include <stdexcept>

#include "ptsim/postproc/stats.hpp"

using namespace ptsim::postproc;

TEST_CASE("t(0.975, df) matches the published two-sided 95% table") {
  // Any statistics textbook's table, to its three decimals.
  const struct {
    int df;
    double t;
  } table[] = {{1, 12.706}, {2, 4.303}, {3, 3.182}, {4, 2.776}, {5, 2.571}, {6, 2.447}, {9, 2.262},
               {10, 2.228}, {15, 2.131}, {20, 2.086}, {29, 2.045}, {30, 2.042}, {60, 2.000}, {120, 1.980}};
  for (const auto& row : table) {
    CAPTURE(row.df);
    CHECK(std::fabs(student_t_975(row.df) - row.t) <= 6e-4);
  }
  // Closed forms: df = 1 is Cauchy, tan(0.975 pi - pi/2); df = 2 is sqrt(2 / (1 - 0.95^2) - 2).
  CHECK(student_t_975(1) == ptsim_test::Approx(std::tan(0.475 * std::acos(-1.0))).epsilon(1e-12));
  CHECK(student_t_975(2) == ptsim_test::Approx(std::sqrt(2.0 * 0.95 * 0.95 / (1 - 0.95 * 0.95))).epsilon(1e-12));
  // Large df tends to the normal quantile 1.959964.
  CHECK(student_t_975(100000) == ptsim_test::Approx(1.959964).epsilon(1e-4));
  CHECK_THROWS_AS(student_t_975(0), std::invalid_argument);
}

TEST_CASE("mean and 95% CI half-width, by hand") {
  // {1, 2, 3}: mean 2, s = 1, half-width t(2) / sqrt(3).
  const mean_ci a = mean_with_ci95({1, 2, 3});
  CHECK(a.n == 3);
  CHECK(a.mean == 2);
  CHECK(a.half_width == ptsim_test::Approx(student_t_975(2) / std::sqrt(3.0)).epsilon(1e-14));
  CHECK(a.half_width == ptsim_test::Approx(2.484).epsilon(1e-3));
  // Identical values: zero width.
  CHECK(mean_with_ci95({5, 5, 5, 5}).half_width == 0);
  // One value: no interval.
  const mean_ci one = mean_with_ci95({7});
  CHECK(one.mean == 7);
  CHECK(std::isnan(one.half_width));
  // Non-finite values are left out.
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const mean_ci b = mean_with_ci95({nan, 10, 14});
  CHECK(b.n == 2);
  CHECK(b.mean == 12);
  CHECK(b.half_width == ptsim_test::Approx(12.706 * std::sqrt(8.0) / std::sqrt(2.0)).epsilon(1e-4));
  CHECK(std::isnan(mean_with_ci95({}).mean));
}
