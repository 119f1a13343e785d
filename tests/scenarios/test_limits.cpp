// policy.limits (per-domain clock range and board power limit) and domain-name patterns, on
// the 8-GPU server preset: what the loader resolves, and what it refuses.
#include <doctest/doctest.h>

#include "relative_approx.hpp"

#include "helpers.hpp"

using namespace scen_test;

namespace {
const std::string server = PTSIM_SOURCE_DIR "/scenarios/server-cnn-offline.yaml";
constexpr double MHz = 1e6;

ps::scenario load(std::initializer_list<const char*> sets) {
  return ps::load_scenario_file(server, with_sets(sets));
}
std::vector<ps::diagnostic> errors(std::initializer_list<const char*> sets) {
  return diagnostics_of([&] { load(sets); });
}
}  // namespace

TEST_CASE("the preset's default: NVIDIA's 700 W power limit on every GPU, no limit on the hosts") {
  const auto sc = load({});
  CHECK(sc.policy.limits.size() == 8);
  CHECK(*sc.policy.limits_for("gpu0")->power_W == 700.0);
  CHECK(sc.policy.limits_for("cpu0") == nullptr);
}

TEST_CASE("a wildcard sets every matching domain; a domain's own entry wins") {
  const auto sc = load({"policy.limits.gpu*.power=300 W", "policy.limits.gpu3.power=250 W"});
  REQUIRE(sc.policy.limits.size() == 8);  // gpu0..gpu7, not the host domains cpu0, cpu1
  for (int i = 0; i < 8; ++i) {
    const std::string d = "gpu" + std::to_string(i);
    const auto* lim = sc.policy.limits_for(d);
    REQUIRE(lim);
    CHECK(*lim->power_W == (i == 3 ? 250.0 : 300.0));
    // Defaults: the whole table, the 100 ms window.
    CHECK(lim->min_hz == 345 * MHz);
    CHECK(lim->max_hz == 1980 * MHz);
    CHECK(lim->window_s == ptsim_test::Approx(0.1));
    CHECK(lim->recovery_s == 0.0);  // the clock returns at once after a cut
    // The board: the GPU and what only it connects to (not the shared NVSwitch or PCIe switch).
    const std::string n = std::to_string(i);
    CHECK(lim->components == std::vector<std::string>{"gpu" + n, "hbm" + n, "nvlink" + n, "pcie_gpu" + n});
  }
  CHECK(sc.policy.limits_for("cpu0") == nullptr);
}

TEST_CASE("the host socket's board: the CPU with its mesh and PCIe root, not the DDR behind the mesh") {
  const auto sc = load({"policy.limits.cpu1.power=300 W"});
  CHECK(sc.policy.limits_for("cpu1")->components == std::vector<std::string>{"cpu1", "mesh1", "pcie_cpu1"});
}

TEST_CASE("an explicit board, and a board that leaves out the domain's own unit") {
  const auto sc = load({"policy.limits.gpu0.power=300 W", "policy.limits.gpu0.components=[gpu0, hbm0]"});
  CHECK(sc.policy.limits_for("gpu0")->components == std::vector<std::string>{"gpu0", "hbm0"});
  CHECK(contains(only_at(errors({"policy.limits.gpu0.power=300 W", "policy.limits.gpu0.components=[hbm0]"}),
                         "policy.limits.gpu0.components")
                     .message,
                 "must include its own compute unit 'gpu0'"));
  CHECK(contains(only_at(errors({"policy.limits.gpu0.components=[gpu0, hbm9]"}), "policy.limits.gpu0.components[1]")
                     .message,
                 "unknown component 'hbm9'"));
}

