// domain_clock: DVFS changes with transition latency, voltage sequencing, and exact
// time-weighted averages over a control period.
#include <doctest/doctest.h>

#include "approx.hpp"

#include "ptsim/tlm_models/domain_clock.hpp"

using tlm_test::near;
using ptsim::tlm_models::domain_clock;

TEST_CASE("domain_clock: a change takes effect after its latency") {
  domain_clock c(1e9, 0.8);
  CHECK(c.hz() == 1e9);
  CHECK(c.volts() == 0.8);
  CHECK_FALSE(c.pending());
  // Up to 2 GHz / 1.0 V at t = 0, effective after 100 us.
  c.request(0.0, 2e9, 1.0, 100e-6);
  CHECK(c.pending());
  CHECK(c.pending_hz() == 2e9);
  CHECK(c.target_hz() == 2e9);
  CHECK(c.hz_at(50e-6) == 1e9);   // before the switch: old frequency
  CHECK(c.hz_at(100e-6) == 2e9);  // at and after: new
  CHECK(c.hz_at(200e-6) == 2e9);
  // Going up, the voltage is raised at once (before the frequency follows).
  CHECK(c.volts() == 1.0);

  // Period [0, 1 ms): 0.1 ms at 1 GHz, 0.9 ms at 2 GHz, 1.0 V throughout.
  //   f = (0.1*1 + 0.9*2)/1 GHz = 1.9 GHz; V = 1.0; V^2 f = 1.9e9.
  auto a = c.collect(1e-3);
  CHECK(a.hz == near(1.9e9));
  CHECK(a.volts == near(1.0));
  CHECK(a.v2f == near(1.9e9));
  CHECK_FALSE(c.pending());
  CHECK(c.hz() == 2e9);

  // Down to 500 MHz / 0.7 V requested at 1.2 ms, effective at 1.5 ms: the voltage
  // stays at 1.0 V until the frequency has dropped.
  c.request(1.2e-3, 5e8, 0.7, 1.5e-3);
  CHECK(c.volts() == 1.0);
  CHECK(c.hz_at(1.4e-3) == 2e9);
  CHECK(c.hz_at(1.5e-3) == 5e8);
  // Period [1 ms, 2 ms): 0.5 ms at (2 GHz, 1.0 V), 0.5 ms at (0.5 GHz, 0.7 V).
  //   f = 1.25 GHz; V = 0.85; V^2 f = 0.5*(1*2e9) + 0.5*(0.49*5e8) = 1.1225e9.
  a = c.collect(2e-3);
  CHECK(a.hz == near(1.25e9));
  CHECK(a.volts == near(0.85));
  CHECK(a.v2f == near(1.1225e9));
  CHECK(c.volts() == 0.7);

  // A quiet period averages to the point in effect.
  a = c.collect(3e-3);
  CHECK(a.hz == near(5e8));
  CHECK(a.volts == near(0.7));
  CHECK(a.v2f == near(0.49 * 5e8));
}

TEST_CASE("domain_clock: voltage leads a mid-period rise in the averages") {
  domain_clock c(1e9, 0.8);
  c.collect(3e-3);  // start the period at 3 ms
  // At 3.4 ms request 2 GHz / 1.0 V, effective at 3.6 ms. Over [3 ms, 4 ms):
  //   f: 0.6 ms at 1 GHz, 0.4 ms at 2 GHz -> 1.4 GHz
  //   V: 0.4 ms at 0.8 V, then 0.6 ms at 1.0 V (raised at 3.4 ms) -> 0.92 V
  //   V^2 f: 0.4*0.64*1e9 + 0.2*1*1e9 + 0.4*1*2e9 = 1.256e9
  c.request(3.4e-3, 2e9, 1.0, 3.6e-3);
  const auto a = c.collect(4e-3);
  CHECK(a.hz == near(1.4e9));
  CHECK(a.volts == near(0.92));
  CHECK(a.v2f == near(1.256e9));
}

TEST_CASE("domain_clock: a change with no latency is immediate") {
  domain_clock c(1e9, 0.8);
  c.request(1e-3, 1.5e9, 0.9, 1e-3);
  CHECK_FALSE(c.pending());
  CHECK(c.hz() == 1.5e9);
  CHECK(c.volts() == 0.9);
  // [0, 2 ms): 1 ms at (1 GHz, 0.8 V), 1 ms at (1.5 GHz, 0.9 V).
  const auto a = c.collect(2e-3);
  CHECK(a.hz == near(1.25e9));
  CHECK(a.volts == near(0.85));
  CHECK(a.v2f == near(0.5 * 0.64 * 1e9 + 0.5 * 0.81 * 1.5e9));
}
