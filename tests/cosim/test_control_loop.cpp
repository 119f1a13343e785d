// The closed loop without a kernel: power from activity, DVFS decisions, thermal limits.
#include <doctest/doctest.h>

#include "relative_approx.hpp"

#include <cmath>

#include "ptsim/cosim/control_loop.hpp"
#include "ptsim/scenarios/scenario.hpp"

using namespace ptsim;

namespace {

// One CPU cluster on a 4-OPP domain, a NoC and an LPDDR, on a 3-block die.
std::string control_scenario_text(const std::string& governor, const std::string& thermal) {
  return R"(
name: loop-test
duration: "1 s"
control_period: "1 ms"
record_period: "1 ms"
platform:
  domains:
    d:
      transition_latency: "500 us"
      opps:
        - { freq: "500 MHz",  volt: "0.6 V" }
        - { freq: "1000 MHz", volt: "0.7 V" }
        - { freq: "1500 MHz", volt: "0.8 V" }
        - { freq: "2000 MHz", volt: "1.0 V" }
  components:
    cpu: { kind: cpu_cluster, domain: d, connect: noc, ops_per_cycle: { fp32: 8 },
           c_eff: "1 nF", stall_activity: 0.5,
           leakage: { power: "100 mW", v_ref: "1 V", t_ref: "25 degC", doubling: "10 K", v_exponent: 2 } }
    noc: { kind: noc, connect: mem, bandwidth: "10 GB/s", energy_per_byte: "4 pJ/B", background_power: "20 mW" }
    mem: { kind: lpddr, bandwidth: "10 GB/s", background_power: "80 mW",
           energy_per_byte_read: "30 pJ/B", energy_per_byte_write: "32 pJ/B" }
workload:
  streams:
    s: { arrival: { kind: fixed_rate, rate: "10 Hz" }, precision: fp32,
         stages: [ { unit: cpu, model: classifier_postprocess } ] }
thermal:
  ambient: "25 degC"
  floorplan:
    - { name: cpu, x: "0 mm", y: "0 mm", width: "2 mm", height: "2 mm" }
    - { name: noc, x: "2 mm", y: "0 mm", width: "1 mm", height: "2 mm" }
    - { name: mem, x: "3 mm", y: "0 mm", width: "1 mm", height: "2 mm" }
policy:
  governor: )" + governor + R"(
  thermal: )" + thermal + "\n";
}

std::vector<cosim::component_input> inputs() {
  std::vector<cosim::component_input> in(3);
  in[0].compute_share = 0.4;
  in[0].stall_share = 0.2;
  in[1].bytes_read = 1e6;
  in[1].bytes_written = 1e6;
  in[2].bytes_read = 1e6;
  in[2].bytes_written = 1e6;
  return in;
}

}  // namespace

TEST_CASE("component power follows C V^2 f a, leakage, and bytes moved") {
  const auto sc = scenarios::load_scenario_text(control_scenario_text("performance", "{ governor: none }"), "test");
  cosim::control_loop loop(sc);
  REQUIRE(loop.component_names() == std::vector<std::string>{"cpu", "noc", "mem"});
  const auto init = loop.initial_points();
  CHECK(init[0].first == 2e9);  // performance starts at the top OPP
  CHECK(init[0].second == 1.0);
  // The domain ran at 2 GHz, 1.0 V for the whole period.
  loop.tick(1e-3, inputs(), {{2e9, 1.0, 1.0 * 1.0 * 2e9}});
  const auto& p = loop.component_power_W();
  // cpu: activity = 0.4 + 0.5 * 0.2 = 0.5; dynamic = 1e-9 F * 1 V^2 * 2e9 Hz * 0.5 = 1.0 W;
  // leakage at V_ref and T_ref (the die starts at ambient, 25 degC) = 0.1 W.
  CHECK(p[0] == ptsim_test::Approx(1.1).epsilon(1e-12));
  // noc: 0.02 W + 4e-12 J/B * 2e6 B / 1e-3 s = 0.02 + 0.008 = 0.028 W.
  CHECK(p[1] == ptsim_test::Approx(0.028).epsilon(1e-12));
  // mem: 0.08 W + (30e-12 * 1e6 + 32e-12 * 1e6) J / 1e-3 s = 0.08 + 0.062 = 0.142 W.
  CHECK(p[2] == ptsim_test::Approx(0.142).epsilon(1e-12));
  CHECK(loop.platform_power_W() == ptsim_test::Approx(1.27).epsilon(1e-12));
  // Heat went in: every block is above ambient after one period, the cpu block most.
  const auto& T = loop.block_temperature_K();
  CHECK(T[0] > 298.15);
  CHECK(T[0] > T[1]);
}

