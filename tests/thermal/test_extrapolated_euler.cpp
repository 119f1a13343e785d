// Extrapolated implicit Euler: stability on stiff networks, order, adaptivity, accuracy
// against the exact exponential integrator.
#include <doctest/doctest.h>

#include "relative_approx.hpp"

#include <algorithm>
#include <cmath>

#include "fixtures.hpp"
#include "ptsim/thermal/grid_model.hpp"
#include "ptsim/thermal/package.hpp"
#include "ptsim/thermal/solver.hpp"

using namespace ptsim::thermal;

// Named for the file: the test sources are compiled together (unity build).
namespace extrapolated_euler_test {

namespace {
constexpr double t_amb = 300.0;

rc_network one_node(double c, double r) {
  rc_network net;
  net.connect_ambient(net.add_node("n", c), 1.0 / r);
  return net;
}
}  // namespace

TEST_CASE("stable for any step: the amplification stays within [-1, 1] and vanishes when stiff") {
  // One node relaxing from 1 K above ambient without power: after one step the excess is
  // R(z) with z = -dt/tau. Exact: e^z. Stiff steps (z -> -inf) must not amplify.
  const double zero = 0.0;
  for (double x : {1e-3, 0.1, 0.5, 1.0, 2.0, 5.0, 10.0, 30.0, 100.0, 1e3, 1e6, 1e9}) {
    CAPTURE(x);
    const rc_network net = one_node(1.0, 1.0);  // tau = 1 s
    transient_solver s(net, x, 1, t_amb, integration_method::extrapolated_euler);
    s.set_temperatures({t_amb + 1.0});
    s.step(&zero);
    const double amp = s.temperatures()[0] - t_amb;
    CHECK(std::abs(amp) <= 1.0);
    if (x <= 0.5) CHECK(amp == ptsim_test::Approx(std::exp(-x)).epsilon(x * x * x));
    if (x >= 1e6) CHECK(std::abs(amp) < 1e-5);
  }
}

TEST_CASE("third order: halving the macro step divides the error by about 8") {
  const double c = 10.0, r = 2.0, p = 5.0, tau = r * c;
  const rc_network net = one_node(c, r);
  auto error_with = [&](int substeps) {
    transient_solver s(net, 2.0, substeps, t_amb, integration_method::extrapolated_euler);
    double worst = 0;
    for (int k = 1; k <= 20; ++k) {
      s.step(&p);
      worst = std::max(worst, std::abs(s.temperatures()[0] - (t_amb + p * r * (1 - std::exp(-s.time() / tau)))));
    }
    return worst;
  };
  const double e1 = error_with(1), e2 = error_with(2), e4 = error_with(4);
  CAPTURE(e1);
  CAPTURE(e2);
  CAPTURE(e4);
  CHECK(e1 / e2 > 6.0);
  CHECK(e2 / e4 > 7.0);
  CHECK(e4 < 5e-6);  // 10 K rise, 2 s rows, tau = 20 s
}

TEST_CASE("on the block model it tracks the exact exponential integrator; tolerance adapts sub-steps") {
  const rc_network net = build_block_model(test::three_blocks(), package_config{});
  const double dt = 0.01;
  transient_solver exact(net, dt, 1, t_amb, integration_method::exponential);
  transient_solver fixed(net, dt, 1, t_amb, integration_method::extrapolated_euler);
  transient_solver adaptive(net, dt, 1, t_amb, integration_method::extrapolated_euler);
  adaptive.error_tolerance_K = 1e-4;
  double e_fixed = 0, e_adaptive = 0;
  int most = 1;
  for (int k = 0; k < 300; ++k) {
    // Power steps every 10 rows: the stiff transients that test an integrator.
    const auto p = test::block_power(3, {(k / 10) % 2 ? 20.0 : 2.0, 5.0, 1.0});
    exact.step(p.data());
    fixed.step(p.data());
    adaptive.step(p.data());
    most = std::max(most, adaptive.substeps());
    for (std::size_t i = 0; i < net.size(); ++i) {
      e_fixed = std::max(e_fixed, std::abs(fixed.temperatures()[i] - exact.temperatures()[i]));
      e_adaptive = std::max(e_adaptive, std::abs(adaptive.temperatures()[i] - exact.temperatures()[i]));
    }
  }
  CAPTURE(e_fixed);
  CAPTURE(e_adaptive);
  CHECK(e_fixed < 0.05);      // one macro step per 10 ms row on a 20 W step
  CHECK(most > 1);            // the tolerance asked for more sub-steps at the power steps
  CHECK(e_adaptive < 2e-4);   // and they delivered it (the estimate is conservative)
  CHECK(e_adaptive < e_fixed / 10);
}

TEST_CASE("undo_step restores the state before the last step") {
  const rc_network net = build_block_model(test::two_by_two(), package_config{});
  const auto p = test::block_power(4, {1, 2, 3, 4});
  for (auto method : {integration_method::exponential, integration_method::backward_euler,
                      integration_method::extrapolated_euler}) {
    transient_solver s(net, 0.01, 2, t_amb, method);
    s.step(p.data());
    const auto t1 = s.temperatures();
    const double e1 = s.ambient_energy_J();
    s.step(p.data());
    s.undo_step();
    CHECK(s.temperatures() == t1);
    CHECK(s.ambient_energy_J() == e1);
    CHECK(s.time() == ptsim_test::Approx(0.01));
    CHECK_THROWS_AS(s.undo_step(), std::logic_error);
  }
}

TEST_CASE("short rows on a grid (conjugate-gradient path) stay within HotSpot's 0.01 K of a converged reference") {
  // HotSpot's default row of 3.33 us on a 24 x 24 grid: C/h dominates G, so the solver takes
  // one backward-Euler step per row by conjugate gradients; a 20 W step is the hard case.
  grid_config g;
  g.rows = g.cols = 24;
  g.layers = default_grid_layers(test::three_blocks(), g.package);
  const compact_model m = build_grid_model(g);
  const double dt = 3.333e-6;
  transient_solver fast(m.net, dt, 1, t_amb, integration_method::extrapolated_euler);
  fast.error_tolerance_K = 0.05;
  transient_solver ref(m.net, dt, 8, t_amb, integration_method::extrapolated_euler);
  std::vector<double> p;
  double worst_node = 0, worst_block = 0;
  for (int k = 0; k < 400; ++k) {
    const std::vector<double> in{k < 200 ? 20.0 : 2.0, 5.0, 1.0};
    m.node_power(in.data(), p);
    fast.step(p.data());
    ref.step(p.data());
    for (std::size_t i = 0; i < p.size(); ++i)
      worst_node = std::max(worst_node, std::abs(fast.temperatures()[i] - ref.temperatures()[i]));
    for (const power_input& b : m.inputs)
      worst_block = std::max(worst_block, std::abs(m.probe_temperature(b.probe, fast.temperatures()) -
                                                   m.probe_temperature(b.probe, ref.temperatures())));
  }
  CAPTURE(worst_node);
  CAPTURE(worst_block);
  CHECK(worst_block < 0.005);
  CHECK(worst_node < 0.01);
  CHECK(fast.substeps() == 1);
}

}  // namespace extrapolated_euler_test
