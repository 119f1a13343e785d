#include <doctest/doctest.h>

#include <stdexcept>
#include <string>

#include "helpers.hpp"

#include "error_of.hpp"

using namespace ptsim::power;
using namespace ptsim::power::test;

using ptsim_test::error_of;

namespace {
bool has(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

// A user-defined governor: the table frequency closest to the middle of the policy range.
class midpoint_governor final : public cpufreq_governor {
 public:
  void start(const opp_table& opps, double) override { opps_ = opps; }
  double update(const cpufreq_sample&) override {
    return opps_.frequency_hz(opps_.index_closest((opps_.min_hz() + opps_.max_hz()) / 2));
  }

 private:
  opp_table opps_;
};
}  // namespace

TEST_CASE("the registry lists the six Linux cpufreq governors and devfreq's simple_ondemand, sorted, with their tunables") {
  auto& reg = governor_registry::instance();
  std::vector<std::string> names;
  for (const auto& gi : reg.list()) names.push_back(gi.name);
  // A user governor registered by another test case may also be present.
  const std::vector<std::string> linux_govs = {"conservative", "ondemand", "performance",
                                               "powersave", "schedutil", "simple_ondemand", "userspace"};
  for (const auto& n : linux_govs) CHECK(reg.contains(n));
  CHECK(std::is_sorted(names.begin(), names.end()));

  const governor_info& od = reg.info("ondemand");
  REQUIRE(od.tunables.size() == 4);
  auto find = [&](const std::string& n) {
    for (const auto& t : od.tunables)
      if (t.name == n) return t.default_value;
    FAIL("no tunable " << n);
    return -1.0;
  };
  CHECK(find("up_threshold") == 95);
  CHECK(find("sampling_down_factor") == 1);
  CHECK(find("sampling_rate_us") == 0);
  CHECK(reg.info("conservative").tunables.size() == 6);
  CHECK(reg.info("schedutil").tunables.at(0).name == "rate_limit_us");
  CHECK(reg.info("performance").tunables.empty());
  // devfreq's defaults: DFSO_UPTHRESHOLD 90, DFSO_DOWNDIFFERENCTIAL 5; exynos-bus polls every 50 ms.
  const auto& so = reg.info("simple_ondemand").tunables;
  REQUIRE(so.size() == 3);
  CHECK(so[0].name == "upthreshold");
  CHECK(so[0].default_value == 90);
  CHECK(so[1].default_value == 5);
  CHECK(so[2].default_value == 50);
}

TEST_CASE("unknown governor: the error lists the valid names and suggests the nearest") {
  const std::string msg = error_of<std::invalid_argument>([] { governor_registry::instance().create("ondmand", {}); });
  CHECK(has(msg, "'ondmand'"));
  CHECK(has(msg, "conservative, gpu_boost, ondemand, performance, powersave, schedutil, simple_ondemand, userspace"));
  CHECK(has(msg, "did you mean 'ondemand'"));
  CHECK_THROWS_AS(governor_registry::instance().info("nope"), std::invalid_argument);
}

TEST_CASE("unknown tunable: the error lists the governor's tunables") {
  const std::string msg = error_of<std::invalid_argument>(
      [] { governor_registry::instance().create("ondemand", {{"up_treshold", 90}}); });
  CHECK(has(msg, "'up_treshold'"));
  // Listed in declaration order (governor_info), as `ptsim list governors` shows them.
  CHECK(has(msg, "valid: up_threshold, sampling_down_factor, sampling_rate_us, io_is_busy"));
  CHECK(has(msg, "did you mean 'up_threshold'"));
  const std::string none = error_of<std::invalid_argument>(
      [] { governor_registry::instance().create("performance", {{"x", 1}}); });
  CHECK(has(none, "takes none"));
}

TEST_CASE("out-of-range tunable values name the tunable") {
  const std::string msg = error_of<std::invalid_argument>(
      [] { governor_registry::instance().create("ondemand", {{"up_threshold", 150}}); });
  CHECK(has(msg, "up_threshold"));
  CHECK(has(msg, "ondemand"));
}

TEST_CASE("a user-defined governor is registered and created by name") {
  auto& reg = governor_registry::instance();
  if (!reg.contains("test_midpoint")) {
    reg.register_governor({"test_midpoint", "closest OPP to the middle of the table",
                           {{"bias", 0, "unused"}}},
                          [](const tunables&) { return std::make_unique<midpoint_governor>(); });
  }
  CHECK(reg.contains("test_midpoint"));
  auto g = reg.create("test_midpoint", {{"bias", 1}});
  g->start(four_opps(), 0);
  cpufreq_sample s;
  // middle of 500..2000 MHz = 1250 MHz, a tie between 1000 and 1500 -> the lower, 1000
  CHECK(g->update(s) == 1000 * MHz);
  // Registering the same name twice is an error, not a silent replacement.
  CHECK_THROWS_AS(reg.register_governor({"test_midpoint", "", {}},
                                        [](const tunables&) { return std::make_unique<midpoint_governor>(); }),
                  std::invalid_argument);
}
