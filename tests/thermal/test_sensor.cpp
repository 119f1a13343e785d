// Zone sensors: first-order lag against its closed form, seeded noise.
#include <doctest/doctest.h>

#include "relative_approx.hpp"

#include <cmath>
#include <stdexcept>
#include <vector>

#include "ptsim/thermal/sensor.hpp"

using ptsim::thermal::sensor;

TEST_CASE("sensor lag: a step reads T1 - (T1 - T0) exp(-t / tau) at every update") {
  for (const double dt : {1e-3, 0.1, 2.0}) {
    CAPTURE(dt);
    const double tau = 0.5, T0 = 300.0, T1 = 340.0;
    sensor s(dt, tau);
    s.reset(T0);
    CHECK(s.reading() == T0);
    for (int k = 1; k <= 50; ++k) {
      const double want = T1 - (T1 - T0) * std::exp(-k * dt / tau);
      CHECK(s.update(T1) == ptsim_test::Approx(want).epsilon(1e-12));
    }
  }
  // Without a time constant the sensor follows its node exactly.
  sensor exact(1e-3);
  exact.reset(300.0);
  CHECK(exact.update(321.5) == 321.5);
}

TEST_CASE("sensor noise: the same seed gives the same readings, another seed others; N(0, sigma)") {
  auto readings = [](std::uint64_t seed, int n) {
    sensor s(1e-3, 0.0, 0.5, seed);
    s.reset(310.0);
    std::vector<double> r;
    for (int k = 0; k < n; ++k) r.push_back(s.update(310.0) - 310.0);
    return r;
  };
  const auto a = readings(7, 20000), b = readings(7, 20000), c = readings(8, 20000);
  CHECK(a == b);
  CHECK(a != c);
  double mean = 0, var = 0;
  for (double x : a) mean += x;
  mean /= static_cast<double>(a.size());
  for (double x : a) var += (x - mean) * (x - mean);
  const double sd = std::sqrt(var / static_cast<double>(a.size() - 1));
  // 20,000 draws: the mean's standard error is 0.5/141 = 0.0035 K, the s.d.'s 0.0025 K.
  CHECK(std::abs(mean) < 0.015);
  CHECK(sd == ptsim_test::Approx(0.5).epsilon(0.02));
  // Noise does not enter the lag state.
  sensor s(1e-3, 1.0, 2.0, 3);
  s.reset(300.0);
  for (int k = 0; k < 10; ++k) s.update(300.0);
  CHECK(s.lagged() == 300.0);
}

TEST_CASE("sensor: bad parameters are refused") {
  CHECK_THROWS_AS(sensor(0.0), std::invalid_argument);
  CHECK_THROWS_AS(sensor(1e-3, -1.0), std::invalid_argument);
  CHECK_THROWS_AS(sensor(1e-3, 0.0, -0.1), std::invalid_argument);
}
