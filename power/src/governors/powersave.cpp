// powersave: always the policy minimum (Linux: target policy->min, RELATION_L).
#include "governors/common.hpp"

namespace ptsim::power {
namespace {

class powersave_governor final : public cpufreq_governor {
 public:
  void start(const opp_table& opps, double /*transition_latency_s*/) override {
    opps_ = opps;
    started_ = true;
  }
  double update(const cpufreq_sample& s) override {
    detail::require_started(started_, "powersave");
    const auto l = detail::policy_limits(opps_, s);
    return detail::resolve(opps_, l.min_hz, detail::relation::at_least, l);
  }

 private:
  opp_table opps_;
  bool started_ = false;
};

}  // namespace

void register_powersave(governor_registry& r) {
  r.register_governor({"powersave", "always the policy minimum frequency", {}},
                      [](const tunables&) { return std::make_unique<powersave_governor>(); });
}

}  // namespace ptsim::power
