// schedutil (kernel/sched/cpufreq_schedutil.c): frequency from utilization with 25 %
// headroom, rate-limited, with no premature decrease while busy and an iowait boost.
#include <algorithm>
#include <cmath>
#include <limits>

#include "governors/common.hpp"
#include "ptsim/power/governor_timing.hpp"

namespace ptsim::power {
namespace {

// Boost values in SCHED_CAPACITY_SCALE units, as the kernel keeps them.
constexpr unsigned capacity_scale = 1024;
constexpr unsigned iowait_boost_min = capacity_scale / 8;  // 128

class schedutil_governor final : public cpufreq_governor {
 public:
  explicit schedutil_governor(const tunables& t)
      : rate_limit_us_(detail::tunable(t, "rate_limit_us", -1, -1,
                                       std::numeric_limits<double>::max())) {}

  void start(const opp_table& opps, double transition_latency_s) override {
    opps_ = opps;
    rate_limit_s_ =
        (rate_limit_us_ >= 0 ? rate_limit_us_ : transition_delay_us(transition_latency_s)) * 1e-6;
    have_request_ = false;
    last_change_s_ = -std::numeric_limits<double>::infinity();
    idled_ = true;  // nothing to hold on the first update
    boost_ = 0;
    boost_pending_ = false;
    idle_run_s_ = 0.0;
    started_ = true;
  }

  double update(const cpufreq_sample& s) override {
    detail::require_started(started_, "schedutil");
    detail::check_sample(s);
    const auto l = detail::policy_limits(opps_, s);
    bool limits_changed = false;
    if (!have_request_) {
      request_hz_ = detail::initial_hz(s, l);
      have_request_ = true;
      limits_changed = true;
    } else {
      limits_changed = l.min_hz != last_limits_.min_hz || l.max_hz != last_limits_.max_hz;
    }
    last_limits_ = l;
    request_hz_ = detail::resolve(opps_, request_hz_, detail::relation::closest, l);

    const double util = std::clamp(s.utilization, 0.0, 1.0);
    if (util < 1.0) idled_ = true;  // util == 1: the domain never idled this period
    track_iowait(s);

    // Rate limit from the last frequency change; a limit change bypasses it (sugov_limits).
    if (!limits_changed && s.now_s - last_change_s_ < rate_limit_s_ - 1e-12) return request_hz_;

    const double boost = apply_iowait_boost() / static_cast<double>(capacity_scale);
    // The kernel's util is frequency-invariant (scaled by cur/max): a busy share measured
    // at cur_hz is util = busy × cur / f_max, so that f = 1.25 × f_max × util.
    // With tasks (policy.scheduler: eas) the utilisation is the tasks' PELT util_avg over
    // the CPU's capacity, invariant already: next_freq = 1.25 * f_max * util / capacity.
    const double cur = s.cur_hz > 0 ? s.cur_hz : opps_.max_hz();
    const double util_inv = s.sched_util >= 0 ? std::min(s.sched_util, 1.0) : util * cur / opps_.max_hz();
    const double f = 1.25 * opps_.max_hz() * std::max(util_inv, boost);
    double next = detail::resolve(opps_, f, detail::relation::at_least, l);

    // A domain that has not idled since the last update is likely to need the speed:
    // reducing it now would be premature (sugov_hold_freq).
    if (!idled_ && next < request_hz_ && !limits_changed) next = request_hz_;
    idled_ = false;
    if (next != request_hz_) {
      request_hz_ = next;
      last_change_s_ = s.now_s;
    }
    return request_hz_;
  }

 private:
  // sugov_iowait_boost: runs on every update, before the rate limit.
  void track_iowait(const cpufreq_sample& s) {
    const bool requested = s.iowait_share > 0.0;
    // The kernel resets the boost once a CPU has been idle for more than a tick (no
    // scheduler updates). Here: a run of fully idle periods (no busy, no iowait) > 1 tick.
    idle_run_s_ = (s.utilization <= 0.0 && !requested) ? idle_run_s_ + s.period_s : 0.0;
    if (boost_ != 0 && idle_run_s_ > 1.0 / default_tick_hz) {
      boost_ = 0;
      boost_pending_ = false;
      return;
    }
    if (!requested || boost_pending_) return;  // at most one doubling per applied update
    boost_pending_ = true;
    boost_ = boost_ != 0 ? std::min(boost_ * 2, capacity_scale) : iowait_boost_min;
  }

  // sugov_iowait_apply: on each rate-limited update, decay a boost not re-requested.
  unsigned apply_iowait_boost() {
    if (boost_ == 0) return 0;
    if (!boost_pending_) {
      boost_ >>= 1;
      if (boost_ < iowait_boost_min) {
        boost_ = 0;
        return 0;
      }
    }
    boost_pending_ = false;
    return boost_;
  }

  double rate_limit_us_;
  opp_table opps_;
  double rate_limit_s_ = 0.0, request_hz_ = 0.0, last_change_s_ = 0.0, idle_run_s_ = 0.0;
  detail::limits last_limits_{0.0, 0.0};
  unsigned boost_ = 0;
  bool boost_pending_ = false, idled_ = true, have_request_ = false, started_ = false;
};

}  // namespace

void register_schedutil(governor_registry& r) {
  r.register_governor(
      {"schedutil",
       "Linux schedutil: f = 1.25 * f_max * util (frequency-invariant util), lowest OPP >= f; "
       "rate-limited, no decrease while busy, iowait boost",
       {{"rate_limit_us", -1,
         "minimum time between frequency changes in us; -1 = transition delay "
         "(min(latency*1000, 2000 us), or the latency when above 2 ms; 1000 us if unknown)"}}},
      [](const tunables& t) { return std::make_unique<schedutil_governor>(t); });
}

}  // namespace ptsim::power
