#include <doctest/doctest.h>

#include <stdexcept>

#include "helpers.hpp"

using namespace ptsim::power;
using namespace ptsim::power::test;

namespace {
std::unique_ptr<cpufreq_governor> make_governor(const std::string& name, const tunables& t = {}) {
  auto g = governor_registry::instance().create(name, t);
  g->start(four_opps(), 500e-6);
  return g;
}
}  // namespace

TEST_CASE("performance: policy max, mapped below a non-table ceiling") {
  auto g = make_governor("performance");
  loop l{*g};
  l.cur_hz = 500 * MHz;
  CHECK(l.step(0.0) == 2000 * MHz);
  l.policy_max_hz = 1700 * MHz;  // highest OPP <= 1700 MHz is 1500 MHz
  CHECK(l.step(1.0) == 1500 * MHz);
}

TEST_CASE("powersave: policy min, mapped above a non-table floor") {
  auto g = make_governor("powersave");
  loop l{*g};
  CHECK(l.step(1.0) == 500 * MHz);
  l.policy_min_hz = 700 * MHz;  // lowest OPP >= 700 MHz is 1000 MHz
  CHECK(l.step(1.0) == 1000 * MHz);
}

TEST_CASE("userspace: setspeed_hz mapped with RELATION_L, clamped to the policy") {
  auto g = make_governor("userspace", {{"setspeed_hz", 1200 * MHz}});
  loop l{*g};
  CHECK(l.step(0.3) == 1500 * MHz);  // lowest OPP >= 1200 MHz
  l.policy_max_hz = 1000 * MHz;
  CHECK(l.step(0.3) == 1000 * MHz);  // clamped by the ceiling
  l.policy_max_hz = 0;               // ceiling lifted: back to the user's choice
  CHECK(l.step(0.3) == 1500 * MHz);
}

TEST_CASE("userspace: default is the frequency at start, else the policy min") {
  auto g = make_governor("userspace");
  loop l{*g};
  l.cur_hz = 1000 * MHz;
  CHECK(l.step(1.0) == 1000 * MHz);
  CHECK(l.step(0.0) == 1000 * MHz);  // load does not matter

  auto g2 = make_governor("userspace");
  loop l2{*g2};  // cur unknown (0): policy min
  CHECK(l2.step(1.0) == 500 * MHz);
}

TEST_CASE("a governor updated before start() is a logic error") {
  auto g = governor_registry::instance().create("performance", {});
  cpufreq_sample s;
  CHECK_THROWS_AS(g->update(s), std::logic_error);
}
