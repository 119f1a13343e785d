// The component power-model interface the control loop conducts: each model's power,
// low-power share, busy share and activity over a period, by hand.
#include <doctest/doctest.h>

#include "relative_approx.hpp"

#include "ptsim/power/component_power_model.hpp"

using namespace ptsim;
using power::component_activity;
using power::domain_electrical;

TEST_CASE("compute unit: C V^2 f a + leakage, idle-state residency replacing leakage") {
  power::compute_power_params p;
  p.c_eff = units::farads(1e-9);
  p.stall_activity = 0.5;
  p.leakage.power_ref = units::watts(0.1);
  power::idle_state half;
  half.name = "ret";
  half.leakage_fraction = 0.5;
  auto m = power::make_compute_unit_power(p, {half});
  component_activity a;
  a.compute_share = 0.4;
  a.stall_share = 0.2;
  a.idle_s = {0.2e-3};  // 20 % of a 1 ms period in retention
  const domain_electrical e{2e9, 1.0, 2e9};
  const auto s = m->step(a, e, 298.15, 1e-3);
  // a = 0.4 + 0.5 x 0.2 = 0.5; dynamic 1e-9 x 1 x 2e9 x 0.5 = 1 W; leakage 0.1 W for 80 %,
  // half of it for 20 %: 0.08 + 0.01.
  CHECK(s.activity == ptsim_test::Approx(0.5));
  CHECK(s.busy == ptsim_test::Approx(0.6));
  CHECK(s.low_power_share == ptsim_test::Approx(0.2));
  CHECK(s.watts == ptsim_test::Approx(1.0 + 0.08 + 0.01).epsilon(1e-12));
  CHECK(m->at_opp_W(1.0, 1e9, 0.5, 298.15) == ptsim_test::Approx(0.5 + 0.1).epsilon(1e-12));
  CHECK(m->floor_W(1.0, 298.15) == ptsim_test::Approx(0.05).epsilon(1e-12));
}

namespace {
// A compute unit of 1 nF, stall activity 0.5, no leakage: 2 W at 1 V, 2 GHz, activity 1.
std::unique_ptr<power::component_power_model> one_nf_unit() {
  power::compute_power_params p;
  p.c_eff = units::farads(1e-9);
  p.stall_activity = 0.5;
  return power::make_compute_unit_power(p, {});
}
}  // namespace

TEST_CASE("compute unit: the quiet part of its computing time (op_activity below 1) does not toggle") {
  auto m = one_nf_unit();
  component_activity a;
  a.compute_share = 0.6;
  a.quiet_share = 0.2;  // e.g. 0.4 of the period in GEMMs at op_activity 0.5
  a.stall_share = 0.2;
  const domain_electrical e{2e9, 1.0, 2e9};
  const auto s = m->step(a, e, 298.15, 1e-3);
  // a = (0.6 - 0.2) + 0.5 x 0.2 = 0.5; dynamic 1e-9 x 1 x 2e9 x 0.5 = 1 W; busy is still 0.8.
  CHECK(s.activity == ptsim_test::Approx(0.5));
  CHECK(s.busy == ptsim_test::Approx(0.8));
  CHECK(s.watts == ptsim_test::Approx(1.0).epsilon(1e-12));
}

TEST_CASE("compute unit: kernels that toggle more than c_eff's reference work (op_activity above 1) draw more") {
  auto m = one_nf_unit();
  component_activity a;
  a.compute_share = 1.0;
  a.quiet_share = -0.3;  // the whole period in GEMMs at op_activity 1.3
  const domain_electrical e{2e9, 1.0, 2e9};
  const auto s = m->step(a, e, 298.15, 1e-3);
  // a = 1 - (-0.3) = 1.3; dynamic 1e-9 x 1 x 2e9 x 1.3 = 2.6 W; busy stays 1.
  CHECK(s.activity == ptsim_test::Approx(1.3));
  CHECK(s.busy == ptsim_test::Approx(1.0));
  CHECK(s.watts == ptsim_test::Approx(2.6).epsilon(1e-12));
}

