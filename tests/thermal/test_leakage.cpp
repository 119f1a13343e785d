// Temperature-dependent leakage: steady fixed point, transient coupling order, runaway.
#include <doctest/doctest.h>

#include "relative_approx.hpp"

#include <cmath>

#include "fixtures.hpp"
#include "ptsim/thermal/leakage.hpp"

using namespace ptsim::thermal;

// Named for the file: the test sources are compiled together (unity build).
namespace leakage_test {

namespace {
constexpr double t_amb = 300.0;

// One block as a one-node network: C (J/K), R (K/W) to ambient.
compact_model one_block(double c, double r) {
  compact_model m;
  m.net.connect_ambient(m.net.add_node("die", c), 1.0 / r);
  m.inputs.push_back({"die", 0, {{0, 1.0}}, 0, 1e-4});
  m.probes.push_back({"die", {{0, 1.0}}, reduction::mean});
  m.init_from_probes = {{{0, 1.0}}};
  m.top_probes = 1;
  return m;
}

// Leakage a e^{b (T - 300)} W; dP/dT = b P.
input_power_fn exp_leak(double a, double b) {
  return [a, b](const double* T, double* out) { out[0] = a * std::exp(b * (T[0] - t_amb)); };
}
}  // namespace

TEST_CASE("HotSpot's leakage model") {
  const exponential_leakage l;
  CHECK(l.power_W(1e-4, 383.15) == ptsim_test::Approx(1.5));  // alpha * A at the base temperature
  CHECK(l.power_W(1e-4, 383.15 + 1 / 0.036) == ptsim_test::Approx(1.5 * std::exp(1.0)));
}

TEST_CASE("steady state with leakage solves T = T_amb + R (P + L(T))") {
  const double r = 2.0, p = 10.0, a = 1.0, b = 0.02;
  const compact_model m = one_block(1.0, r);
  const steady_solver s(m.net);
  const auto T = steady_state(m, s, {p}, exp_leak(a, b), t_amb);
  const double t = T[0];
  CHECK(t == ptsim_test::Approx(t_amb + r * (p + a * std::exp(b * (t - t_amb)))).epsilon(1e-9));
  CHECK(t > t_amb + r * p);  // leakage heats
}

TEST_CASE("steady runaway is reported, naming the block") {
  // R b P_leak > 1 everywhere: no fixed point exists.
  const compact_model m = one_block(1.0, 10.0);
  const steady_solver s(m.net);
  try {
    steady_state(m, s, {50.0}, exp_leak(5.0, 0.2), t_amb);
    FAIL("expected a runaway");
  } catch (const divergence_error& e) {
    CHECK(std::string(e.what()).find("block 'die'") != std::string::npos);
  }
}

TEST_CASE("transient coupling: first order explicit, second order Heun, both reach the fixed point") {
  const double c = 2.0, r = 2.0, p = 10.0, a = 1.0, b = 0.03;
  const compact_model m = one_block(c, r);
  const auto leak = exp_leak(a, b);
  // Reference: the same ODE C dT/dt = P + L(T) - (T - T_amb)/R with tiny RK4 steps.
  auto f = [&](double T) { return (p + a * std::exp(b * (T - t_amb)) - (T - t_amb) / r) / c; };
  auto reference = [&](double t_end) {
    double T = t_amb;
    const int n = 200000;
    const double h = t_end / n;
    for (int k = 0; k < n; ++k) {
      const double k1 = f(T), k2 = f(T + h / 2 * k1), k3 = f(T + h / 2 * k2), k4 = f(T + h * k3);
      T += h / 6 * (k1 + 2 * k2 + 2 * k3 + k4);
    }
    return T;
  };
  const double t_end = 4.0, want = reference(t_end);
  auto run = [&](leakage_coupling how, double dt) {
    transient_solver s(m.net, dt, 1, t_amb, integration_method::exponential);
    coupled_transient ct(m, s, leak, how);
    const int steps = static_cast<int>(std::lround(t_end / dt));
    for (int k = 0; k < steps; ++k) ct.step(&p);
    return s.temperatures()[0] - want;
  };
  const double ex1 = run(leakage_coupling::explicit_start, 0.2), ex2 = run(leakage_coupling::explicit_start, 0.1);
  const double he1 = run(leakage_coupling::heun, 0.2), he2 = run(leakage_coupling::heun, 0.1);
  CAPTURE(ex1);
  CAPTURE(ex2);
  CAPTURE(he1);
  CAPTURE(he2);
  CHECK(ex1 / ex2 == ptsim_test::Approx(2.0).epsilon(0.15));  // first order
  CHECK(he1 / he2 == ptsim_test::Approx(4.0).epsilon(0.25));  // second order
  CHECK(std::abs(he2) < std::abs(ex2) / 10);
  // Long run: the transient settles on the steady fixed point.
  transient_solver s(m.net, 0.5, 1, t_amb, integration_method::exponential);
  coupled_transient ct(m, s, leak);
  for (int k = 0; k < 200; ++k) ct.step(&p);
  const steady_solver ss(m.net);
  CHECK(s.temperatures()[0] == ptsim_test::Approx(steady_state(m, ss, {p}, leak, t_amb)[0]).epsilon(1e-9));
}

TEST_CASE("transient runaway stops with the node and the time") {
  const compact_model m = one_block(1.0, 10.0);
  transient_solver s(m.net, 0.1, 1, t_amb, integration_method::exponential);
  s.max_temperature_K = 500.0;
  coupled_transient ct(m, s, exp_leak(5.0, 0.2));
  const double p = 50.0;
  try {
    for (int k = 0; k < 10000; ++k) ct.step(&p);
    FAIL("expected a runaway");
  } catch (const divergence_error& e) {
    CHECK(e.node == 0);
    CHECK(e.time_s > 0);
    CHECK(std::string(e.what()).find("node 'die'") != std::string::npos);
    CHECK(std::string(e.what()).find(" at t = ") != std::string::npos);
  }
}

}  // namespace leakage_test
