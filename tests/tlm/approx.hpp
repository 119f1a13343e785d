#pragma once
// Relative comparisons. doctest::Approx defaults to scale 1, so its epsilon is in
// effect absolute for small values (0.05 would accept any two times under a second);
// a tiny scale makes it relative to the larger of the two sides (not 0, so that
// 0 == near(0) still holds: doctest compares with a strict <).
#include <doctest/doctest.h>

namespace tlm_test {
inline doctest::Approx near(double expected, double rel = 1e-9) {
  return doctest::Approx(expected).epsilon(rel).scale(1e-30);
}
}  // namespace tlm_test
