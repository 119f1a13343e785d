// ondemand (drivers/cpufreq/cpufreq_ondemand.c, od_update): every sampling period,
// jump to the maximum above up_threshold, otherwise pick a frequency proportional to load.
#include <memory>

#include "governors/common.hpp"

namespace ptsim::power {
namespace {

class ondemand_governor final : public cpufreq_governor {
 public:
  explicit ondemand_governor(const tunables& t)
      : up_threshold_(detail::tunable(t, "up_threshold", 95, 1, 100)),
        sampling_down_factor_(detail::tunable(t, "sampling_down_factor", 1, 1, 100000)),
        dbs_(t) {}

  void start(const opp_table& opps, double transition_latency_s) override {
    opps_ = opps;
    rate_s_ = dbs_.sampling_period_s(transition_latency_s);
    rate_mult_ = 1;
    window_.reset();
    have_request_ = false;
    started_ = true;
  }

  double update(const cpufreq_sample& s) override {
    detail::require_started(started_, "ondemand");
    detail::check_sample(s);
    const auto l = detail::policy_limits(opps_, s);
    // The previous request, kept inside limits that may have moved since (Linux's
    // cpufreq_policy_apply_limits does the same between samples).
    request_hz_ = detail::resolve(opps_, have_request_ ? request_hz_ : detail::initial_hz(s, l),
                                  detail::relation::closest, l);
    have_request_ = true;

    window_.add(dbs_.busy_share(s), s.period_s);
    if (!window_.complete(rate_s_ * rate_mult_)) return request_hz_;

    const unsigned load = window_.load_percent();
    window_.reset();
    if (load > up_threshold_) {
      // Stay at max for sampling_down_factor periods: a busy CPU is likely to stay busy.
      if (s.cur_hz < l.max_hz) rate_mult_ = sampling_down_factor_;
      request_hz_ = detail::resolve(opps_, l.max_hz, detail::relation::at_most, l);
    } else {
      // Proportional to load over the hardware range (cpuinfo min/max), closest OPP.
      const double f = opps_.min_hz() + load * (opps_.max_hz() - opps_.min_hz()) / 100.0;
      rate_mult_ = 1;
      request_hz_ = detail::resolve(opps_, f, detail::relation::closest, l);
    }
    return request_hz_;
  }

 private:
  double up_threshold_, sampling_down_factor_;
  detail::dbs_common dbs_;
  opp_table opps_;
  double rate_s_ = 0.0, rate_mult_ = 1.0, request_hz_ = 0.0;
  detail::load_window window_;
  bool have_request_ = false, started_ = false;
};

}  // namespace

void register_ondemand(governor_registry& r) {
  r.register_governor(
      {"ondemand",
       "Linux ondemand: every sampling_rate, load > up_threshold -> policy max; otherwise "
       "f = min + load*(max-min)/100, closest OPP",
       detail::dbs_common::with_tunables(
           {{"up_threshold", 95, "load (%) above which the governor jumps to the policy max"},
            {"sampling_down_factor", 1,
             "multiplier of the sampling period while at max after a jump (1..100000)"}})},
      [](const tunables& t) { return std::make_unique<ondemand_governor>(t); });
}

}  // namespace ptsim::power
