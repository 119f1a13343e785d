// bench_power: one governor decision and one compute power evaluation, as the control
// tick makes them every period. Inputs vary from call to call (a fixed pseudo-random
// utilization/temperature sequence) so that decisions change and nothing folds away.
// Rate limits are set to the tick so that every call takes the decision path.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <memory>
#include <vector>

#include "ptsim/power/compute_power.hpp"
#include "ptsim/power/governor.hpp"
#include "ptsim/power/idle_states.hpp"
#include "ptsim/power/memory_power.hpp"
#include "ptsim/power/step_wise.hpp"
#include "ptsim/power/supply_power.hpp"
#include "summary_reporter.hpp"

namespace {

using namespace ptsim;
using namespace ptsim::power;

constexpr double tick_s = 1e-3;
constexpr std::size_t seq_len = 256;  // power of two

// Cortex-X1 cluster of scenarios/default.yaml (gs101 cluster2), MHz and mV.
opp_table big_opps() {
  const double pts[][2] = {{500, 500},    {851, 556.25},  {984, 575},     {1106, 606.25}, {1277, 631.25},
                           {1426, 662.5}, {1582, 693.75}, {1745, 731.25}, {1826, 750},    {2048, 793.75},
                           {2188, 831.25}, {2252, 850},   {2401, 887.5},  {2507, 925},    {2630, 968.75},
                           {2704, 1000},  {2802, 1056.25}};
  std::vector<opp> v;
  for (const auto& p : pts) v.push_back({units::hertz(p[0] * 1e6), units::volts(p[1] * 1e-3)});
  return opp_table(std::move(v));
}

std::vector<double> sequence(double lo, double hi) {
  std::vector<double> v(seq_len);
  unsigned x = 12345;
  for (auto& e : v) {
    x = x * 1664525u + 1013904223u;
    e = lo + (hi - lo) * (x >> 8) / double(1u << 24);
  }
  return v;
}

void bm_cpufreq(benchmark::State& st, const char* name, tunables t) {
  const opp_table opps = big_opps();
  auto gov = governor_registry::instance().create(name, t);
  gov->start(opps, 500e-6);
  const auto util = sequence(0.0, 1.0), iowait = sequence(0.0, 0.2);
  cpufreq_sample s;
  s.period_s = tick_s;
  s.policy_min_hz = opps.min_hz();
  s.policy_max_hz = opps.max_hz();
  s.cur_hz = opps.max_hz();
  std::size_t i = 0;
  for (auto _ : st) {
    s.now_s += tick_s;
    s.utilization = util[i];
    s.iowait_share = iowait[i];
    i = (i + 1) & (seq_len - 1);
    s.cur_hz = gov->update(s);
    benchmark::DoNotOptimize(s.cur_hz);
  }
}

void bm_step_wise(benchmark::State& st) {
  const opp_table opps = big_opps();
  std::vector<cooling_device> dev(1);
  dev[0].opps = &opps;
  thermal_zone_config z;
  z.polling_period_s = tick_s;  // act on every call
  step_wise_governor gov;
  gov.start(z, dev);
  const auto temp = sequence(z.control_temp_K - 5, z.control_temp_K + 5);
  double now = 0;
  std::size_t i = 0;
  for (auto _ : st) {
    now += tick_s;
    gov.update(now, temp[i], dev);
    i = (i + 1) & (seq_len - 1);
    benchmark::DoNotOptimize(dev[0].ceiling_hz);
  }
}

// Dynamic (with the activity split) plus temperature-dependent leakage: one component's tick.
void bm_compute_power(benchmark::State& st) {
  compute_power_params p;
  p.c_eff = units::farads(1300e-12);
  p.leakage.power_ref = units::watts(0.06);
  p.leakage.v_ref = units::volts(0.75);
  p.leakage.t_double = units::kelvin(25.0);
  const compute_power_model m(p);
  const auto share = sequence(0.0, 0.7), volts = sequence(0.5, 1.05), hz = sequence(0.5e9, 2.8e9),
             temp = sequence(300.0, 360.0);
  std::size_t i = 0;
  for (auto _ : st) {
    const double a = m.activity(share[i], 0.3 - 0.3 * share[i]);
    const double w = m.dynamic_W(volts[i], hz[i], a) + m.leakage_W(volts[i], temp[i]);
    i = (i + 1) & (seq_len - 1);
    benchmark::DoNotOptimize(w);
  }
}

// The loop's compute power with idle states (three, by leakage fraction), as control_loop
// evaluates it per unit: dynamic + leakage x (1 - resident) + sum of the states' power.
void bm_idle_power(benchmark::State& st) {
  compute_power_params p;
  p.c_eff = units::farads(1300e-12);
  p.leakage.power_ref = units::watts(0.06);
  p.leakage.v_ref = units::volts(0.75);
  const compute_power_model m(p);
  const std::vector<idle_state> states = {{"wfi", 0, 0, 1e-6, 0, 1.0},
                                          {"ret", 0, 20e-6, 100e-6, 2e-3, 0.5},
                                          {"off", 0, 235e-6, 220e-6, 3.5e-3, 0.05}};
  const auto share = sequence(0.0, 0.7), volts = sequence(0.5, 1.05), hz = sequence(0.5e9, 2.8e9),
             temp = sequence(300.0, 360.0), r = sequence(0.0, 0.1);
  std::size_t i = 0;
  for (auto _ : st) {
    const double leak = m.leakage_W(volts[i], temp[i]);
    const double res[3] = {r[i], r[(i + 1) & (seq_len - 1)], 0.3 - 0.3 * share[i]};
    double resident = 0, idle_W = 0;
    for (std::size_t k = 0; k < 3; ++k) resident += res[k], idle_W += states[k].power_at(leak) * res[k];
    const double w = m.dynamic_W(volts[i], hz[i], m.activity(share[i], 0)) + leak * (1 - resident) + idle_W;
    i = (i + 1) & (seq_len - 1);
    benchmark::DoNotOptimize(w);
  }
}

// One idle period through the menu-like governor: learn the last period, pick a state.
void bm_idle_governor(benchmark::State& st) {
  idle_governor g({{"wfi", 0, 0, 1e-6, 0, 1.0}, {"ret", 0, 20e-6, 100e-6, 2e-3, 0.5},
                   {"off", 0, 235e-6, 220e-6, 3.5e-3, 0.05}},
                  1.0);
  const auto idle = sequence(0.5e-3, 10e-3);
  std::size_t i = 0;
  for (auto _ : st) {
    g.reflect(idle[i]);
    i = (i + 1) & (seq_len - 1);
    benchmark::DoNotOptimize(g.select());
  }
}

// A DRAM's tick (with self-refresh) and the wall power of the platform through VR and PSU.
void bm_memory_and_wall(benchmark::State& st) {
  memory_power_params mp;
  mp.background_W = 0.08;
  mp.refresh_W = 0.02;
  mp.energy_per_byte_read_J = mp.energy_per_byte_write_J = 30e-12;
  mp.self_refresh_W = 0.006;
  memory_power_model m(mp);
  supply_params s;
  s.vr_rated_W = 20;
  s.vr = vr_typical();
  s.psu_rated_W = 30;
  s.psu = psu_80plus_titanium();
  const auto bytes = sequence(-2e6, 4e6), plat = sequence(0.5, 15);
  std::size_t i = 0;
  for (auto _ : st) {
    const double b = std::max(0.0, bytes[i]);
    const double w = wall_power_W(s, plat[i] + m.step_W(b, b / 2, tick_s));
    i = (i + 1) & (seq_len - 1);
    benchmark::DoNotOptimize(w);
  }
}

}  // namespace

