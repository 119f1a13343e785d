// conservative (drivers/cpufreq/cpufreq_conservative.c, cs_dbs_update): move the
// request by freq_step % of the policy max per sample instead of jumping.
#include <algorithm>
#include <stdexcept>

#include "governors/common.hpp"

namespace ptsim::power {
namespace {

class conservative_governor final : public cpufreq_governor {
 public:
  explicit conservative_governor(const tunables& t)
      : up_threshold_(detail::tunable(t, "up_threshold", 80, 1, 100)),
        down_threshold_(detail::tunable(t, "down_threshold", 20, 0, 99)),
        freq_step_pct_(detail::tunable(t, "freq_step", 5, 0, 100)),
        sampling_down_factor_(detail::tunable(t, "sampling_down_factor", 1, 1, 10)),
        dbs_(t) {
    if (down_threshold_ >= up_threshold_)
      throw std::invalid_argument("conservative: down_threshold must be below up_threshold");
  }

  void start(const opp_table& opps, double transition_latency_s) override {
    opps_ = opps;
    rate_s_ = dbs_.sampling_period_s(transition_latency_s);
    window_.reset();
    down_skip_ = 0;
    have_request_ = false;
    started_ = true;
  }

  double update(const cpufreq_sample& s) override {
    detail::require_started(started_, "conservative");
    detail::check_sample(s);
    const auto l = detail::policy_limits(opps_, s);
    if (!have_request_) {
      requested_hz_ = detail::initial_hz(s, l);  // Linux: requested_freq = policy->cur
      request_hz_ = requested_hz_;
      have_request_ = true;
    }
    request_hz_ = detail::resolve(opps_, request_hz_, detail::relation::closest, l);

    window_.add(dbs_.busy_share(s), s.period_s);
    if (!window_.complete(rate_s_)) return request_hz_;
    const unsigned load = window_.load_percent();
    window_.reset();

    if (freq_step_pct_ == 0.0) return request_hz_;  // the user froze the frequency
    // Limits moved past the internal request: restart from the current frequency.
    if (requested_hz_ > l.max_hz || requested_hz_ < l.min_hz)
      requested_hz_ = std::clamp(s.cur_hz > 0 ? s.cur_hz : request_hz_, l.min_hz, l.max_hz);
    const double step = freq_step_pct_ * l.max_hz / 100.0;

    if (load > up_threshold_) {
      down_skip_ = 0;
      if (requested_hz_ >= l.max_hz) return request_hz_;
      requested_hz_ = std::min(requested_hz_ + step, l.max_hz);
      // RELATION_H: the step never overshoots the internal request.
      request_hz_ = detail::resolve(opps_, requested_hz_, detail::relation::at_most, l);
      return request_hz_;
    }
    // Decreases are considered only every sampling_down_factor samples.
    if (++down_skip_ < sampling_down_factor_) return request_hz_;
    down_skip_ = 0;
    if (load < down_threshold_) {
      if (requested_hz_ <= l.min_hz) return request_hz_;
      requested_hz_ = std::max(requested_hz_ - step, l.min_hz);
      // RELATION_L: never below the internal request, so the decrease is gradual too.
      request_hz_ = detail::resolve(opps_, requested_hz_, detail::relation::at_least, l);
    }
    return request_hz_;
  }

 private:
  double up_threshold_, down_threshold_, freq_step_pct_, sampling_down_factor_;
  detail::dbs_common dbs_;
  opp_table opps_;
  double rate_s_ = 0.0;
  double requested_hz_ = 0.0;  ///< the kernel's requested_freq: stepped, not a table value
  double request_hz_ = 0.0;    ///< the table frequency returned
  unsigned down_skip_ = 0;
  detail::load_window window_;
  bool have_request_ = false, started_ = false;
};

}  // namespace

void register_conservative(governor_registry& r) {
  r.register_governor(
      {"conservative",
       "Linux conservative: every sampling_rate, step up by freq_step % of the policy max "
       "when load > up_threshold, down when load < down_threshold",
       detail::dbs_common::with_tunables(
           {{"up_threshold", 80, "load (%) above which the frequency steps up"},
            {"down_threshold", 20, "load (%) below which the frequency steps down"},
            {"freq_step", 5, "step as a percentage of the policy max (0 = frozen)"},
            {"sampling_down_factor", 1, "consider a decrease only every N samples (1..10)"}})},
      [](const tunables& t) { return std::make_unique<conservative_governor>(t); });
}

}  // namespace ptsim::power
