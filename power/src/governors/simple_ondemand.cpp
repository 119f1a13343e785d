// simple_ondemand: Linux devfreq's load-proportional governor
// (drivers/devfreq/governor_simple_ondemand.c, devfreq_simple_ondemand_func), for memory
// and bus domains. Every polling period it reads the device's busy and total time and:
//   busy * 100 >  total * upthreshold                         -> the maximum;
//   busy * 100 >  total * (upthreshold - downdifferential)    -> keep the current frequency;
//   otherwise  f = (busy * f_cur / total) * 100 / (upthreshold - downdifferential / 2)
// in the kernel's unsigned integer arithmetic (downdifferential / 2 truncates: 90 - 5/2 = 88).
// The devfreq core then clamps f to [min_freq, max_freq] and the driver takes the lowest
// OPP at or above it (devfreq_recommended_opp without DEVFREQ_FLAG_LEAST_UPPER_BOUND); the
// maximum is the highest OPP within the limits. Busy and total time are counted in whole
// microseconds, so they stay below the kernel's 2^24 overflow shift for polling periods up
// to 16 s.
#include <cmath>
#include <cstdint>

#include "check.hpp"
#include "governors/common.hpp"

namespace ptsim::power {
namespace {

class simple_ondemand_governor final : public cpufreq_governor {
 public:
  explicit simple_ondemand_governor(const tunables& t)
      : up_(static_cast<std::uint64_t>(detail::tunable(t, "upthreshold", 90, 1, 100))),
        down_(static_cast<std::uint64_t>(detail::tunable(t, "downdifferential", 5, 0, 100))),
        polling_s_(detail::tunable(t, "polling_ms", 50, 1e-3, 1e6) * 1e-3) {
    // The kernel refuses (-EINVAL) an upthreshold below the downdifferential.
    if (up_ < down_) detail::bad_param("downdifferential", "a value <= upthreshold", static_cast<double>(down_));
  }

  void start(const opp_table& opps, double /*transition_latency_s*/) override {
    opps_ = opps;
    window_.reset();
    have_request_ = false;
    started_ = true;
  }

  double update(const cpufreq_sample& s) override {
    detail::require_started(started_, "simple_ondemand");
    detail::check_sample(s);
    const auto l = detail::policy_limits(opps_, s);
    // The previous request, kept inside limits that may have moved since.
    request_hz_ = detail::resolve(opps_, have_request_ ? request_hz_ : detail::initial_hz(s, l),
                                  detail::relation::at_least, l);
    have_request_ = true;
    window_.add(s.utilization, s.period_s);
    if (!window_.complete(polling_s_)) return request_hz_;
    const auto total = static_cast<std::uint64_t>(std::llround(window_.elapsed_s() * 1e6));
    const auto busy = std::min(total, static_cast<std::uint64_t>(std::llround(window_.busy_s() * 1e6)));
    window_.reset();
    request_hz_ = detail::resolve(opps_, target_hz(busy, total, s.cur_hz, l.max_hz), detail::relation::at_least, l);
    return request_hz_;
  }

 private:
  // devfreq_simple_ondemand_func on (busy_time, total_time, current_frequency).
  double target_hz(std::uint64_t busy, std::uint64_t total, double cur_hz, double max_hz) const {
    if (total == 0) return max_hz;
    if (busy >= (1u << 24) || total >= (1u << 24)) busy >>= 7, total >>= 7;
    if (busy * 100 > total * up_) return max_hz;
    const auto cur = static_cast<std::uint64_t>(std::llround(cur_hz));
    if (cur == 0) return max_hz;
    if (busy * 100 > total * (up_ - down_)) return cur_hz;
    std::uint64_t b = busy * cur / total;
    b *= 100;
    b /= (up_ - down_ / 2);
    return static_cast<double>(b);
  }

  std::uint64_t up_, down_;
  double polling_s_;
  opp_table opps_;
  double request_hz_ = 0.0;
  detail::load_window window_;
  bool have_request_ = false, started_ = false;
};

}  // namespace

void register_simple_ondemand(governor_registry& r) {
  r.register_governor(
      {"simple_ondemand",
       "Linux devfreq simple_ondemand (memory, buses): every polling_ms, load > upthreshold -> max; load > "
       "upthreshold - downdifferential -> keep; otherwise f = load x f_cur / (upthreshold - downdifferential/2), "
       "lowest OPP at or above",
       {{"upthreshold", 90, "load (%) above which the governor jumps to the maximum (DFSO_UPTHRESHOLD)"},
        {"downdifferential", 5, "band (%) below upthreshold in which the frequency is kept (DFSO_DOWNDIFFERENCTIAL)"},
        {"polling_ms", 50, "polling period in ms (set by the driver; 50 in drivers/devfreq/exynos-bus.c)"}}},
      [](const tunables& t) { return std::make_unique<simple_ondemand_governor>(t); });
}

}  // namespace ptsim::power