TEST_CASE("clocks on the table are kept; between two OPPs max rounds down, min up, with a warning") {
  const auto exact = load({"policy.limits.gpu0.min_freq=1290 MHz", "policy.limits.gpu0.max_freq=1.83 GHz"});
  CHECK(exact.policy.limits_for("gpu0")->min_hz == 1290 * MHz);
  CHECK(exact.policy.limits_for("gpu0")->max_hz == 1830 * MHz);
  CHECK(exact.policy.limits_for("gpu0")->notes.empty());
  // H100 preset table: 345-1980 MHz every 15 MHz (... 1095, 1110, ... 1695, 1710 ...)
  const auto sc = load({"policy.limits.gpu0.min_freq=1100 MHz", "policy.limits.gpu0.max_freq=1700 MHz"});
  const auto* lim = sc.policy.limits_for("gpu0");
  CHECK(lim->min_hz == 1110 * MHz);
  CHECK(lim->max_hz == 1695 * MHz);
  REQUIRE(lim->notes.size() == 2);
  CHECK(lim->notes[0] ==
        "min_freq 1100 MHz of domain 'gpu0' lies between its OPPs 1095 MHz and 1110 MHz: rounded up to 1110 MHz, "
        "as the driver does");
  CHECK(lim->notes[1] ==
        "max_freq 1700 MHz of domain 'gpu0' lies between its OPPs 1695 MHz and 1710 MHz: rounded down to 1695 MHz, "
        "as the driver does");
  int warnings = 0;
  for (const auto& w : sc.warnings)
    if (w.path == "policy.limits.gpu0.min_freq" || w.path == "policy.limits.gpu0.max_freq") {
      ++warnings;
      CHECK(w.warning);
    }
  CHECK(warnings == 2);
}

TEST_CASE("range errors name the allowed range") {
  const auto lo = only_at(errors({"policy.limits.gpu0.min_freq=300 MHz"}), "policy.limits.gpu0.min_freq");
  CHECK(lo.message == "min_freq: expected a clock within domain 'gpu0' operating points 345 MHz .. 1980 MHz, "
                      "found 300 MHz");
  CHECK(lo.file == "--set policy.limits.gpu0.min_freq");
  const auto hi = only_at(errors({"policy.limits.gpu*.max_freq=2.1 GHz"}), "policy.limits.gpu*.max_freq");
  CHECK(contains(hi.message, "345 MHz .. 1980 MHz, found 2100 MHz"));
  const auto inverted = errors({"policy.limits.gpu0.min_freq=1830 MHz", "policy.limits.gpu0.max_freq=1290 MHz"});
  CHECK(contains(only_at(inverted, "policy.limits.gpu0.min_freq").message,
                 "min_freq (1830 MHz) is above max_freq (1290 MHz)"));
  // Power: positive by the schema; within the domain's min/max_power_limit when it states them.
  CHECK(!errors({"policy.limits.gpu0.power=0 W"}).empty());
  const auto p = only_at(errors({"platform.domains.gpu0.min_power_limit=200 W",
                                 "platform.domains.gpu0.max_power_limit=700 W", "policy.limits.gpu0.power=150 W"}),
                         "policy.limits.gpu0.power");
  CHECK(p.message == "power: expected a limit within domain 'gpu0' power limit range 200 W .. 700 W "
                     "(platform.domains.gpu0 min_power_limit, max_power_limit), found 150 W");
  const auto only_max = only_at(errors({"platform.domains.gpu0.min_power_limit=null", "policy.limits.gpu0.power=701 W"}),
                                "policy.limits.gpu0.power");
  CHECK(contains(only_max.message, "power limit range at most 700 W"));
  const auto win = only_at(errors({"policy.limits.gpu0.power=300 W", "policy.limits.gpu0.window=100 us"}),
                           "policy.limits.gpu0.window");
  CHECK(contains(win.message, "shorter than the control period"));
  // recovery: a time, zero or more.
  CHECK(load({"policy.limits.gpu0.power=300 W", "policy.limits.gpu0.recovery=50 ms"}).policy.limits_for("gpu0")->recovery_s ==
        ptsim_test::Approx(0.05));
  CHECK(!errors({"policy.limits.gpu0.recovery=-1 ms"}).empty());
  CHECK(!errors({"policy.limits.gpu0.recovery=50 W"}).empty());
}