int main(int argc, char** argv) {
  benchmark::RegisterBenchmark("schedutil_update", bm_cpufreq, "schedutil", tunables{{"rate_limit_us", 0}});
  benchmark::RegisterBenchmark("ondemand_update", bm_cpufreq, "ondemand", tunables{{"sampling_rate_us", 1000}});
  benchmark::RegisterBenchmark("step_wise_update", bm_step_wise);
  benchmark::RegisterBenchmark("compute_power_eval", bm_compute_power);
  benchmark::RegisterBenchmark("idle_power_eval", bm_idle_power);
  benchmark::RegisterBenchmark("idle_governor_select", bm_idle_governor);
  benchmark::RegisterBenchmark("memory_wall_eval", bm_memory_and_wall);

  ptsim::bench::summary_reporter rep;
  ptsim::bench::run_all(argc, argv, rep);

  std::printf("\nShare of a 1 us budget, this run (target: well under 1)\n");
  for (const char* n : {"schedutil_update", "ondemand_update", "step_wise_update", "compute_power_eval",
                        "idle_power_eval", "idle_governor_select", "memory_wall_eval"})
    if (rep.ns(n) > 0) std::printf("  %-20s %8.1f ns  %6.3f\n", n, rep.ns(n), rep.ns(n) / 1000.0);
  return 0;
}
