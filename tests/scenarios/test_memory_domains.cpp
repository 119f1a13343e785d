// Memory DVFS in the scenario format: a memory on a domain of its own (its governor, the
// domain a compute domain pairs with) and the mistakes that are refused at their key.
#include <doctest/doctest.h>

#include <string>

#include "helpers.hpp"

namespace ps = ptsim::scenarios;
using namespace scen_test;

namespace {
// default.yaml with its LPDDR on a two-level memory clock `mif`.
std::string with_mif(const std::string& lpddr_keys = "      domain: mif\n") {
  std::string t = replace_once(default_text(), "  domains:\n",
                               "  domains:\n    mif: { opps: [ { freq: \"1600 MHz\", volt: \"1.05 V\" }, "
                               "{ freq: \"3200 MHz\", volt: \"1.05 V\" } ] }\n");
  return replace_once(t, "      kind: lpddr                # LPDDR5-6400, 4 x 16-bit channels\n",
                      "      kind: lpddr\n" + lpddr_keys);
}
}  // namespace

TEST_CASE("a memory on a domain: a memory domain, its top clock, its governor and its pairing") {
  const ps::scenario sc = ps::load_scenario_text(with_mif(), "test.yaml", {});
  const std::size_t mif = domain_named(sc, "mif"), big = domain_named(sc, "big");
  CHECK(sc.domains[mif].memory);
  CHECK_FALSE(sc.domains[big].memory);
  const auto& m = sc.platform.memories.at(0);
  CHECK(m.domain == "mif");
  CHECK(m.clock_max_hz == 3200e6);
  // Memory domains default to performance (a fixed top clock); CPUs keep policy.governor.
  CHECK(sc.policy.governor_for(sc.domains[mif]).name == "performance");
  CHECK(sc.policy.governor_for(sc.domains[big]).name == "schedutil");
  const ps::scenario so =
      ps::load_scenario_text(with_mif(), "test.yaml", with_sets({"policy.memory_governor=simple_ondemand"}));
  CHECK(so.policy.governor_for(so.domains[mif]).name == "simple_ondemand");
  CHECK(so.policy.governor_for(so.domains[big]).name == "schedutil");
  // Every cluster and the NPU reach the LPDDR through the noc (one downstream): paired with mif.
  for (const char* d : {"little", "mid", "big", "npu"}) CHECK(sc.memory_domain_of(domain_named(sc, d)) == mif);
  CHECK(sc.memory_domain_of(mif) == ps::component_ref::none);
  // Without a memory clock there is nothing to pair with.
  const ps::scenario plain = ps::load_scenario_text(default_text(), "test.yaml", {});
  CHECK(plain.memory_domain_of(domain_named(plain, "big")) == ps::component_ref::none);
}

TEST_CASE("memory DVFS mistakes are refused at their key") {
  SUBCASE("an unknown memory domain") {
    const auto d = only_at(load_errors(with_mif("      domain: mem\n")), "platform.components.lpddr.domain");
    CHECK(contains(d.message, "unknown DVFS domain 'mem'"));
  }
  SUBCASE("a domain that clocks a CPU cluster and a memory") {
    const std::string t = replace_once(with_mif(), "      domain: mif\n", "      domain: big\n");
    CHECK(contains(only_at(load_errors(t), "platform.components.cpu_big.domain").message,
                   "'big' clocks memories (memory DVFS)"));
  }
  SUBCASE("throttling without a clock") {
    const std::string t = replace_once(default_text(), "      kind: lpddr                # LPDDR5-6400, 4 x 16-bit channels\n",
                                       "      kind: lpddr\n      throttle_temp: \"95 degC\"\n      throttle_freq: \"1 GHz\"\n");
    const auto ds = load_errors(t);
    CHECK(contains(only_at(ds, "platform.components.lpddr.throttle_temp").message, "give it a domain"));
  }
  SUBCASE("a throttle temperature without its clock") {
    const auto d = only_at(load_errors(with_mif("      domain: mif\n      throttle_temp: \"95 degC\"\n")),
                           "platform.components.lpddr.throttle_freq");
    CHECK(contains(d.message, "throttle_temp and throttle_freq go together"));
  }
  SUBCASE("a throttle clock below the table") {
    const auto d = only_at(
        load_errors(with_mif("      domain: mif\n      throttle_temp: \"95 degC\"\n      throttle_freq: \"800 MHz\"\n")),
        "platform.components.lpddr.throttle_freq");
    CHECK(contains(d.message, "below the lowest OPP of domain 'mif' (1600 MHz)"));
  }
}

