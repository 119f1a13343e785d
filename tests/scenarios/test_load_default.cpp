// scenarios/default.yaml loads, and every value lands in the resolved structs in SI,
// with schema defaults filling what the file leaves out.
#include <doctest/doctest.h>

#include "relative_approx.hpp"

#include <string>

#include "helpers.hpp"
#include "ptsim/tlm_config/op.hpp"

namespace ps = ptsim::scenarios;
using ptsim_test::Approx;
using namespace scen_test;

namespace {
const ptsim::tlm_config::compute_unit_config* unit(const ps::scenario& sc, const std::string& name) {
  for (const auto& u : sc.platform.units)
    if (u.name == name) return &u;
  return nullptr;
}
}  // namespace

TEST_CASE("the compiled-in default is scenarios/default.yaml byte for byte") {
  const std::string& builtin = ps::builtin_default_scenario();
  const std::string& file = default_text();
  CHECK(builtin.size() == file.size());
  CHECK(builtin == file);
}

TEST_CASE("default.yaml: top level") {
  const ps::scenario sc = ps::load_scenario_file(default_path());
  CHECK(sc.source == default_path());
  CHECK(sc.name == "phone-camera");
  CHECK(sc.duration.value() == Approx(20.0));
  CHECK(sc.control_period.value() == Approx(1e-3));
  CHECK(sc.record_period.value() == Approx(10e-3));
  CHECK(sc.seed == 1u);
  CHECK(sc.platform.quantum.value() == Approx(50e-6));
  CHECK_FALSE(sc.resolved_yaml.empty());
}

TEST_CASE("default.yaml: DVFS domains and operating points") {
  const ps::scenario sc = ps::load_scenario_text(default_text(), "default.yaml");
  REQUIRE(sc.domains.size() == 4);
  // Domains come in file order.
  CHECK(sc.domains[0].name == "little");
  CHECK(sc.domains[1].name == "mid");
  CHECK(sc.domains[2].name == "big");
  CHECK(sc.domains[3].name == "npu");
  const auto& little = sc.domains[0].opps;
  REQUIRE(little.size() == 11);
  CHECK(little.frequency_hz(0) == Approx(300e6));
  CHECK(little.voltage_v(0) == Approx(0.5375));
  CHECK(little.max_hz() == Approx(1803e6));
  CHECK(little.voltage_v(10) == Approx(0.90625));
  CHECK(sc.domains[2].opps.size() == 17);
  CHECK(sc.domains[2].opps.max_hz() == Approx(2802e6));
  CHECK(sc.domains[3].transition_latency.value() == Approx(1e-3));
  CHECK(sc.domains[0].transition_latency.value() == Approx(500e-6));
}

