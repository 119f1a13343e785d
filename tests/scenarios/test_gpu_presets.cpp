// The GPU presets (scenarios/presets/node-1x*.yaml, server-8x*.yaml, parts in gpu-parts.yaml):
// the naming rule, the board each power limit covers, and the vendor's default state.
#include <doctest/doctest.h>

#include "relative_approx.hpp"

#include <unistd.h>
#include <yaml-cpp/yaml.h>

#include <filesystem>
#include <fstream>
#include <optional>

#include "helpers.hpp"

using namespace scen_test;

namespace {

struct preset {
  const char* file;
  int gpus;
  double default_limit_W;               // the vendor's default power limit
  std::optional<double> min_limit_W;    // nvidia-smi's minimum power limit, where a source gives it
  double max_limit_W;
  double top_mhz, bottom_mhz;           // the SM clock table's ends
  int sms;
  double app_mhz;                       // nvidia-smi's Default Applications Clocks (a context idles there)
};

// Figures from the data sheets cited in gpu-parts.yaml (hardware-data.md section 1).
const preset all[] = {
    {"node-1xv100.yaml", 1, 250, 100, 250, 1380, 135, 80, 1230},
    {"node-1xa100.yaml", 1, 400, 100, 400, 1410, 210, 108, 1155},
    {"node-1xa40.yaml", 1, 300, 100, 300, 1740, 210, 84, 1740},
    {"node-1xh100.yaml", 1, 700, 200, 700, 1980, 345, 132, 1980},
    {"node-1xh200.yaml", 1, 700, 200, 700, 1980, 345, 132, 1980},
    {"server-8xa100.yaml", 8, 400, 100, 400, 1410, 210, 108, 1155},
    {"server-8xh100.yaml", 8, 700, 200, 700, 1980, 345, 132, 1980},
    {"server-8xh200.yaml", 8, 700, 200, 700, 1980, 345, 132, 1980},
};

// A preset holds no workload: load it as a scenario that extends it with one training step on gpu0.
ps::scenario load_preset(const std::string& file, std::initializer_list<const char*> sets = {}) {
  namespace fs = std::filesystem;
  const fs::path child = fs::temp_directory_path() / ("ptsim-gpu-preset-" + std::to_string(::getpid()) + ".yaml");
  std::ofstream(child) << "extends: " PTSIM_SOURCE_DIR "/scenarios/presets/" << file << "\n"
                       << "workload:\n  streams:\n    train:\n      arrival: { kind: closed_loop, users: 1 }\n"
                          "      stages: [ { units: [ gpu0 ], parallel: data, model: resnet50, params: { batch: 8 },\n"
                          "                  precision: fp16, training: {} } ]\n";
  struct remove_at_end {
    fs::path p;
    ~remove_at_end() { fs::remove(p); }
  } cleanup{child};
  return ps::load_scenario_file(child.string(), with_sets(sets));
}

const ptsim::power::dvfs_domain_config* domain_of(const ps::scenario& sc, const std::string& name) {
  for (const auto& d : sc.domains)
    if (d.name == name) return &d;
  return nullptr;
}

}  // namespace

