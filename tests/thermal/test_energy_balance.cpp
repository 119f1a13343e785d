// Energy conservation: int P dt = sum_i C_i dT_i + int sum_i g_amb,i (T_i - T_amb) dt.
#include <doctest/doctest.h>

#include <cmath>

#include "fixtures.hpp"
#include "ptsim/thermal/package.hpp"
#include "ptsim/thermal/solver.hpp"

using namespace ptsim::thermal;

// Named for the file: the test sources are compiled together (unity build).
namespace energy_balance_test {

namespace {
constexpr double t_amb = 318.15;

// Stored heat sum_i C_i (T_i - T_amb) (J).
double stored(const rc_network& net, const std::vector<double>& t) {
  double e = 0.0;
  for (std::size_t i = 0; i < net.size(); ++i) e += net.capacitance(i) * (t[i] - t_amb);
  return e;
}

// A power trace that changes every step, so that no step is in equilibrium.
std::vector<double> power_at(int k) {
  return test::block_power(3, {2.0 + std::sin(0.3 * k), 5.0 * (k % 7 == 0), 1.5 + 0.1 * k});
}
}  // namespace

TEST_CASE("backward Euler conserves energy exactly in its discrete form") {
  // Summing (C/h)(T' - T) = P + g_amb T_amb - G T' over the nodes, the link terms of G cancel
  // (each link adds +g and -g to the column sums), leaving
  //   sum_i C_i (T'_i - T_i) = h sum_i P_i - h sum_i g_amb,i (T'_i - T_amb).
  // So accumulating the ambient flow with the END-of-sub-step temperatures balances exactly.
  const rc_network net = build_block_model(test::three_blocks(), package_config{});
  const double dt = 0.05;
  transient_solver s(net, dt, 1, t_amb);
  double e_in = 0.0, e_out = 0.0;
  for (int k = 0; k < 200; ++k) {
    const auto p = power_at(k);
    s.step(p.data());
    for (double w : p) e_in += w * dt;
    for (std::size_t i = 0; i < net.size(); ++i)
      e_out += dt * net.ambient_conductance(i) * (s.temperatures()[i] - t_amb);
  }
  const double e_stored = stored(net, s.temperatures());
  CHECK(std::abs(e_in - (e_stored + e_out)) <= 1e-9 * e_in);
  // The solver's own account of the heat lost agrees.
  CHECK(std::abs(s.ambient_energy_J() - e_out) <= 1e-9 * e_in);
}

TEST_CASE("energy balance with sub-steps and with the exponential integrator") {
  const rc_network net = build_block_model(test::three_blocks(), package_config{});
  for (auto method : {integration_method::backward_euler, integration_method::exponential}) {
    CAPTURE(static_cast<int>(method));
    const double dt = 0.2;
    transient_solver s(net, dt, 8, t_amb, method);
    double e_in = 0.0;
    for (int k = 0; k < 150; ++k) {
      const auto p = power_at(k);
      s.step(p.data());
      for (double w : p) e_in += w * dt;
    }
    // Exponential: ambient_energy_J integrates g.(T(s) - T_amb) in closed form from the
    // eigen-decomposition, independently of the stored heat, so this checks both.
    const double e_stored = stored(net, s.temperatures());
    CHECK(s.ambient_energy_J() > 0.0);
    CHECK(std::abs(e_in - (e_stored + s.ambient_energy_J())) <= 1e-9 * e_in);
  }
}

}  // namespace energy_balance_test