TEST_CASE("memory device: background, energy per byte, self-refresh; APST states") {
  power::memory_power_params p;
  p.background_W = 0.08;
  p.energy_per_byte_read_J = 30e-12;
  p.energy_per_byte_write_J = 32e-12;
  p.self_refresh_W = 0.01;
  auto m = power::make_memory_device_power(p);
  component_activity a;
  a.bytes_read = a.bytes_written = 1e6;
  auto s = m->step(a, {}, 300, 1e-3);
  CHECK(s.watts == ptsim_test::Approx(0.142).epsilon(1e-12));
  CHECK(s.low_power_share == 0.0);
  s = m->step({}, {}, 300, 1e-3);  // no traffic: self-refresh (self_refresh_after 0)
  CHECK(s.watts == ptsim_test::Approx(0.01));
  CHECK(s.low_power_share == 1.0);
  CHECK(m->floor_W(0, 300) == ptsim_test::Approx(0.01));

  power::memory_power_params nvme;
  nvme.background_W = 5.0;
  nvme.low_power_state_W = {0.07};
  auto d = power::make_memory_device_power(nvme);
  component_activity idle;
  idle.idle_s = {0.5e-3};  // half the period in PS3
  const auto sd = d->step(idle, {}, 300, 1e-3);
  CHECK(sd.watts == ptsim_test::Approx(5.0 * 0.5 + 0.07 * 0.5));
  CHECK(sd.low_power_share == ptsim_test::Approx(0.5));
}

TEST_CASE("memory DVFS: background follows the clock and V^2, busy share of the bandwidth at that clock") {
  // P_bg(f, V) = P_bg (V / V_max)^2 ((1 - s) + s f / f_max), refresh and energy per byte fixed.
  power::memory_power_params p;
  p.background_W = 0.08;
  p.refresh_W = 0.02;
  p.energy_per_byte_read_J = 30e-12;
  p.max_hz = 3200e6;
  p.max_volts = 1.0;
  p.clock_scaled_share = 0.75;
  p.sustained_Bps = 40e9;  // bandwidth x efficiency at the top clock
  auto m = power::make_memory_device_power(p);
  component_activity a;
  a.bytes_read = 10e6;  // 10 MB in 1 ms
  // At 1600 MHz, 0.9 V: 0.08 x 0.81 x (0.25 + 0.75 x 0.5) = 0.0405 W; + 0.02 refresh
  // + 30e-12 x 10e6 / 1e-3 = 0.3 W -> 0.3605 W. Busy: 10e6 / (40e9 x 0.5 x 1e-3) = 0.5.
  auto s = m->step(a, {1600e6, 0.9, 0.81 * 1600e6}, 300, 1e-3);
  CHECK(s.watts == ptsim_test::Approx(0.3605).epsilon(1e-12));
  CHECK(s.busy == ptsim_test::Approx(0.5).epsilon(1e-12));
  // At the top point: the given background, busy 10e6 / (40e9 x 1e-3) = 0.25.
  s = m->step(a, {3200e6, 1.0, 3200e6}, 300, 1e-3);
  CHECK(s.watts == ptsim_test::Approx(0.08 + 0.02 + 0.3).epsilon(1e-12));
  CHECK(s.busy == ptsim_test::Approx(0.25).epsilon(1e-12));
  // More traffic than the clock can carry reads as fully busy.
  a.bytes_read = 30e6;
  CHECK(m->step(a, {800e6, 1.0, 800e6}, 300, 1e-3).busy == 1.0);
  // Estimates at another OPP: background there + refresh: 0.08 x (0.25 + 0.75 x 0.25) + 0.02.
  CHECK(m->at_opp_W(1.0, 800e6, 0.5, 300) == ptsim_test::Approx(0.08 * 0.4375 + 0.02).epsilon(1e-12));
  // A memory without a clock ignores the domain averages it is handed.
  power::memory_power_params fixed = p;
  fixed.max_hz = 0;
  auto f = power::make_memory_device_power(fixed);
  a.bytes_read = 10e6;
  s = f->step(a, {800e6, 0.5, 0.2e9}, 300, 1e-3);
  CHECK(s.watts == 0.08 + 0.02 + 30e-12 * 10e6 / 1e-3);
  CHECK(s.busy == 0.0);
}