TEST_CASE("every GPU preset: gpu{i}, hbm{i}, nvlink{i}, pcie_gpu{i}; domain gpu{i}; vendor defaults") {
  for (const auto& p : all) {
    CAPTURE(p.file);
    const auto sc = load_preset(p.file);
    int gpus = 0;
    for (const auto& u : sc.platform.units) gpus += u.name.rfind("gpu", 0) == 0;
    CHECK(gpus == p.gpus);
    for (int i = 0; i < p.gpus; ++i) {
      const std::string n = std::to_string(i), g = "gpu" + n;
      CAPTURE(g);
      const auto* d = domain_of(sc, g);
      REQUIRE(d);
      CHECK(d->opps.max_hz() == ptsim_test::Approx(p.top_mhz * 1e6));
      CHECK(d->opps.min_hz() == ptsim_test::Approx(p.bottom_mhz * 1e6));
      CHECK(d->min_power_limit_W == p.min_limit_W);
      CHECK(d->max_power_limit_W == p.max_limit_W);
      const auto* lim = sc.policy.limits_for(g);
      REQUIRE(lim);
      REQUIRE(lim->power_W);
      CHECK(*lim->power_W == p.default_limit_W);
      // No clock lock by default: the whole table.
      CHECK(lim->min_hz == ptsim_test::Approx(p.bottom_mhz * 1e6));
      CHECK(lim->max_hz == ptsim_test::Approx(p.top_mhz * 1e6));
      // Board power = the sum of the GPU's four parts, as nvidia-smi reports it.
      CHECK(lim->components == std::vector<std::string>{g, "hbm" + n, "nvlink" + n, "pcie_gpu" + n});
      const auto& gov = sc.policy.governor_for(g);
      CHECK(gov.name == "gpu_boost");
      CHECK(gov.values.at("context_mhz") == p.app_mhz);
      // The workload (load_preset) runs on gpu0 only: its context is resident from the start there.
      CHECK(gov.values.count("context") == (i == 0 ? 1u : 0u));
    }
    for (const auto& u : sc.platform.units)
      if (u.name.rfind("gpu", 0) == 0) CHECK(u.cores == p.sms);
    CHECK(sc.policy.governor_for("cpu0").name == "schedutil");  // the host keeps Linux's
    CHECK(sc.policy.limits_for("cpu0") == nullptr);
  }
}

TEST_CASE("one H100 described once: the node and the server resolve the same GPU") {
  const auto node = load_preset("node-1xh100.yaml");
  const auto server = load_preset("server-8xh100.yaml");
  const auto gpu = [](const ps::scenario& sc) {
    for (const auto& u : sc.platform.units)
      if (u.name == "gpu0") return u;
    FAIL("no gpu0");
    return sc.platform.units.front();
  };
  CHECK(gpu(node).cores == gpu(server).cores);
  // A template change reaches every preset that uses it.
  const auto changed = load_preset("node-1xh200.yaml", {"templates.h100.sms=100"});
  CHECK(gpu(changed).cores == 100);
}

TEST_CASE("a preset run as it is: the missing workload's error says a preset is a platform to extend") {
  const auto ds = diagnostics_of([] { ps::load_scenario_file(PTSIM_SOURCE_DIR "/scenarios/presets/node-1xa100.yaml"); });
  const auto d = only_at(ds, "workload");
  CHECK(contains(d.message, "missing required key 'workload'"));
  CHECK(contains(d.message, "describes a platform, as the presets do; run a scenario that extends it with a workload"));
  // Elsewhere a missing key says only that.
  CHECK(only_at(load_errors("name: x\n"), "thermal").message == "missing required key 'thermal'");
}

TEST_CASE("a limit outside the vendor's range is refused, naming the range") {
  const auto ds = diagnostics_of([] { load_preset("node-1xa100.yaml", {"policy.limits.gpu0.power=450 W"}); });
  CHECK(contains(only_at(ds, "policy.limits.gpu0.power").message, "power limit range 100 W .. 400 W"));
  // 150 W is within the V100's 100-250 W: accepted.
  const auto v = load_preset("node-1xv100.yaml", {"policy.limits.gpu0.power=150 W"});
  CHECK(*v.policy.limits_for("gpu0")->power_W == 150.0);
}

TEST_CASE("the 8x A100 server is a DGX A100: its host, NICs, NVSwitches and supply as the data sheet counts them") {
  const auto sc = load_preset("server-8xa100.yaml");
  const YAML::Node c = YAML::Load(sc.resolved_yaml)["platform"]["components"];
  for (const char* s : {"0", "1"}) {
    CAPTURE(s);
    // 2x AMD EPYC 7742: 64 cores each, AVX2 (2 x 256-bit FMA = 32 fp32 ops per cycle).
    CHECK(c[std::string("cpu") + s]["cores"].as<int>() == 64);
    CHECK(c[std::string("cpu") + s]["ops_per_cycle"]["fp32"].as<int>() == 32);
    // Eight single-port and two dual-port ConnectX-6 (12 ports of 200 Gb/s = 25 GB/s): six per socket.
    CHECK(c[std::string("nic") + s]["bandwidth"].Scalar() == "150 GB/s");
    // DDR4-3200: 8 channels of 25.6 GB/s per socket.
    CHECK(c[std::string("ddr") + s]["channel_bandwidth"].Scalar() == "25.6 GB/s");
  }
  // Six NVSwitch chips; 8 GPUs x 300 GB/s each way through the fabric.
  CHECK(c["nvswitch"]["bandwidth"].Scalar() == "2.4 TB/s");
  // 6.5 kW maximum system power, 6 x 3 kW supplies sharing the load.
  CHECK(sc.supply.vr_rated_W == 6500);
  CHECK(sc.supply.psu_rated_W == 18000);
}

