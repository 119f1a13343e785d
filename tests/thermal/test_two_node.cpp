// Two coupled nodes against their eigen-decomposition, written out by hand.
#include <doctest/doctest.h>

#include "relative_approx.hpp"

#include <cmath>

#include "ptsim/thermal/solver.hpp"

using namespace ptsim::thermal;

// Named for the file: the test sources are compiled together (unity build).
namespace two_node_test {

namespace {
// Node 1: C1 = 2 J/K, 1 W/K to ambient. Node 2: C2 = 1 J/K, 1 W/K to node 1. p = 3 W into node 2.
//   G = [[2, -1], [-1, 1]],  C^-1 G = [[1, -1/2], [-1, 1]]
//   trace 2, det 1/2: rates mu = 1 +- 1/sqrt(2); (1 - mu) v1 - v2 / 2 = 0 gives
//   v+ = (1, -sqrt 2) for mu+ = 1 + 1/sqrt 2 and v- = (1, +sqrt 2) for mu- = 1 - 1/sqrt 2.
//   Steady rise: 2 d1 - d2 = 0, -d1 + d2 = p  =>  d = (p, 2p).
//   From d(0) = 0: a v+ + b v- = -(p, 2p)  =>  a + b = -p, sqrt2 (b - a) = -2p
//   =>  a = p (sqrt2 - 1) / 2, b = -p (sqrt2 + 1) / 2.
constexpr double p = 3.0, t_amb = 300.0;
const double s2 = std::sqrt(2.0);
const double mu_plus = 1.0 + 1.0 / s2, mu_minus = 1.0 - 1.0 / s2;
const double a = p * (s2 - 1.0) / 2.0, b = -p * (s2 + 1.0) / 2.0;

double rise1(double t) { return p + a * std::exp(-mu_plus * t) + b * std::exp(-mu_minus * t); }
double rise2(double t) {
  return 2.0 * p - s2 * a * std::exp(-mu_plus * t) + s2 * b * std::exp(-mu_minus * t);
}

rc_network two_nodes() {
  rc_network net;
  const auto n1 = net.add_node("n1", 2.0);
  const auto n2 = net.add_node("n2", 1.0);
  net.connect_ambient(n1, 1.0);
  net.connect(n1, n2, 1.0);
  return net;
}
}  // namespace

TEST_CASE("two nodes: the closed form satisfies its own equations") {
  // Guards the hand algebra above: rise(0) = 0 and C d' = P - G d at a sample time.
  CHECK(std::abs(rise1(0.0)) < 1e-14);
  CHECK(std::abs(rise2(0.0)) < 1e-14);
  const double t = 0.7, eps = 1e-6;
  const double d1 = (rise1(t + eps) - rise1(t - eps)) / (2 * eps);
  const double d2 = (rise2(t + eps) - rise2(t - eps)) / (2 * eps);
  CHECK(2.0 * d1 == ptsim_test::Approx(-(2.0 * rise1(t) - rise2(t))).epsilon(1e-8));
  CHECK(1.0 * d2 == ptsim_test::Approx(p - (rise2(t) - rise1(t))).epsilon(1e-8));
}

TEST_CASE("two nodes, exponential integrator: exact to 1e-9 K") {
  const rc_network net = two_nodes();
  transient_solver s(net, 0.1, 1, t_amb, integration_method::exponential);
  const double power[2] = {0.0, p};
  for (int k = 1; k <= 300; ++k) {
    s.step(power);
    CHECK(std::abs(s.temperatures()[0] - (t_amb + rise1(s.time()))) < 1e-9);
    CHECK(std::abs(s.temperatures()[1] - (t_amb + rise2(s.time()))) < 1e-9);
  }
}

TEST_CASE("two nodes, backward Euler: within the per-mode error bound") {
  // Backward Euler damps each mode by 1/(1 + h mu) per sub-step and keeps the steady state
  // exact; the one-node bound (test_one_node.cpp) applies per mode:
  //   |error_i| <= sum_modes |amplitude_i| x / (2 e (1 - x/2)),  x = h mu.
  const double dt = 0.1;
  const int substeps = 100;
  const double h = dt / substeps;
  auto mode_bound = [&](double amplitude, double mu) {
    const double x = h * mu;
    return std::abs(amplitude) * x / (2.0 * std::exp(1.0) * (1.0 - x / 2.0));
  };
  const double bound1 = mode_bound(a, mu_plus) + mode_bound(b, mu_minus);
  const double bound2 = mode_bound(s2 * a, mu_plus) + mode_bound(s2 * b, mu_minus);
  const rc_network net = two_nodes();
  transient_solver s(net, dt, substeps, t_amb);
  const double power[2] = {0.0, p};
  double worst = 0.0;
  for (int k = 1; k <= 300; ++k) {
    s.step(power);
    const double e1 = std::abs(s.temperatures()[0] - (t_amb + rise1(s.time())));
    const double e2 = std::abs(s.temperatures()[1] - (t_amb + rise2(s.time())));
    CHECK(e1 <= bound1);
    CHECK(e2 <= bound2);
    worst = std::max(worst, std::max(e1, e2));
  }
  CHECK(worst > 0.0);  // backward Euler is not exact: the comparison has teeth
}

}  // namespace two_node_test
