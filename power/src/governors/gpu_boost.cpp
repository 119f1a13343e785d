// gpu_boost: a GPU's firmware boost (NVIDIA GPU Boost) as a governor. While anything runs it
// requests the highest OPP within the policy range (policy.limits min_freq/max_freq); the
// power limit, the thermal slowdown and the platform cap cut that request as ceilings in
// the control loop, as the firmware's limiters do. Once the GPU has been idle (busy share,
// memory stalls included, below idle_threshold) for idle_delay_ms, it drops to the idle
// clock; the first busy period raises it back to the top. With context_mhz, a GPU with a
// CUDA context resident (`context` = 1: a process loaded its model at the start; else from its
// first busy period) idles at that clock instead: NVIDIA boards with a resident context sit at
// their default application clock, not the idle clock (README, "Per-domain limits and GPU boost").
#include <algorithm>
#include <memory>

#include "governors/common.hpp"

namespace ptsim::power {
namespace {

class gpu_boost_governor final : public cpufreq_governor {
 public:
  explicit gpu_boost_governor(const tunables& t)
      : idle_threshold_(detail::tunable(t, "idle_threshold", 1, 0, 100)),
        idle_hz_(detail::tunable(t, "idle_mhz", 0, 0, 1e5) * 1e6),
        idle_delay_s_(detail::tunable(t, "idle_delay_ms", 100, 0, 1e7) * 1e-3),
        context_hz_(detail::tunable(t, "context_mhz", 0, 0, 1e5) * 1e6),
        context_at_start_(detail::tunable(t, "context", 0, 0, 1) != 0.0) {}  // as ondemand's io_is_busy

  void start(const opp_table& opps, double /*transition_latency_s*/) override {
    opps_ = opps;
    have_request_ = false;
    ran_ = context_at_start_;
    idle_s_ = 0;
    started_ = true;
  }

  double update(const cpufreq_sample& s) override {
    detail::require_started(started_, "gpu_boost");
    detail::check_sample(s);
    const auto l = detail::policy_limits(opps_, s);
    // A kernel waiting on memory is running: stalls count as busy (nvidia-smi's utilisation).
    const double busy = std::min(1.0, s.utilization + s.iowait_share);
    if (busy * 100.0 >= idle_threshold_ && busy > 0.0) {
      idle_s_ = 0;
      ran_ = true;
      request_hz_ = detail::resolve(opps_, l.max_hz, detail::relation::at_most, l);
    } else {
      idle_s_ += s.period_s;
      // Nothing ran yet, or idle long enough: the idle clock (lowest OPP >= idle_mhz), or once
      // work has run the context's clock (lowest OPP >= context_mhz) where one is given.
      if (!have_request_ || idle_s_ >= idle_delay_s_ - 1e-12) {
        const double idle = ran_ && context_hz_ > 0 ? context_hz_ : (idle_hz_ > 0 ? idle_hz_ : l.min_hz);
        request_hz_ = detail::resolve(opps_, idle, detail::relation::at_least, l);
      } else {
        request_hz_ = detail::resolve(opps_, request_hz_, detail::relation::closest, l);  // the range may have moved
      }
    }
    have_request_ = true;
    return request_hz_;
  }

 private:
  double idle_threshold_, idle_hz_, idle_delay_s_, context_hz_;
  bool context_at_start_;
  opp_table opps_;
  double request_hz_ = 0, idle_s_ = 0;
  bool have_request_ = false, ran_ = false, started_ = false;
};

}  // namespace

void register_gpu_boost(governor_registry& r) {
  r.register_governor(
      {"gpu_boost",
       "GPU firmware boost: the highest OPP within the policy range while busy (power, thermal and cap limits "
       "cut it as ceilings); after idle_delay_ms without work the idle clock, or context_mhz while a CUDA context is "
       "resident",
       {{"idle_threshold", 1, "busy share (%, memory stalls included) below which the GPU counts as idle"},
        {"idle_mhz", 0, "idle clock in MHz (lowest OPP at or above it); 0 = the policy minimum"},
        {"idle_delay_ms", 100,
         "idle time before the clock drops to the idle clock (illustrative: no public measurement found)"},
        {"context_mhz", 0,
         "idle clock in MHz while a CUDA context is resident (the default application clock, nvidia-smi -q); "
         "0 = none, the idle clock"},
        {"context", 0,
         "1: a context is resident from the start (the scenario sets it on GPUs its workload names); 0: from "
         "the first busy period"}}},
      [](const tunables& t) { return std::make_unique<gpu_boost_governor>(t); });
}

}  // namespace ptsim::power