TEST_CASE("default.yaml: components, with schema defaults where the file says nothing") {
  const ps::scenario sc = ps::load_scenario_text(default_text(), "default.yaml");
  REQUIRE(sc.platform.units.size() == 4);
  REQUIRE(sc.platform.interconnects.size() == 1);
  REQUIRE(sc.platform.memories.size() == 1);

  const auto* big = unit(sc, "cpu_big");
  REQUIRE(big != nullptr);
  CHECK(big->kind == "cpu_cluster");
  CHECK(big->domain == "big");
  CHECK(big->connect == "noc");
  CHECK(big->cores == 2);
  CHECK(big->ops_per_cycle.at(ptsim::tlm_config::precision::fp32) == Approx(32));
  CHECK(big->ops_per_cycle.at(ptsim::tlm_config::precision::int8) == Approx(128));
  CHECK(big->efficiency == Approx(0.7));             // schema default
  CHECK(big->vector_efficiency == Approx(0.25));     // schema default
  CHECK(big->launch_overhead.value() == Approx(5e-6));  // schema default "5 us"
  CHECK(big->tile_bytes == 262144.0);                // schema default "256 KiB"

  const auto* npu = unit(sc, "npu");
  REQUIRE(npu != nullptr);
  CHECK(npu->kind == "npu");
  CHECK(npu->cores == 1);  // schema default
  CHECK(npu->vector_efficiency == Approx(0.2));
  CHECK(npu->launch_overhead.value() == Approx(4e-6));
  CHECK(npu->ops_per_cycle.at(ptsim::tlm_config::precision::int8) == Approx(8192));

  const auto& noc = sc.platform.interconnects[0];
  CHECK(noc.name == "noc");
  CHECK(noc.connect == "lpddr");
  CHECK(noc.bandwidth_Bps == Approx(128e9));
  CHECK(noc.latency.value() == Approx(20e-9));

  const auto& mem = sc.platform.memories[0];
  CHECK(mem.name == "lpddr");
  CHECK(mem.bandwidth_Bps == Approx(51.2e9));
  CHECK(mem.latency.value() == Approx(110e-9));
  CHECK(mem.capacity_B == 12.0 * 1024 * 1024 * 1024);

  const auto& p_big = power_of(sc, "cpu_big");
  CHECK(p_big.kind == ps::component_power::model::compute);
  CHECK(p_big.compute.c_eff.value() == Approx(528e-12));  // no c_eff: 2 cores x the domain's 264 pF
  CHECK(p_big.compute.stall_activity == Approx(0.3));  // schema default
  CHECK(p_big.compute.leakage.power_ref.value() == Approx(0.121));
  CHECK(p_big.compute.leakage.v_ref.value() == Approx(0.75));
  CHECK(p_big.compute.leakage.t_ref.value() == Approx(298.15));
  CHECK(p_big.compute.leakage.t_double.value() == Approx(25.0));
  CHECK(p_big.compute.leakage.v_exponent == Approx(4.51));

  const auto& p_mem = power_of(sc, "lpddr");
  CHECK(p_mem.kind == ps::component_power::model::memory);
  CHECK(p_mem.memory.background_W == Approx(0.080));
  CHECK(p_mem.memory.energy_per_byte_read_J == Approx(30e-12));
  CHECK(p_mem.memory.energy_per_byte_write_J == Approx(32e-12));
  const auto& p_noc = power_of(sc, "noc");
  CHECK(p_noc.memory.energy_per_byte_read_J == Approx(4e-12));
}

TEST_CASE("default.yaml: workload") {
  const ps::scenario sc = ps::load_scenario_text(default_text(), "default.yaml");
  REQUIRE(sc.workload.streams.size() == 1);
  const auto& cam = sc.workload.streams[0];
  CHECK(cam.name == "camera");
  CHECK(cam.arrival == ptsim::tlm_config::arrival_kind::fixed_rate);
  CHECK(cam.rate.value() == Approx(30.0));
  CHECK(cam.start.value() == Approx(0.0));
  CHECK(cam.queue_limit == 64);  // schema default
  REQUIRE(cam.stages.size() == 3);
  // The CPU stages are tasks placed by EAS over the three clusters (first listed: little).
  const std::vector<std::string> clusters{"cpu_little", "cpu_mid", "cpu_big"};
  CHECK(cam.stages[0].units == clusters);
  CHECK(cam.stages[0].parallel == ptsim::tlm_config::parallel_kind::energy_aware);
  CHECK(cam.stages[1].unit == "npu");
  CHECK(cam.stages[2].units == clusters);
  CHECK(cam.stages[2].parallel == ptsim::tlm_config::parallel_kind::energy_aware);
  // The scheduler: three runqueues, capacities from gs101's capacity-dmips-mhz 250 / 620 /
  // 1024 at 1803 / 2253 / 2802 MHz: 160 / 498 / 1024; one task per CPU stage.
  REQUIRE(sc.workload.scheduler.enabled);
  REQUIRE(sc.workload.scheduler.cpus.size() == 3);
  CHECK(sc.workload.scheduler.cpus[0].capacity == 160);
  CHECK(sc.workload.scheduler.cpus[1].capacity == 498);
  CHECK(sc.workload.scheduler.cpus[2].capacity == 1024);
  CHECK(ptsim::tlm_config::sched_tasks(sc.workload).size() == 2);
}

