#pragma once
// doctest::Approx compares |a - b| < epsilon x (scale + max(|a|, |b|)) with scale 1 by
// default: for values well below 1 its epsilon is in effect absolute, so Approx(4e-12)
// accepts 0 and Approx(1.6e-3).epsilon(0.01) any time under 10 ms. The tests compare
// through this one instead: the same epsilon, relative to the larger side (scale 1e-30,
// not 0, so that 0 == Approx(0) still holds under doctest's strict <).
#include <doctest/doctest.h>

namespace ptsim_test {
struct Approx : doctest::Approx {
  explicit Approx(double value) : doctest::Approx(value) { scale(1e-30); }
};
}  // namespace ptsim_test