TEST_CASE("a mid-period DVFS change is charged by its time-weighted V^2 f") {
  const auto sc = scenarios::load_scenario_text(control_scenario_text("performance", "{ governor: none }"), "test");
  cosim::control_loop loop(sc);
  loop.initial_points();
  // Half the period at (1 GHz, 0.7 V), half at (2 GHz, 1.0 V):
  // avg V^2 f = (0.49 * 1e9 + 1.0 * 2e9) / 2 = 1.245e9; avg f = 1.5e9.
  auto in = inputs();
  in[0].compute_share = 1.0;
  in[0].stall_share = 0.0;
  loop.tick(1e-3, in, {{1.5e9, 0.85, 1.245e9}});
  // dynamic = 1e-9 * 1.245e9 * 1.0 = 1.245 W; leakage at 0.85 V: 0.1 * 0.85^2 = 0.07225 W.
  CHECK(loop.component_power_W()[0] == ptsim_test::Approx(1.245 + 0.07225).epsilon(1e-12));
}

TEST_CASE("schedutil's request maps onto the table; util is frequency-invariant") {
  const auto sc = scenarios::load_scenario_text(control_scenario_text("schedutil", "{ governor: none }"), "test");
  cosim::control_loop loop(sc);
  loop.initial_points();
  auto in = inputs();
  in[0].compute_share = 0.5;
  in[0].stall_share = 0.0;
  // Busy half of a period spent at 2 GHz: util = 0.5 * 2/2 = 0.5 of capacity;
  // f = 1.25 * 2 GHz * 0.5 = 1.25 GHz -> lowest OPP at or above: 1.5 GHz (0.8 V).
  const auto& dec = loop.tick(1e-3, in, {{2e9, 1.0, 2e9}});
  REQUIRE(dec.size() == 1);
  CHECK(dec[0].hz == 1.5e9);
  CHECK(dec[0].volts == 0.8);
  CHECK(dec[0].reason == cosim::throttle_reason::none);
}

TEST_CASE("a thermal ceiling cuts the request and marks the domain throttled") {
  // Control temperature below ambient: the zone is hot from the first reading, so
  // step_wise raises the cooling state to 1 (one OPP below max) at its first poll.
  const auto sc = scenarios::load_scenario_text(
      control_scenario_text("performance", "{ governor: step_wise, control_temp: \"20 degC\", polling_period: \"1 ms\" }"),
      "test");
  cosim::control_loop loop(sc);
  loop.initial_points();
  const auto& dec = loop.tick(1e-3, inputs(), {{2e9, 1.0, 2e9}});
  REQUIRE(dec.size() == 1);
  CHECK(dec[0].hz == 1.5e9);  // performance asks 2 GHz; the ceiling allows 1.5 GHz
  CHECK(dec[0].reason == cosim::throttle_reason::thermal);
  CHECK(loop.domain_throttled()[0]);
  CHECK(loop.domain_ceiling_hz()[0] == 1.5e9);
}

namespace {
// A user's governor, written outside the core: always half the table's maximum.
struct half_max final : power::cpufreq_governor {
  double max_hz = 0;
  void start(const power::opp_table& o, double) override { max_hz = o.max_hz(); }
  double update(const power::cpufreq_sample&) override { return max_hz / 2; }
};
}  // namespace

TEST_CASE("a governor registered by the user is selected by name from a scenario") {
  auto& reg = power::governor_registry::instance();
  if (!reg.contains("half_max"))
    reg.register_governor({"half_max", "half the maximum frequency", {}},
                          [](const power::tunables&) { return std::make_unique<half_max>(); });
  const auto sc = scenarios::load_scenario_text(control_scenario_text("half_max", "{ governor: none }"), "test");
  CHECK(sc.policy.default_governor.name == "half_max");
  cosim::control_loop loop(sc);
  // Half of 2000 MHz: 1000 MHz, a table frequency (0.7 V).
  const auto init = loop.initial_points();
  CHECK(init[0].first == 1000e6);
  CHECK(init[0].second == 0.7);
  // It keeps asking for 1 GHz whatever the load: no change to apply.
  CHECK(loop.tick(1e-3, inputs(), {{1e9, 0.7, 0.49e9}}).empty());
}

namespace {
// The same platform with idle states on the cpu, an LPDDR5 preset with self-refresh on the
// memory, and a VR and PSU between the wall and the components.
std::string low_power_text() {
  std::string t = control_scenario_text("performance", "{ governor: none }");
  const std::string cpu_tail = "leakage: { power: \"100 mW\", v_ref: \"1 V\", t_ref: \"25 degC\", doubling: \"10 K\", v_exponent: 2 }";
  t.replace(t.find(cpu_tail), cpu_tail.size(),
            cpu_tail + ",\n           idle_states: [ { name: cg, leakage_fraction: 1 },\n"
                       "                          { name: ret, leakage_fraction: 0.5, exit_latency: \"100 us\", target_residency: \"2 ms\" },\n"
                       "                          { name: pg, leakage_fraction: 0.1, exit_latency: \"1 ms\", target_residency: \"20 ms\" } ]");
  const std::string mem = "mem: { kind: lpddr, bandwidth: \"10 GB/s\", background_power: \"80 mW\",\n"
                          "           energy_per_byte_read: \"30 pJ/B\", energy_per_byte_write: \"32 pJ/B\" }";
  t.replace(t.find(mem), mem.size(), "mem: { kind: lpddr, bandwidth: \"10 GB/s\", capacity: \"8 GB\", preset: lpddr5 }");
  t.replace(t.find("  components:"), 0,
            "  supply:\n    vr: { rated: \"2 W\", efficiency: [ { load: 0, efficiency: 0.8 }, { load: 1, efficiency: 0.9 } ] }\n"
            "    psu: { rated: \"10 W\" }\n");
  return t;
}

// Period 1 of the low-power platform: the cpu computes 20 % of the time and is 60 % in
// retention; bytes move.
void tick_period_one(cosim::control_loop& loop) {
  auto in = inputs();
  in[0].compute_share = 0.2;
  in[0].stall_share = 0;
  in[0].idle_s = {0, 0.6e-3, 0};
  loop.tick(1e-3, in, {{2e9, 1.0, 2e9}});
}
}  // namespace

