#pragma once
// near(x): a relative comparison (../relative_approx.hpp) with a tight default, 1e-9.
#include "relative_approx.hpp"

namespace tlm_test {
inline doctest::Approx near(double expected, double rel = 1e-9) { return ptsim_test::Approx(expected).epsilon(rel); }
}  // namespace tlm_test
