// One RC node driven by a power step: T(t) = T_amb + P R (1 - e^{-t/RC}).
#include <doctest/doctest.h>

#include "relative_approx.hpp"

#include <cmath>

#include "ptsim/thermal/solver.hpp"

using namespace ptsim::thermal;

// Named for the file: the test sources are compiled together (unity build).
namespace one_node_test {

namespace {
// C = 10 J/K, R = 2 K/W (g = 0.5 W/K): tau = R C = 20 s; P = 5 W: final rise P R = 10 K.
constexpr double c = 10.0, r = 2.0, tau = r * c, p = 5.0, t_amb = 300.0;

rc_network one_node() {
  rc_network net;
  net.connect_ambient(net.add_node("die", c), 1.0 / r);
  return net;
}

double exact(double t) { return t_amb + p * r * (1.0 - std::exp(-t / tau)); }
}  // namespace

TEST_CASE("one node, exponential integrator: exact to 1e-9 K") {
  const rc_network net = one_node();
  transient_solver s(net, 0.5, 1, t_amb, integration_method::exponential);
  CHECK(s.temperatures()[0] == t_amb);  // starts at ambient
  for (int k = 1; k <= 200; ++k) {      // 100 s = 5 tau
    s.step(&p);
    CHECK(s.time() == ptsim_test::Approx(0.5 * k));
    CHECK(std::abs(s.temperatures()[0] - exact(s.time())) < 1e-9);
  }
}

TEST_CASE("one node, backward Euler: the discrete closed form and a derived error bound") {
  // Backward Euler with h solves (C/h + g) T' = C/h T + P + g T_amb, so the distance to
  // the final value T_inf = T_amb + P R shrinks by 1/(1 + x) per sub-step, x = h/tau:
  //   T_k = T_inf - P R (1 + x)^-k.
  // Exact: T(t_k) = T_inf - P R e^{-k x}. Since x - x^2/2 <= ln(1 + x) <= x,
  //   0 <= T(t_k) - T_k <= P R e^{-u} (e^{u x / 2} - 1) <= P R (x/2) u e^{-u (1 - x/2)}
  // with u = k x = t/tau; max over u of u e^{-u a} is 1/(e a), so the error is at most
  //   P R x / (2 e (1 - x/2)).
  const double dt = 1.0;
  const int substeps = 100;
  const double h = dt / substeps, x = h / tau;  // x = 5e-4
  const double bound = p * r * x / (2.0 * std::exp(1.0) * (1.0 - x / 2.0));  // ~9.2e-5 K
  const rc_network net = one_node();
  transient_solver s(net, dt, substeps, t_amb);
  CHECK(s.method() == integration_method::backward_euler);
  for (int k = 1; k <= 100; ++k) {
    s.step(&p);
    const double t_be = s.temperatures()[0];
    const double discrete = t_amb + p * r - p * r * std::pow(1.0 + x, -k * substeps);
    CHECK(std::abs(t_be - discrete) < 1e-10);
    const double err = exact(s.time()) - t_be;
    CHECK(err >= -1e-12);
    CHECK(err <= bound);
  }
}

TEST_CASE("set_temperatures starts from a given state; cooling follows the closed form") {
  // From T0 = T_amb + 10 K with no power: T(t) = T_amb + 10 e^{-t/tau}.
  const rc_network net = one_node();
  transient_solver s(net, 2.0, 1, t_amb, integration_method::exponential);
  s.set_temperatures({t_amb + 10.0});
  const double zero = 0.0;
  for (int k = 0; k < 10; ++k) s.step(&zero);
  CHECK(std::abs(s.temperatures()[0] - (t_amb + 10.0 * std::exp(-20.0 / tau))) < 1e-9);
  CHECK_THROWS_AS(s.set_temperatures({1.0, 2.0}), std::invalid_argument);
}

TEST_CASE("transient_solver rejects bad parameters") {
  const rc_network net = one_node();
  CHECK_THROWS_AS(transient_solver(net, 0.0, 1, t_amb), std::invalid_argument);
  CHECK_THROWS_AS(transient_solver(net, 1.0, 0, t_amb), std::invalid_argument);
  CHECK_THROWS_AS(transient_solver(rc_network{}, 1.0, 1, t_amb), std::invalid_argument);
}

TEST_CASE("transient_solver is movable") {
  const rc_network net = one_node();
  transient_solver a(net, 1.0, 4, t_amb);
  a.step(&p);
  transient_solver b(std::move(a));
  b.step(&p);
  CHECK(b.time() == 2.0);
  CHECK(b.temperatures()[0] > t_amb);
}

}  // namespace one_node_test