TEST_CASE("the 8x H100 server holds DGX H100's ten 400 Gb/s NICs (five per socket) and 4 NVSwitch chips") {
  const auto sc = load_preset("server-8xh100.yaml");
  const YAML::Node c = YAML::Load(sc.resolved_yaml)["platform"]["components"];
  for (const char* n : {"nic0", "nic1"}) CHECK(c[n]["bandwidth"].Scalar() == "250 GB/s");   // 5 x 50 GB/s
  CHECK(c["nvswitch"]["background_power"].Scalar() == "240 W");                             // 4 x 60 W
}

TEST_CASE("the V100 SXM2 validation board is the preset's GPU with SXM2's clocks and its own fitted V-f knots") {
  // validation/platforms/v100-sxm2.yaml: the PCIe preset's clock table continued to 1530 MHz and
  // its idle knot, with the voltages above it fitted to a locked-clock sweep of an SXM2 board
  // (938.5 mV at 1087 MHz, 1038.9 at 1380, 1168.2 at 1530; linear between knots).
  const auto pcie = load_preset("node-1xv100.yaml");
  // (Loaded through a case that extends it: a platform file alone has no workload.)
  const auto sxm2 = ps::load_scenario_file(PTSIM_SOURCE_DIR "/validation/v100-sxm2-gemm-locked-clock/scenario.yaml");
  const auto* a = domain_of(pcie, "gpu0");
  const auto* b = domain_of(sxm2, "gpu0");
  REQUIRE(a);
  REQUIRE(b);
  CHECK(b->opps.max_hz() == ptsim_test::Approx(1530e6));
  REQUIRE(b->opps.size() == a->opps.size() + 10);  // 1395-1530 MHz, 15 MHz apart
  for (std::size_t i = 0; i < a->opps.size(); ++i) {
    CAPTURE(a->opps.frequency_hz(i));
    CHECK(b->opps.frequency_hz(i) == ptsim_test::Approx(a->opps.frequency_hz(i)));
  }
  // The idle knot is shared: the lowest OPP's voltage is the preset's.
  CHECK(b->opps.voltage_v(0) == ptsim_test::Approx(a->opps.voltage_v(0)).epsilon(1e-9));
  // On the knots' segments: 1380 MHz is a knot; 1455 MHz lies halfway from it to 1530.
  auto volt_at = [&](double hz) { return b->opps.voltage_v(b->opps.index_of(hz)); };  // throws off the table
  CHECK(volt_at(1380e6) == ptsim_test::Approx(1.0389).epsilon(1e-6));
  CHECK(volt_at(1455e6) == ptsim_test::Approx((1.0389 + 1.1682) / 2).epsilon(1e-6));
  CHECK(volt_at(1530e6) == ptsim_test::Approx(1.1682).epsilon(1e-6));
  // 1080 MHz, 7 MHz below the 1087 MHz knot, on the segment from the idle knot (700 mV at 135 MHz).
  CHECK(volt_at(1080e6) == ptsim_test::Approx(0.700 + (0.9385 - 0.700) * (1080 - 135) / (1087 - 135)).epsilon(1e-6));
  // The voltage never falls with the clock.
  for (std::size_t i = 1; i < b->opps.size(); ++i) CHECK(b->opps.voltage_v(i) >= b->opps.voltage_v(i - 1));
}
