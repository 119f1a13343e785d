// userspace: a fixed frequency chosen by the user (Linux scaling_setspeed), mapped with
// RELATION_L and kept inside the policy limits as they change.
#include <limits>

#include "governors/common.hpp"

namespace ptsim::power {
namespace {

class userspace_governor final : public cpufreq_governor {
 public:
  explicit userspace_governor(const tunables& t)
      : setspeed_hz_(detail::tunable(t, "setspeed_hz", 0.0, 0.0,
                                     std::numeric_limits<double>::max())) {}

  void start(const opp_table& opps, double /*transition_latency_s*/) override {
    opps_ = opps;
    started_ = true;
  }
  double update(const cpufreq_sample& s) override {
    detail::require_started(started_, "userspace");
    const auto l = detail::policy_limits(opps_, s);
    // Linux initialises setspeed to the current frequency when the governor starts.
    if (setspeed_hz_ <= 0.0) setspeed_hz_ = detail::initial_hz(s, l);
    return detail::resolve(opps_, setspeed_hz_, detail::relation::at_least, l);
  }

 private:
  double setspeed_hz_;
  opp_table opps_;
  bool started_ = false;
};

}  // namespace

void register_userspace(governor_registry& r) {
  r.register_governor(
      {"userspace",
       "a fixed user-chosen frequency (lowest OPP >= setspeed_hz, within the policy limits)",
       {{"setspeed_hz", 0.0,
         "requested frequency in Hz; 0 = the frequency at start (or the policy minimum)"}}},
      [](const tunables& t) { return std::make_unique<userspace_governor>(t); });
}

}  // namespace ptsim::power
