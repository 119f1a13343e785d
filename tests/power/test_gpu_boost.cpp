// gpu_boost (governors/gpu_boost.cpp) and the per-domain limit rule (domain_limits.hpp).
#include <doctest/doctest.h>

#include "helpers.hpp"
#include "relative_approx.hpp"
#include "ptsim/power/domain_limits.hpp"

using namespace ptsim::power;
using namespace ptsim::power::test;

namespace {
std::unique_ptr<cpufreq_governor> make_boost(const tunables& t = {}) {
  auto g = governor_registry::instance().create("gpu_boost", t);
  g->start(four_opps(), 1e-3);
  return g;
}
}  // namespace

TEST_CASE("gpu_boost: starts at the idle clock, boosts to the top of the range at the first busy period") {
  auto g = make_boost();
  loop l{*g};
  CHECK(l.step(0.0) == 500 * MHz);   // nothing has run: the idle clock, the lowest OPP
  CHECK(l.step(0.2) == 2000 * MHz);  // busy: the highest OPP
  l.policy_max_hz = 1700 * MHz;      // max_freq between OPPs: the highest OPP below it
  CHECK(l.step(1.0) == 1500 * MHz);
  l.policy_min_hz = 1500 * MHz;
  l.policy_max_hz = 1500 * MHz;      // a locked clock
  CHECK(l.step(1.0) == 1500 * MHz);
}

TEST_CASE("gpu_boost: memory stalls count as busy; idle only after idle_delay_ms") {
  auto g = make_boost({{"idle_delay_ms", 3}});
  loop l{*g};
  CHECK(l.step(0.0, 0.5) == 2000 * MHz);  // a kernel waiting on memory is running
  // 1 ms periods: idle for 1 and 2 ms keeps the boost clock; at 3 ms it drops.
  CHECK(l.step(0.0) == 2000 * MHz);
  CHECK(l.step(0.0) == 2000 * MHz);
  CHECK(l.step(0.0) == 500 * MHz);
  CHECK(l.step(0.5) == 2000 * MHz);  // back at the first busy period
  CHECK(l.step(0.0) == 2000 * MHz);  // the idle timer restarted
}

TEST_CASE("gpu_boost: idle_threshold and idle_mhz") {
  auto g = make_boost({{"idle_threshold", 10}, {"idle_mhz", 800}, {"idle_delay_ms", 0}});
  loop l{*g};
  CHECK(l.step(0.05) == 1000 * MHz);  // 5 % < 10 %: idle; lowest OPP >= 800 MHz is 1000 MHz
  CHECK(l.step(0.10) == 2000 * MHz);  // 10 % counts as busy
  l.policy_min_hz = 1500 * MHz;       // the idle clock stays within the range
  CHECK(l.step(0.0) == 1500 * MHz);
  CHECK_THROWS_AS(make_boost({{"idle_threshold", 101}}), std::invalid_argument);
  CHECK_THROWS_AS(make_boost({{"idle_delay", 1}}), std::invalid_argument);  // unknown tunable
}

TEST_CASE("gpu_boost: context_mhz, the clock an idle GPU holds once work has run") {
  // four_opps: 500, 1000, 1500, 2000 MHz. A context clock between OPPs resolves up (1200 -> 1500).
  auto g = make_boost({{"context_mhz", 1200}, {"idle_delay_ms", 2}});
  loop l{*g};
  CHECK(l.step(0.0) == 500 * MHz);   // nothing has run (no context): the idle clock
  CHECK(l.step(0.0) == 500 * MHz);
  CHECK(l.step(0.0) == 500 * MHz);   // still nothing: idle_delay_ms does not raise it
  CHECK(l.step(0.3) == 2000 * MHz);  // busy: the top
  CHECK(l.step(0.0) == 2000 * MHz);  // idle 1 ms < 2 ms: kept
  CHECK(l.step(0.0) == 1500 * MHz);  // idle 2 ms: the context's clock, not 500 MHz
  CHECK(l.step(0.0) == 1500 * MHz);  // and it stays there
  l.policy_max_hz = 1000 * MHz;      // within the range: max_freq below it wins
  CHECK(l.step(0.0) == 1000 * MHz);
  l.policy_max_hz = 2000 * MHz;
  CHECK(l.step(0.5) == 2000 * MHz);  // the next busy period: the top again
  // Without context_mhz the same sequence drops to the idle clock (the behaviour before).
  auto plain = make_boost({{"idle_delay_ms", 2}});
  loop p{*plain};
  p.step(0.3);
  p.step(0.0);
  CHECK(p.step(0.0) == 500 * MHz);
  CHECK_THROWS_AS(make_boost({{"context_mhz", -1}}), std::invalid_argument);
  // context = 1: resident from the start (a model loaded before any work): the context's clock
  // from the first period, the top when busy, back to the context's clock after the delay.
  auto loaded = make_boost({{"context_mhz", 1200}, {"context", 1}, {"idle_delay_ms", 2}});
  loop c{*loaded};
  CHECK(c.step(0.0) == 1500 * MHz);
  CHECK(c.step(0.3) == 2000 * MHz);
  c.step(0.0);
  CHECK(c.step(0.0) == 1500 * MHz);
  CHECK_THROWS_AS(make_boost({{"context", 2}}), std::invalid_argument);
}

TEST_CASE("limited_frequency: the request within [min, max], then the ceilings, which win over min") {
  // Range [1000, 1500] MHz; no ceiling (2000): requests clamp into the range.
  CHECK(limited_frequency(2000 * MHz, 1000 * MHz, 1500 * MHz, 2000 * MHz) == 1500 * MHz);
  CHECK(limited_frequency(500 * MHz, 1000 * MHz, 1500 * MHz, 2000 * MHz) == 1000 * MHz);
  // A ceiling (thermal, power cap, board limit) at 1200 MHz cuts a 1500 MHz request.
  CHECK(limited_frequency(1500 * MHz, 1000 * MHz, 1500 * MHz, 1200 * MHz) == 1200 * MHz);
  // A locked clock (min = max = 1500 MHz) under a 700 MHz power ceiling: the ceiling wins.
  CHECK(limited_frequency(1500 * MHz, 1500 * MHz, 1500 * MHz, 700 * MHz) == 700 * MHz);
}

TEST_CASE("recovered_ceiling: cuts at once, climbs back at the ramp, never past the wanted ceiling") {
  // Table 500-1500 MHz, 1 ms periods, recovery 100 ms: the ramp is 1000 MHz / 100 = 10 MHz a period.
  const double lo = 500 * MHz, hi = 1500 * MHz, T = 1e-3, R = 0.1;
  CHECK(recovered_ceiling(1200 * MHz, 700 * MHz, lo, hi, T, R) == 700 * MHz);  // a cut: at once
  CHECK(recovered_ceiling(700 * MHz, 1500 * MHz, lo, hi, T, R) == ptsim_test::Approx(710 * MHz));
  CHECK(recovered_ceiling(705 * MHz, 712 * MHz, lo, hi, T, R) == 712 * MHz);  // within one period's climb
  // From 700 MHz back to the top takes 80 periods.
  double c = 700 * MHz;
  int n = 0;
  while (c < hi && n < 1000) c = recovered_ceiling(c, hi, lo, hi, T, R), ++n;
  CHECK(n == 80);
  CHECK(recovered_ceiling(700 * MHz, 1500 * MHz, lo, hi, T, 0.0) == 1500 * MHz);  // no recovery: at once
}