TEST_CASE("default.yaml: thermal and policy") {
  const ps::scenario sc = ps::load_scenario_text(default_text(), "default.yaml");
  const auto& th = sc.thermal;
  CHECK(th.ambient.value() == Approx(298.15));
  REQUIRE(th.fp.size() == 6);
  CHECK(th.fp.blocks()[0].name == "cpu_big");
  CHECK(th.fp.blocks()[3].name == "npu");
  CHECK(th.fp.blocks()[3].width_m == Approx(5e-3));
  CHECK(th.fp.problems().empty());
  // lpddr is mapped explicitly; every other component lands on the block of its name.
  CHECK(th.power_map.at("lpddr") == "mem_ctrl");
  CHECK(th.power_map.at("cpu_big") == "cpu_big");
  CHECK(th.power_map.at("noc") == "noc");
  CHECK(th.power_map.size() == 6);
  // Package: file values, and HotSpot defaults for what the file omits.
  CHECK(th.package.t_interface == Approx(50e-6));
  CHECK(th.package.k_interface == Approx(3.0));
  CHECK(th.package.p_sink == Approx(2.4e6));
  CHECK(th.package.r_convec == Approx(5.0));
  CHECK(th.package.k_chip == Approx(100.0));     // default "100 W/(m*K)"
  CHECK(th.package.p_chip == Approx(1.75e6));    // default
  CHECK(th.package.k_spreader == Approx(400.0)); // default
  CHECK_FALSE(th.method.has_value());  // auto: the loop picks exponential for small networks
  CHECK(th.initial == ptsim::thermal::initial_state::ambient);
  CHECK(th.substeps == 8);

  const auto& pol = sc.policy;
  CHECK(pol.default_governor.name == "schedutil");
  CHECK(pol.per_domain.empty());
  CHECK(pol.governor_for("big").name == "schedutil");
  CHECK(pol.thermal.governor == "step_wise");
  CHECK(pol.thermal.zone.control_temp_K == Approx(358.15));
  CHECK(pol.thermal.zone.switch_on_temp_K == Approx(348.15));  // control_temp - 10 K
  CHECK(pol.thermal.zone.hysteresis_K == Approx(2.0));
  CHECK(pol.thermal.zone.polling_period_s == Approx(0.1));
  CHECK(pol.thermal.sensor.node.empty());
  CHECK(pol.thermal.sensor.time_constant_s == 0.0);
  CHECK(pol.thermal.sensor.noise_K == 0.0);
  CHECK(pol.zones.empty());
  CHECK(pol.thermal.name == "thermal");
  CHECK(pol.thermal.cooling.empty());  // every domain
}

TEST_CASE("load_scenario_file on a file that does not exist") {
  const std::string missing = PTSIM_BINARY_DIR "/no-such-dir/no-such-scenario.yaml";
  auto ds = diagnostics_of([&] { ps::load_scenario_file(missing); });
  REQUIRE(ds.size() == 1);
  CHECK(ds[0].file == missing);
  CHECK(contains(ds[0].message, "cannot open"));
  CHECK(contains(ds[0].to_string(), missing));
}

TEST_CASE("diagnostic text: file:line:column: path: message") {
  ps::diagnostic d{"a.yaml", 3, 5, "policy.governor", "bad"};
  CHECK(d.to_string() == "a.yaml:3:5: policy.governor: bad");
  ps::diagnostic nolines{"--set x=1", 0, 0, "x", "bad"};
  CHECK(nolines.to_string() == "--set x=1: x: bad");
  ps::scenario_error e({d, nolines});
  CHECK(std::string(e.what()) == "a.yaml:3:5: policy.governor: bad\n--set x=1: x: bad");
  CHECK(e.diagnostics().size() == 2);
}
