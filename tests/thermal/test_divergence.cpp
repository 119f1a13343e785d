// Thermal runaway is reported with the node and the time.
#include <doctest/doctest.h>

#include <cmath>
#include <limits>

#include "ptsim/thermal/solver.hpp"

using namespace ptsim::thermal;

namespace {
rc_network weak_cooling() {
  // C = 1 J/K, 0.01 W/K to ambient: 1000 W would settle at T_amb + 1e5 K.
  rc_network net;
  net.connect_ambient(net.add_node("sram", 1.0), 1.0);
  const auto hot = net.add_node("cpu_big", 1.0);
  net.connect_ambient(hot, 0.01);
  return net;
}
}  // namespace

TEST_CASE("backward Euler: runaway names the node and the sub-step time") {
  // h = 0.1 s: the distance to T_inf = 100300 K shrinks by 1/(1 + 0.001) per sub-step,
  //   T_k = 100300 - 100000 * 1.001^-k, 1.001^-k = e^{-k * 0.00099950}:
  //   T_7 = 100300 - 99302.79 = 997.21 K, T_8 = 100300 - 99203.59 = 1096.41 K -> t = 0.8 s.
  const rc_network net = weak_cooling();
  transient_solver s(net, 1.0, 10, 300.0);
  const double p[2] = {0.0, 1000.0};
  CHECK_THROWS_WITH_AS(s.step(p), doctest::Contains("node 'cpu_big' reached 1096.4"), divergence_error);
  // The failed step is undone: the state and the clock are those before it.
  CHECK(s.time() == 0.0);
  CHECK(s.temperatures()[1] == 300.0);
  CHECK_THROWS_WITH_AS(s.step(p), doctest::Contains("at t = 0.8 s"), divergence_error);
}

TEST_CASE("exponential: runaway is detected at the end of the step") {
  const rc_network net = weak_cooling();
  transient_solver s(net, 1.0, 10, 300.0, integration_method::exponential);
  s.max_temperature_K = 2000.0;
  const double p[2] = {0.0, 1000.0};
  s.step(p);  // ~1295 K after 1 s: below the raised limit
  CHECK_THROWS_WITH_AS(s.step(p), doctest::Contains("node 'cpu_big' reached"), divergence_error);
}

TEST_CASE("a non-finite temperature is reported as such") {
  const rc_network net = weak_cooling();
  transient_solver s(net, 1.0, 1, 300.0);
  const double p[2] = {std::numeric_limits<double>::quiet_NaN(), 0.0};
  CHECK_THROWS_WITH_AS(s.step(p), doctest::Contains("node 'sram' temperature is not finite"),
                       divergence_error);
}
