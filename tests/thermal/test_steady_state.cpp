// Steady state: closed forms, the transient's limit, symmetry.
#include <doctest/doctest.h>

#include "relative_approx.hpp"

#include <cmath>

#include "fixtures.hpp"
#include "ptsim/thermal/package.hpp"
#include "ptsim/thermal/solver.hpp"

using namespace ptsim::thermal;

// Named for the file: the test sources are compiled together (unity build).
namespace steady_state_test {

namespace {
constexpr double t_amb = 300.0;
// Mirror-image nodes are computed by different elimination orders; direct solves agree to
// about cond(G) eps |T| ~ 1e6 * 1e-16 * 300 K = 3e-8 K, while a real asymmetry in the model
// (a mis-sized periphery link, say) shows up in mK.
constexpr double symmetry_tol_K = 1e-7;
}

TEST_CASE("steady state of a chain: series resistances") {
  // a -(0.5 W/K)- b -(0.25 W/K)- ambient, 2 W into a:
  // T_b = T_amb + 2 / 0.25 = 308 K; T_a = T_b + 2 / 0.5 = 312 K.
  rc_network net;
  const auto a = net.add_node("a", 1.0), b = net.add_node("b", 1.0);
  net.connect(a, b, 0.5);
  net.connect_ambient(b, 0.25);
  const auto t = steady_state(net, {2.0, 0.0}, t_amb);
  CHECK(t[a] == ptsim_test::Approx(312.0).epsilon(1e-14));
  CHECK(t[b] == ptsim_test::Approx(308.0).epsilon(1e-14));
  CHECK_THROWS_AS(steady_state(net, {1.0}, t_amb), std::invalid_argument);
}

TEST_CASE("steady state needs a path to ambient and names the node without one") {
  rc_network net;
  net.connect_ambient(net.add_node("grounded", 1.0), 1.0);
  net.add_node("island", 1.0);
  CHECK_THROWS_WITH_AS(steady_state(net, {0.0, 0.0}, t_amb), doctest::Contains("'island'"),
                       std::invalid_argument);
}

TEST_CASE("steady state is the limit of both transient integrators") {
  // The slowest time constant of the package is the sink's, of order r_convec * c_convec
  // ~ 0.1 K/W * 140 J/K ~ tens of s; 50 steps of 1000 s leave e^{-1000}-small residues.
  // Both are direct solves of G T = b; backward-stable solves differ by about
  // cond(G) eps |T| ~ 1e6 * 1e-16 * 300 K, so 1e-9 relative is a safe margin.
  const rc_network net = build_block_model(test::three_blocks(), package_config{});
  const auto p = test::block_power(3, {6.0, 3.0, 1.0});
  const auto ss = steady_state(net, p, t_amb);
  for (auto method : {integration_method::backward_euler, integration_method::exponential}) {
    CAPTURE(static_cast<int>(method));
    transient_solver s(net, 1000.0, 1, t_amb, method);
    for (int k = 0; k < 50; ++k) s.step(p.data());
    for (std::size_t i = 0; i < net.size(); ++i)
      CHECK(s.temperatures()[i] == ptsim_test::Approx(ss[i]).epsilon(1e-9));
  }
  for (double t : ss) CHECK(t > t_amb);
}

TEST_CASE("a symmetric floorplan with equal powers gives symmetric temperatures") {
  // 2 x 2 equal squares centred in square spreader and sink: the model is invariant under
  // the quarter turns of the square, so every block, and every layer above it, is alike.
  const floorplan fp = test::two_by_two();
  const rc_network net = build_block_model(fp, package_config{});
  const auto t = steady_state(net, test::block_power(4, {5.0, 5.0, 5.0, 5.0}), t_amb);
  for (std::size_t layer = 0; layer < 4; ++layer)
    for (std::size_t i = 1; i < 4; ++i)
      CHECK(std::abs(t[layer * 4 + i] - t[layer * 4]) < symmetry_tol_K);
  for (std::size_t group = 16; group < 28; group += 4)  // W, E, N, S of each periphery ring
    for (std::size_t d = 1; d < 4; ++d)
      CHECK(std::abs(t[group + d] - t[group]) < symmetry_tol_K);
  CHECK(t[0] > t_amb);
}

TEST_CASE("mirror symmetry: left-right powers give top-bottom equal temperatures") {
  // Powers depend only on the column, so the north-south mirror maps a <-> c and b <-> d.
  const floorplan fp = test::two_by_two();
  const rc_network net = build_block_model(fp, package_config{});
  const auto p = test::block_power(4, {8.0, 2.0, 8.0, 2.0});
  transient_solver s(net, 0.01, 2, t_amb, integration_method::backward_euler);
  for (int k = 0; k < 100; ++k) s.step(p.data());
  const auto& t = s.temperatures();
  CHECK(std::abs(t[0] - t[2]) < symmetry_tol_K);
  CHECK(std::abs(t[1] - t[3]) < symmetry_tol_K);
  CHECK(t[0] > t[1]);
}

}  // namespace steady_state_test