TEST_CASE("a board limit below the board's floor is a warning") {
  // The H100 board's floor at 25 degC: leakage 61 W x 2^(-15/40) = 47.2 W at 670 mV, HBM
  // self-refresh, NVLink and PCIe background: about 56 W. 20 W cannot be met, 150 W can.
  // Below the H100's 200 W minimum: the study lowers the device's minimum to ask for it.
  const auto low = load({"templates.h100_dvfs.min_power_limit=10 W", "policy.limits.gpu*.power=20 W"});
  int n = 0;
  for (const auto& w : low.warnings)
    if (w.path == "policy.limits.gpu*.power" && contains(w.message, "power 20 W cannot be met: the board of domain 'gpu0' "
                                                                    "(gpu0, hbm0, nvlink0, pcie_gpu0) draws at least"))
      ++n;
  CHECK(n == 1);  // once for the pattern, not once per GPU
  for (const auto& w : load({"templates.h100_dvfs.min_power_limit=10 W", "policy.limits.gpu*.power=150 W"}).warnings) CHECK(!contains(w.message, "cannot be met"));
}

TEST_CASE("names that are no domain, patterns that match none, and two patterns for one domain") {
  CHECK(contains(only_at(errors({"policy.limits.gpu8.power=300 W"}), "policy.limits.gpu8.power").message,
                 "unknown DVFS domain 'gpu8' (domains: gpu0, gpu1"));
  const auto none = only_at(errors({"policy.limits.tpu*.power=300 W"}), "policy.limits.tpu*.power");
  CHECK(contains(none.message, "the pattern 'tpu*' matches no DVFS domain"));
  CHECK(none.file == "--set policy.limits.tpu*.power");
  const auto both = errors({"policy.limits.gpu*.power=300 W", "policy.limits.gpu[0-3].power=250 W"});
  CHECK(!both.empty());
  CHECK(contains(both.front().message, "both set power of domain 'gpu0'"));
  // Different keys from two patterns combine.
  const auto sc = load({"policy.limits.gpu*.power=300 W", "policy.limits.gpu[0-3].max_freq=1485 MHz"});
  CHECK(*sc.policy.limits_for("gpu2")->power_W == 300.0);
  CHECK(sc.policy.limits_for("gpu2")->max_hz == 1485 * MHz);
  CHECK(sc.policy.limits_for("gpu5")->max_hz == 1980 * MHz);
}

TEST_CASE("policy.governors takes the same patterns") {
  const auto sc = load({"policy.governors.gpu*=gpu_boost", "policy.governors.gpu7=performance"});
  CHECK(sc.policy.governor_for("gpu0").name == "gpu_boost");
  CHECK(sc.policy.governor_for("gpu6").name == "gpu_boost");
  CHECK(sc.policy.governor_for("gpu7").name == "performance");
  CHECK(sc.policy.governor_for("cpu0").name == "schedutil");
  CHECK(contains(only_at(errors({"policy.governors.npu*=gpu_boost"}), "policy.governors.npu*").message,
                 "matches no DVFS domain"));
}

TEST_CASE("gpu_boost's context clock: the preset's application clock; a context from the start where the workload runs") {
  // server-cnn-offline.yaml runs its stage on all eight GPUs: each holds a context from the start.
  const auto sc = load({});
  for (int i = 0; i < 8; ++i) {
    const auto& g = sc.policy.per_domain.at("gpu" + std::to_string(i));
    CHECK(g.name == "gpu_boost");
    CHECK(g.values.at("context_mhz") == 1980.0);  // H100's default application clock
    CHECK(g.values.at("context") == 1.0);
  }
  // A stage on gpu0 alone: the other GPUs hold no context (they idle at the idle clock).
  const auto one = load({"workload.streams.offline.stages.0.units=[gpu0]"});
  CHECK(one.policy.per_domain.at("gpu0").values.at("context") == 1.0);
  CHECK(one.policy.per_domain.at("gpu5").values.count("context") == 0);
  // Given in the file, it is kept.
  const auto kept = load({"policy.governors.gpu*.tunables.context=0"});
  CHECK(kept.policy.per_domain.at("gpu0").values.at("context") == 0.0);
}
