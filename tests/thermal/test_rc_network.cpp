// rc_network validation and bookkeeping.
#include <doctest/doctest.h>

#include "relative_approx.hpp"

#include <limits>
#include <stdexcept>

#include "ptsim/thermal/rc_network.hpp"
#include "ptsim/thermal/solver.hpp"

using namespace ptsim::thermal;

TEST_CASE("rc_network validates capacitances, conductances and indices") {
  rc_network net;
  CHECK_THROWS_AS(net.add_node("z", 0.0), std::invalid_argument);
  CHECK_THROWS_AS(net.add_node("z", std::numeric_limits<double>::infinity()), std::invalid_argument);
  const auto a = net.add_node("a", 1.0);
  const auto b = net.add_node("b", 2.0);
  CHECK(net.size() == 2);
  CHECK(net.name(b) == "b");
  CHECK(net.capacitance(b) == 2.0);
  CHECK_THROWS_AS(net.connect(a, a, 1.0), std::invalid_argument);
  CHECK_THROWS_AS(net.connect(a, 7, 1.0), std::invalid_argument);
  CHECK_THROWS_AS(net.connect(a, b, -1.0), std::invalid_argument);
  CHECK_THROWS_AS(net.connect(a, b, std::numeric_limits<double>::quiet_NaN()), std::invalid_argument);
  CHECK_THROWS_AS(net.connect_ambient(5, 1.0), std::invalid_argument);
  CHECK_THROWS_AS(net.connect_ambient(a, 0.0), std::invalid_argument);
  net.connect_ambient(a, 0.5);
  net.connect_ambient(b, 0.25);
  net.connect_ambient(b, 0.25);  // added to the existing one
  CHECK(net.ambient_conductance(b) == 0.5);
  CHECK(net.total_ambient_conductance() == 1.0);
}

TEST_CASE("repeated connect adds conductances") {
  // a -(1 W/K)- b twice = 2 W/K; b to ambient 1 W/K; 1 W into a:
  // T_b - T_amb = 1 W / 1 W/K = 1 K; T_a - T_b = 1 W / 2 W/K = 0.5 K.
  rc_network net;
  const auto a = net.add_node("a", 1.0);
  const auto b = net.add_node("b", 1.0);
  net.connect(a, b, 1.0);
  net.connect(b, a, 1.0);
  net.connect_ambient(b, 1.0);
  const auto t = steady_state(net, {1.0, 0.0}, 300.0);
  CHECK(t[a] == ptsim_test::Approx(301.5).epsilon(1e-14));
  CHECK(t[b] == ptsim_test::Approx(301.0).epsilon(1e-14));
}
