#include <doctest/doctest.h>

#include "relative_approx.hpp"

#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

#include "ptsim/power/compute_power.hpp"
#include "ptsim/power/memory_power.hpp"

using namespace ptsim;
using namespace ptsim::power;

namespace {
// Runs f, which must throw std::invalid_argument mentioning `param`.
template <class F>
void check_rejects(F f, const std::string& param) {
  try {
    f();
    FAIL("no exception for " << param);
  } catch (const std::invalid_argument& e) {
    CHECK_MESSAGE(std::string(e.what()).find(param) != std::string::npos, e.what());
  }
}
}  // namespace

TEST_CASE("dynamic power C*V^2*f*a") {
  compute_power_params p;
  p.c_eff = units::farads(1e-9);
  const compute_power_model m(p);
  // 1 nF * (0.8 V)^2 * 2 GHz * 0.5 = 1e-9 * 0.64 * 2e9 * 0.5 = 0.64 W
  CHECK(m.dynamic_W(0.8, 2e9, 0.5) == ptsim_test::Approx(0.64));
  CHECK(m.dynamic_W(0.8, 2e9, 0.0) == 0.0);
}

TEST_CASE("activity weights memory stalls by stall_activity") {
  compute_power_params p;
  p.stall_activity = 0.3;
  const compute_power_model m(p);
  // 0.5 compute + 0.3 * 0.4 stalled = 0.5 + 0.12 = 0.62
  CHECK(m.activity(0.5, 0.4) == ptsim_test::Approx(0.62));
  CHECK(m.activity(0.0, 1.0) == ptsim_test::Approx(0.3));
}

TEST_CASE("leakage scales as (V/Vref)^n and doubles every t_double") {
  compute_power_params p;
  p.leakage.power_ref = units::watts(0.2);
  p.leakage.v_ref = units::volts(1.0);
  p.leakage.t_ref = units::celsius(25.0);  // 298.15 K
  p.leakage.t_double = units::kelvin(20.0);
  p.leakage.v_exponent = 2.0;
  const compute_power_model m(p);
  // At the reference point: P_ref.
  CHECK(m.leakage_W(1.0, 298.15) == ptsim_test::Approx(0.2));
  // 0.9 V, 65 degC: 0.2 * 0.9^2 * 2^((338.15-298.15)/20) = 0.2 * 0.81 * 4 = 0.648 W
  CHECK(m.leakage_W(0.9, 338.15) == ptsim_test::Approx(0.648));
  // 10 K below the reference halves by sqrt(2): 0.2 / 1.41421 = 0.141421 W
  CHECK(m.leakage_W(1.0, 288.15) == ptsim_test::Approx(0.2 / std::sqrt(2.0)));
}

TEST_CASE("compute_power_params validation names the parameter") {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  check_rejects([] { compute_power_params p; p.c_eff = units::farads(-1e-9); compute_power_model m(p); }, "c_eff");
  check_rejects([&] { compute_power_params p; p.stall_activity = nan; compute_power_model m(p); }, "stall_activity");
  check_rejects([] { compute_power_params p; p.stall_activity = -0.1; compute_power_model m(p); }, "stall_activity");
  check_rejects([] { compute_power_params p; p.leakage.power_ref = units::watts(-1); compute_power_model m(p); }, "leakage.power_ref");
  check_rejects([] { compute_power_params p; p.leakage.v_ref = units::volts(0); compute_power_model m(p); }, "leakage.v_ref");
  check_rejects([] { compute_power_params p; p.leakage.t_double = units::kelvin(0); compute_power_model m(p); }, "leakage.t_double");
  check_rejects([&] { compute_power_params p; p.leakage.v_exponent = nan; compute_power_model m(p); }, "leakage.v_exponent");
  check_rejects([] {
    compute_power_params p;
    p.c_eff = units::farads(std::numeric_limits<double>::infinity());
    compute_power_model m(p);
  }, "c_eff");
}

TEST_CASE("memory power: background + energy per byte / period") {
  memory_power_params p;
  p.background_W = 0.5;
  p.energy_per_byte_read_J = 10e-12;   // 10 pJ/B
  p.energy_per_byte_write_J = 15e-12;  // 15 pJ/B
  const memory_power_model m(p);
  // 0.5 + (10e-12 * 1e9 + 15e-12 * 0.5e9) / 0.1 = 0.5 + (0.01 + 0.0075) / 0.1 = 0.675 W
  CHECK(m.power_W(1e9, 0.5e9, 0.1) == ptsim_test::Approx(0.675));
  CHECK(m.power_W(0, 0, 0.1) == ptsim_test::Approx(0.5));
  CHECK(m.background_W() == 0.5);
  CHECK_THROWS_AS(m.power_W(1, 1, 0.0), std::invalid_argument);
}

TEST_CASE("NVMe power states: idle power replaced by each state's for its residency") {
  memory_power_params p;
  p.background_W = 5.0;     // PS0 idle
  p.energy_per_byte_read_J = 2.14e-9;   // (20 W - 5 W) / 7 GB/s
  p.low_power_state_W = {0.07, 0.005};  // PS3, PS4
  const memory_power_model m(p);
  // 1 ms period: 0.2 ms PS3, 0.5 ms PS4, 0.3 ms PS0 reading 1 MB:
  // 5 * 0.3 + 0.07 * 0.2 + 0.005 * 0.5 + 2.14e-9 * 1e6 / 1e-3 = 1.5 + 0.014 + 0.0025 + 2.14 = 3.6565 W
  CHECK(m.with_states_W(1e6, 0, 1e-3, {0.2e-3, 0.5e-3}) == ptsim_test::Approx(3.6565).epsilon(1e-12));
  // A whole period in PS4 draws PS4's power; none in a state draws PS0's.
  CHECK(m.with_states_W(0, 0, 1e-3, {0, 1e-3}) == ptsim_test::Approx(0.005).epsilon(1e-12));
  CHECK(m.with_states_W(0, 0, 1e-3, {0, 0}) == ptsim_test::Approx(5.0).epsilon(1e-12));
  check_rejects([] { memory_power_params q; q.low_power_state_W = {-1}; memory_power_model n(q); }, "low_power_state_W");
}

TEST_CASE("memory_power_params validation names the parameter") {
  check_rejects([] { memory_power_params p; p.background_W = -1; memory_power_model m(p); }, "background");
  check_rejects([] { memory_power_params p; p.energy_per_byte_read_J = -1; memory_power_model m(p); }, "energy_per_byte_read_J");
  check_rejects([] {
    memory_power_params p;
    p.energy_per_byte_write_J = std::numeric_limits<double>::quiet_NaN();
    memory_power_model m(p);
  }, "energy_per_byte_write_J");
}