TEST_CASE("busy/idle block: idle + (busy - idle) x busy share") {
  auto m = power::make_busy_idle_power({2.0, 0.1});
  component_activity a;
  a.compute_share = 0.25;
  a.overhead_share = 0.05;
  const auto s = m->step(a, {5e8, 0.8, 0.32e9}, 300, 1e-3);
  CHECK(s.busy == ptsim_test::Approx(0.3));
  CHECK(s.watts == ptsim_test::Approx(0.1 + 1.9 * 0.3).epsilon(1e-12));
  CHECK(m->step({}, {}, 300, 1e-3).watts == ptsim_test::Approx(0.1));
  component_activity full;
  full.compute_share = 1.5;  // clamped: a period is at most all busy
  CHECK(m->step(full, {}, 300, 1e-3).watts == ptsim_test::Approx(2.0));
  CHECK(m->floor_W(0, 300) == ptsim_test::Approx(0.1));
  CHECK_THROWS(power::make_busy_idle_power({-1.0, 0.0}));
}

TEST_CASE("estimates at every OPP at once: at_opp_W's values, for each table asked about") {
  power::compute_power_params p;
  p.c_eff = units::farads(1e-9);
  p.leakage.power_ref = units::watts(0.5);
  p.leakage.v_ref = units::volts(0.8);
  p.leakage.t_ref = units::abs_kelvin(300.0);
  p.leakage.t_double = units::kelvin(20.0);
  p.leakage.v_exponent = 3.0;
  const auto m = power::make_compute_unit_power(p, {});
  const power::opp_table low({{units::hertz(500e6), units::volts(0.6)}, {units::hertz(1e9), units::volts(0.8)}});
  const power::opp_table high({{units::hertz(1e9), units::volts(0.9)}, {units::hertz(2e9), units::volts(1.1)},
                               {units::hertz(3e9), units::volts(1.3)}});
  // The same model asked about two tables and two temperatures in turn: each answer is
  // at_opp_W's, e.g. at 1 GHz, 0.8 V, 320 K, activity 0.5: 1e-9 x 0.64 x 1e9 x 0.5 + 0.5 x 1 x 2 = 1.32 W.
  for (const double t : {320.0, 300.0}) {
    for (const auto* table : {&low, &high, &low}) {
      std::vector<double> out(table->size(), 0.25);  // added to what is there
      m->add_at_opps_W(*table, 0.5, t, out);
      for (std::size_t i = 0; i < table->size(); ++i)
        CHECK(out[i] == ptsim_test::Approx(0.25 + m->at_opp_W(table->voltage_v(i), table->frequency_hz(i), 0.5, t))
                            .epsilon(1e-12));
    }
  }
  std::vector<double> one(2, 0.0);
  m->add_at_opps_W(low, 0.5, 320.0, one);
  CHECK(one[1] == ptsim_test::Approx(0.32 + 1.0).epsilon(1e-12));
  // A memory model's estimates the same way (the default: at_opp_W per OPP).
  power::memory_power_params mp;
  mp.background_W = 0.08;
  const auto mem = power::make_memory_device_power(mp);
  std::vector<double> mo(2, 0.0);
  mem->add_at_opps_W(low, 0.5, 320.0, mo);
  for (std::size_t i = 0; i < 2; ++i)
    CHECK(mo[i] == ptsim_test::Approx(mem->at_opp_W(low.voltage_v(i), low.frequency_hz(i), 0.5, 320.0)).epsilon(1e-12));
}