TEST_CASE("idle-state residency, DRAM self-refresh and wall power, by hand") {
  const auto sc = scenarios::load_scenario_text(low_power_text(), "test");
  REQUIRE(sc.power[0].idle_states.size() == 3);
  cosim::control_loop loop(sc);
  loop.initial_points();
  tick_period_one(loop);
  const auto& p = loop.component_power_W();
  // cpu: dynamic 1e-9 * 1^2 * 2e9 * 0.2 = 0.4 W; leakage 0.1 W for the 40 % not in a
  // state, half of it for the 60 % in retention: 0.04 + 0.03 = 0.07 W.
  CHECK(p[0] == ptsim_test::Approx(0.47).epsilon(1e-12));
  CHECK(loop.component_low_power_share()[0] == ptsim_test::Approx(0.6));
  // mem (LPDDR5 preset x 8 GB): background 6 mW/GB -> 48 mW, refresh 2 mW/GB -> 16 mW,
  // 32 pJ/B x 2e6 B / 1 ms = 64 mW: 0.128 W.
  CHECK(p[2] == ptsim_test::Approx(0.128).epsilon(1e-12));
  // Wall: platform 0.47 + 0.028 + 0.128 = 0.626 W. VR at 0.313 of 2 W: eta 0.8 + 0.1 *
  // 0.313 = 0.8313 -> 0.753037 W in; PSU at 7.5 % of 10 W, below its first point (10 %):
  // eta 0.90 -> 0.836708 W at the wall.
  CHECK(loop.platform_power_W() == ptsim_test::Approx(0.626).epsilon(1e-12));
  CHECK(loop.wall_power_W() == ptsim_test::Approx(0.626 / 0.8313 / 0.90).epsilon(1e-12));
  // Period 2: nothing moves; the memory (self_refresh_after 0) is in self-refresh at
  // 0.6 mW/GB -> 4.8 mW, and the cpu idles the whole period in power gating: 0.1 * 0.1 W.
  // Leakage goes with the block's temperature at the start of the period: 0.1 * 2^(dT/10).
  const double dT = loop.block_temperature_K()[0] - sc.thermal.ambient.value();
  CHECK(dT > 0);
  std::vector<cosim::component_input> idle(3);
  idle[0].idle_s = {0, 0, 1e-3};
  loop.tick(2e-3, idle, {{2e9, 1.0, 2e9}});
  CHECK(p[2] == ptsim_test::Approx(0.0048).epsilon(1e-12));
  CHECK(loop.component_low_power_share()[2] == 1.0);
  CHECK(p[0] == ptsim_test::Approx(0.1 * 0.1 * std::exp2(dT / 10)).epsilon(1e-12));
}

TEST_CASE("the platform's base power is a row of its own, in platform power and through the supply") {
  std::string t = low_power_text();
  t.replace(t.find("  supply:"), 0, "  base_power: \"0.25 W\"\n");
  const auto sc = scenarios::load_scenario_text(t, "test");
  CHECK(sc.base_power_W == 0.25);
  cosim::control_loop loop(sc);
  // The components' rows and then "base", which takes no inputs.
  REQUIRE(loop.component_names().size() == 4);
  CHECK(loop.component_names().back() == "base");
  CHECK(loop.input_components() == 3);
  loop.initial_points();
  tick_period_one(loop);
  // The previous case's period 1 (0.626 W in the components) plus 0.25 W: VR at 0.438 of
  // 2 W, eta 0.8 + 0.1 * 0.438 = 0.8438; PSU at 10.38 % of 10 W: between 10 % (0.90) and
  // 20 % (0.94), 0.90 + 0.04 * 0.0382 = 0.901528.
  CHECK(loop.component_power_W()[3] == 0.25);
  CHECK(loop.platform_power_W() == ptsim_test::Approx(0.876).epsilon(1e-12));
  const double vr_in = 0.876 / 0.8438;
  CHECK(loop.wall_power_W() == ptsim_test::Approx(vr_in / (0.90 + 0.04 * (vr_in / 10 - 0.10) / 0.10)).epsilon(1e-12));
  // Without the key the row is absent (no zero row for every platform).
  const auto plain_sc = scenarios::load_scenario_text(low_power_text(), "test");
  cosim::control_loop plain(plain_sc);
  CHECK(plain.component_names().size() == 3);
}
