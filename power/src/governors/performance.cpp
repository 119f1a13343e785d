// performance: always the policy maximum (Linux: target policy->max, RELATION_H).
#include "governors/common.hpp"

namespace ptsim::power {
namespace {

class performance_governor final : public cpufreq_governor {
 public:
  void start(const opp_table& opps, double /*transition_latency_s*/) override {
    opps_ = opps;
    started_ = true;
  }
  double update(const cpufreq_sample& s) override {
    detail::require_started(started_, "performance");
    const auto l = detail::policy_limits(opps_, s);
    return detail::resolve(opps_, l.max_hz, detail::relation::at_most, l);
  }

 private:
  opp_table opps_;
  bool started_ = false;
};

}  // namespace

void register_performance(governor_registry& r) {
  r.register_governor({"performance", "always the policy maximum frequency", {}},
                      [](const tunables&) { return std::make_unique<performance_governor>(); });
}

}  // namespace ptsim::power