TEST_CASE("memory_freq locks the memory clock a compute domain's traffic goes to (nvidia-smi -lmc)") {
  // little, mid, big and the NPU all pair with mif (1600, 3200 MHz).
  const ps::scenario sc = ps::load_scenario_text(with_mif(), "test.yaml", with_sets({"policy.limits.npu.memory_freq=1600 MHz"}));
  const auto* lim = sc.policy.limits_for("mif");
  REQUIRE(lim);
  CHECK(lim->min_hz == 1600e6);
  CHECK(lim->max_hz == 1600e6);
  // The NPU's own clock range is untouched.
  const auto* npu = sc.policy.limits_for("npu");
  REQUIRE(npu);
  CHECK(npu->max_hz == sc.domains[domain_named(sc, "npu")].opps.max_hz());
  // Between two OPPs: rounded down (3000 -> 1600), and said once.
  const ps::scenario r = ps::load_scenario_text(with_mif(), "test.yaml", with_sets({"policy.limits.big.memory_freq=3000 MHz"}));
  REQUIRE(r.policy.limits_for("mif"));
  CHECK(r.policy.limits_for("mif")->max_hz == 1600e6);
  REQUIRE(r.policy.limits_for("mif")->notes.size() == 1);
  CHECK(contains(r.policy.limits_for("mif")->notes[0], "rounded down to 1600 MHz"));
  // Two domains sharing the memory may lock it at the same clock.
  const ps::scenario same = ps::load_scenario_text(
      with_mif(), "test.yaml", with_sets({"policy.limits.big.memory_freq=3200 MHz", "policy.limits.npu.memory_freq=3200 MHz"}));
  CHECK(same.policy.limits_for("mif")->min_hz == 3200e6);
}

TEST_CASE("memory_freq mistakes are refused at their key") {
  SUBCASE("no memory clock to lock") {
    const auto d = only_at(load_errors(default_text(), with_sets({"policy.limits.big.memory_freq=1600 MHz"})),
                           "policy.limits.big.memory_freq");
    CHECK(contains(d.message, "domain 'big' has no memory clock to lock"));
  }
  SUBCASE("outside the memory's clocks") {
    const auto d = only_at(load_errors(with_mif(), with_sets({"policy.limits.big.memory_freq=5000 MHz"})),
                           "policy.limits.big.memory_freq");
    CHECK(contains(d.message, "domain 'mif' operating points 1600 MHz .. 3200 MHz, found 5000 MHz"));
  }
  SUBCASE("two domains lock one memory at different clocks") {
    const auto ds = load_errors(with_mif(), with_sets({"policy.limits.big.memory_freq=1600 MHz",
                                                       "policy.limits.npu.memory_freq=3200 MHz"}));
    REQUIRE(ds.size() == 1);
    CHECK(contains(ds[0].message, "share memory domain 'mif' and lock it at different clocks (1600 MHz, 3200 MHz)"));
  }
  SUBCASE("the memory domain's own range and a lock") {
    const auto ds = load_errors(with_mif(), with_sets({"policy.limits.mif.max_freq=1600 MHz",
                                                       "policy.limits.big.memory_freq=3200 MHz"}));
    REQUIRE(ds.size() == 1);
    CHECK(contains(ds[0].message, "memory domain 'mif' has its own min_freq/max_freq"));
  }
}
