#include <doctest/doctest.h>

#include "helpers.hpp"

using namespace ptsim::power;
using namespace ptsim::power::test;

namespace {
std::unique_ptr<cpufreq_governor> make_schedutil(const opp_table& t, tunables tun = {}) {
  auto g = governor_registry::instance().create("schedutil", tun);
  g->start(t, 500e-6);  // rate limit: min(500 us * 1000, 2 ms) = 2 ms
  return g;
}
// First update of a fresh governor, running at cur_hz with busy share util.
double first_request(double util, double cur_hz) {
  auto g = make_schedutil(four_opps());
  loop l{*g};
  l.cur_hz = cur_hz;
  return l.step(util);
}
}  // namespace

TEST_CASE("schedutil maps 1.25 * f_max * util to the lowest OPP >= f") {
  // Running at f_max = 2000 MHz the invariant util equals the busy share.
  CHECK(first_request(0.3, 2000 * MHz) == 1000 * MHz);  // 1.25*2000*0.3 = 750  -> 1000
  CHECK(first_request(0.5, 2000 * MHz) == 1500 * MHz);  // 1250 -> 1500
  CHECK(first_request(0.6, 2000 * MHz) == 1500 * MHz);  // 1500 exactly -> 1500
  CHECK(first_request(0.8, 2000 * MHz) == 2000 * MHz);  // 2000: the 80 % tipping point
  CHECK(first_request(0.1, 2000 * MHz) == 500 * MHz);   // 250 -> 500
}

TEST_CASE("schedutil util is frequency-invariant: busy share scaled by cur / f_max") {
  // 60 % busy at 1000 MHz: util = 0.6 * 1000 / 2000 = 0.3; f = 1.25 * 2000 * 0.3 = 750
  // -> 1000 MHz (the domain keeps 25 % headroom over the 600 MHz of work it does).
  CHECK(first_request(0.6, 1000 * MHz) == 1000 * MHz);
}

TEST_CASE("schedutil: rate limit holds the previous request for 2 ms after a change") {
  auto g = make_schedutil(four_opps());
  loop l{*g};
  l.cur_hz = 500 * MHz;
  // t = 1 ms: busy 100 % at 500: util 0.25, f = 625 -> 1000 (change at 1 ms)
  CHECK(l.step(1.0) == 1000 * MHz);
  // t = 2 ms: 1 ms since the change < 2 ms: held
  CHECK(l.step(1.0) == 1000 * MHz);
  // t = 3 ms: 2 ms since the change: util 0.5, f = 1250 -> 1500
  CHECK(l.step(1.0) == 1500 * MHz);
  CHECK(l.step(1.0) == 1500 * MHz);  // t = 4 ms: held
  // t = 5 ms: util 0.75, f = 1875 -> 2000
  CHECK(l.step(1.0) == 2000 * MHz);
  // A ceiling change bypasses the rate limit (as sugov_limits does).
  l.policy_max_hz = 1000 * MHz;
  CHECK(l.step(1.0) == 1000 * MHz);
}

TEST_CASE("schedutil: no decrease while the domain has not idled since the last update") {
  auto g = make_schedutil(four_opps(), {{"rate_limit_us", 1000}});
  loop l{*g};
  l.follow = false;
  l.cur_hz = 2000 * MHz;
  CHECK(l.step(1.0) == 2000 * MHz);  // 1.25 * 2000 * 1.0 -> max
  // The domain ran at 1000 MHz (e.g. a transition in flight), fully busy:
  // util = 1.0 * 1000 / 2000 = 0.5 -> f = 1250 -> 1500 < 2000, but it never idled: hold.
  l.cur_hz = 1000 * MHz;
  CHECK(l.step(1.0) == 2000 * MHz);
  // The same with a little idle time (busy 0.99): util 0.495, f = 1237.5 -> 1500.
  CHECK(l.step(0.99) == 1500 * MHz);
}

