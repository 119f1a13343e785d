// The mobile_gpu kind (Mali-G78 MP20 in presets/phone-flagship.yaml): one peak table for
// tensor and vector operators, its domain a devfreq device whose governor defaults to
// policy.devfreq_governor (simple_ondemand) whatever policy.governor says; and the LLM host
// work placed by EAS (llm.host.units), with its mistakes refused at their key.
#include <doctest/doctest.h>

#include <string>

#include "helpers.hpp"

namespace ps = ptsim::scenarios;
using namespace scen_test;

namespace {
const std::string camera_gpu = PTSIM_SOURCE_DIR "/scenarios/phone-camera-gpu.yaml";
const std::string llm_chat = PTSIM_SOURCE_DIR "/scenarios/phone-llm-chat.yaml";
const ptsim::tlm_config::compute_unit_config& unit_named(const ps::scenario& sc, const std::string& n) {
  for (const auto& u : sc.platform.units)
    if (u.name == n) return u;
  FAIL("no unit " << n);
  return sc.platform.units.front();
}
std::vector<ps::diagnostic> file_errors(const std::string& path, const ps::load_options& o) {
  return diagnostics_of([&] { ps::load_scenario_file(path, o); });
}
}  // namespace

TEST_CASE("mobile_gpu: shader cores with one peak, behind the NoC, the gs101 shader clocks") {
  const ps::scenario sc = ps::load_scenario_file(camera_gpu);
  const auto& g = unit_named(sc, "gpu");
  CHECK(g.kind == "mobile_gpu");
  CHECK(g.cores == 20);
  CHECK(g.connect == "noc");
  CHECK_FALSE(g.direct_memory);
  // One table for both: 64 fp32 ops per core per cycle (2 engines x 16 FMA lanes).
  using ptsim::tlm_config::precision;
  CHECK(g.ops_per_cycle.at(precision::fp32) == 64);
  CHECK(g.vector_ops_per_cycle.at(precision::fp16) == 128);
  CHECK(g.ops_per_cycle.at(precision::int8) == 256);
  // gs101-gpu.dtsi gpu_dvfs_table_v2: 11 shader clocks, 202 .. 848 MHz.
  const auto& d = sc.domains[domain_named(sc, "gpu")];
  CHECK(d.opps.size() == 11);
  CHECK(d.opps.min_hz() == 202e6);
  CHECK(d.opps.max_hz() == 848e6);
}

TEST_CASE("mobile_gpu: its domain is a devfreq device; simple_ondemand unless told otherwise") {
  const ps::scenario sc = ps::load_scenario_file(camera_gpu);
  const std::size_t gpu = domain_named(sc, "gpu"), big = domain_named(sc, "big"), npu = domain_named(sc, "npu");
  CHECK(sc.domains[gpu].devfreq);
  CHECK_FALSE(sc.domains[big].devfreq);
  CHECK_FALSE(sc.domains[gpu].memory);
  CHECK(sc.policy.governor_for(sc.domains[gpu]).name == "simple_ondemand");
  CHECK(sc.policy.governor_for(sc.domains[big]).name == "schedutil");
  CHECK(sc.policy.governor_for(sc.domains[npu]).name == "schedutil");
  // policy.governor is the cpufreq governor: the devfreq device keeps its own default.
  const ps::scenario ps_ = ps::load_scenario_file(camera_gpu, with_sets({"policy.governor=powersave"}));
  CHECK(ps_.policy.governor_for(ps_.domains[gpu]).name == "simple_ondemand");
  CHECK(ps_.policy.governor_for(ps_.domains[big]).name == "powersave");
  // performance, powersave and userspace as for the other domains.
  for (const char* g : {"performance", "powersave", "userspace"}) {
    const std::string set = std::string("policy.devfreq_governor=") + g;
    const ps::scenario s1 = ps::load_scenario_file(camera_gpu, with_sets({set.c_str()}));
    CHECK(s1.policy.governor_for(s1.domains[gpu]).name == g);
    CHECK(s1.policy.governor_for(s1.domains[big]).name == "schedutil");
  }
  // A per-domain choice wins over both defaults.
  const ps::scenario s2 = ps::load_scenario_file(camera_gpu, with_sets({"policy.governors.gpu=performance",
                                                                        "policy.devfreq_governor=powersave"}));
  CHECK(s2.policy.governor_for(s2.domains[gpu]).name == "performance");
}

TEST_CASE("mobile_gpu: keys of the other GPU kind are refused with the right name") {
  const auto errs = file_errors(camera_gpu, with_sets({"platform.components.gpu.sms=20"}));
  REQUIRE_FALSE(errs.empty());
  CHECK_MESSAGE(errs[0].to_string().find("sms") != std::string::npos, errs[0].to_string());
}

TEST_CASE("llm.host.units: the serving engine's host work as a task placed by EAS") {
  const ps::scenario sc = ps::load_scenario_file(llm_chat);
  const auto& h = sc.workload.streams.at(0).llm.host;
  REQUIRE(h.units.size() == 3);
  CHECK(h.units[0] == "cpu_little");
  CHECK(h.unit == "cpu_little");
  CHECK(sc.workload.scheduler.enabled);  // policy.scheduler auto: a host task asks for it
  const auto tasks = ptsim::tlm_config::sched_tasks(sc.workload);
  REQUIRE(tasks.size() == 1);
  CHECK(tasks[0].name == "chat/host");
  CHECK(tasks[0].llm_host);
  CHECK(tasks[0].cpus.size() == 3);
}

TEST_CASE("llm.host.units mistakes are refused at their key") {
  SUBCASE("a unit that is not a CPU cluster") {
    const auto errs = file_errors(llm_chat, with_sets({"workload.streams.chat.llm.host.units=[cpu_big, npu]"}));
    REQUIRE(errs.size() == 1);
    CHECK_MESSAGE(errs[0].to_string().find("'npu' is a npu") != std::string::npos, errs[0].to_string());
  }
  SUBCASE("unit and units together") {
    const auto errs = file_errors(llm_chat, with_sets({"workload.streams.chat.llm.host.unit=cpu_big"}));
    REQUIRE(errs.size() == 1);
    CHECK_MESSAGE(errs[0].to_string().find("not both") != std::string::npos, errs[0].to_string());
  }
  SUBCASE("the busy-share scheduler") {
    const auto errs = file_errors(llm_chat, with_sets({"policy.scheduler=busy_share"}));
    REQUIRE(errs.size() == 1);
    CHECK_MESSAGE(errs[0].to_string().find("llm.host.units") != std::string::npos, errs[0].to_string());
  }
}