TEST_CASE("schedutil iowait boost: 128/1024 doubling to 1024, halving when not re-requested") {
  // 250 MHz spacing so that each boost level lands on its own OPP.
  std::vector<std::pair<double, double>> pts;
  for (int i = 1; i <= 8; ++i) pts.push_back({250.0 * i, 0.5 + 0.05 * i});
  auto g = make_schedutil(table_mhz(pts), {{"rate_limit_us", 1000}});  // a decision every 1 ms
  loop l{*g};
  l.follow = false;
  l.cur_hz = 2000 * MHz;
  // util 0.05 -> 1.25 * 2000 * 0.05 = 125 MHz: the boost dominates throughout.
  // f = 1.25 * 2000 MHz * boost / 1024:
  CHECK(l.step(0.05, 0.5) == 500 * MHz);   // 128:  312.5 -> 500
  CHECK(l.step(0.05, 0.5) == 750 * MHz);   // 256:  625   -> 750
  CHECK(l.step(0.05, 0.5) == 1250 * MHz);  // 512:  1250  -> 1250
  CHECK(l.step(0.05, 0.5) == 2000 * MHz);  // 1024: 2500  -> 2000
  CHECK(l.step(0.05, 0.5) == 2000 * MHz);  // stays at 1024
  CHECK(l.step(0.05) == 1250 * MHz);       // not re-requested: 512
  CHECK(l.step(0.05) == 750 * MHz);        // 256
  CHECK(l.step(0.05) == 500 * MHz);        // 128
  CHECK(l.step(0.05) == 250 * MHz);        // 64 < 128: boost off; 125 -> 250
}

TEST_CASE("schedutil iowait boost doubles at most once per applied update") {
  std::vector<std::pair<double, double>> pts;
  for (int i = 1; i <= 8; ++i) pts.push_back({250.0 * i, 0.5 + 0.05 * i});
  auto g = make_schedutil(table_mhz(pts));  // 2 ms rate limit
  loop l{*g};
  l.follow = false;
  l.cur_hz = 2000 * MHz;
  CHECK(l.step(0.05, 0.5) == 500 * MHz);  // t=1: 128 applied at once (first update)
  CHECK(l.step(0.05, 0.5) == 500 * MHz);  // t=2: doubled to 256, rate-limited
  // t=3: a second request before the update does not double again: 256 -> 625 -> 750
  CHECK(l.step(0.05, 0.5) == 750 * MHz);
}

TEST_CASE("schedutil with task utilisation (policy.scheduler: eas): util / capacity is invariant already") {
  // gs101 X1 OPPs (MHz); the sample's sched_util replaces busy * cur / f_max.
  const opp_table big = table_mhz({{500, 0.5}, {851, 0.55625}, {1277, 0.63125}, {1826, 0.75}, {2507, 0.925},
                                   {2802, 1.05625}});
  const auto request = [&](double sched_util) {
    auto g = make_schedutil(big);
    cpufreq_sample s;
    s.now_s = 1e-3;
    s.period_s = 1e-3;
    s.utilization = 0.1;     // the busy share, ignored for the frequency
    s.cur_hz = 500 * MHz;    // running slow: no cur / f_max scaling of sched_util
    s.policy_min_hz = 500 * MHz;
    s.policy_max_hz = 2802 * MHz;
    s.sched_util = sched_util;
    return g->update(s);
  };
  // uclamp.min 1024 on the big CPU: util 1 -> 1.25 * 2802 = 3502 MHz -> the top OPP, 2802.
  CHECK(request(1.0) == 2802 * MHz);
  // uclamp.max 512: 0.5 -> 1.25 * 2802 * 0.5 = 1751 MHz -> 1826.
  CHECK(request(0.5) == 1826 * MHz);
  // util 0.2 -> 700.5 MHz -> 851.
  CHECK(request(0.2) == 851 * MHz);
}
