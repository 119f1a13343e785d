#include "ptsim/power/component_power_model.hpp"

#include <algorithm>
#include <cmath>

#include "check.hpp"

namespace ptsim::power {
namespace {

class compute_unit_power final : public component_power_model {
 public:
  compute_unit_power(const compute_power_params& p, std::vector<idle_state> st) : m_(p), states_(std::move(st)) {}

  power_sample step(const component_activity& a, const domain_electrical& e, double temperature_K,
                    double period_s) override {
    power_sample out;
    out.busy = std::min(1.0, a.compute_share + a.stall_share + a.overhead_share);
    // op_activity, the only way above a fully busy unit's 1, goes up to max_op_activity.
    out.activity = std::min(max_op_activity, m_.activity(a.compute_share - a.quiet_share, a.stall_share + a.overhead_share));
    // C * avg(V^2 f) * a, through the model's C V^2 f a with V = sqrt(avg(V^2 f)/avg f).
    const double v_eff = e.avg_hz > 0 ? std::sqrt(e.avg_v2f / e.avg_hz) : e.avg_volts;
    const double leak = m_.leakage_W(e.avg_volts, temperature_K);
    // Idle states: for the time resident in state s the unit draws s's power instead of
    // its leakage (its dynamic power is zero while idle).
    double resident = 0, idle_W = 0;
    for (std::size_t s = 0; s < a.idle_s.size() && s < states_.size(); ++s) {
      const double r = a.idle_s[s] / period_s;
      resident += r;
      idle_W += states_[s].power_at(leak) * r;
    }
    resident = std::min(1.0, resident);
    out.watts = m_.dynamic_W(v_eff, e.avg_hz, out.activity) + leak * (1.0 - resident) + idle_W;
    out.low_power_share = resident;
    return out;
  }

  double at_opp_W(double volts, double hz, double activity, double temperature_K) const override {
    return m_.dynamic_W(volts, hz, activity) + m_.leakage_W(volts, temperature_K);
  }

  // What each OPP fixes is computed once per table (one pow per OPP was most of a
  // power-capped GPU run's time with 80-OPP tables): its leakage at the reference temperature
  // and its C V^2 f, the activity 1 product that dynamic_W multiplies by the activity last
  // (so the result is dynamic_W's to the bit); the temperature once per call.
  void add_at_opps_W(const opp_table& opps, double activity, double temperature_K,
                     std::vector<double>& out) const override {
    if (leak_table_ != &opps || leak_at_v_.size() != opps.size()) {
      leak_table_ = &opps;
      leak_at_v_.resize(opps.size());
      cv2f_at_opp_.resize(opps.size());
      for (std::size_t i = 0; i < opps.size(); ++i) {
        leak_at_v_[i] = m_.leakage_at_voltage_W(opps.voltage_v(i));
        cv2f_at_opp_[i] = m_.dynamic_W(opps.voltage_v(i), opps.frequency_hz(i), 1.0);
      }
    }
    const double t = m_.leakage_temperature_factor(temperature_K);
    const std::size_t n = opps.size();
    const double* cv2f = cv2f_at_opp_.data();
    const double* leak = leak_at_v_.data();
    double* o = out.data();
    for (std::size_t i = 0; i < n; ++i) o[i] += cv2f[i] * activity + leak[i] * t;
  }

  double floor_W(double v_min, double temperature_K) const override {
    const double leak = m_.leakage_W(v_min, temperature_K);
    double p = leak;
    for (const auto& st : states_) p = std::min(p, st.power_at(leak));
    return std::max(0.0, p);
  }

 private:
  compute_power_model m_;
  std::vector<idle_state> states_;
  // add_at_opps_W's leakage and C V^2 f per OPP of the table it last saw (a domain's table
  // lives as long as the run; a model belongs to one run's control loop, so no other thread
  // reads these).
  mutable const opp_table* leak_table_ = nullptr;
  mutable std::vector<double> leak_at_v_;
  mutable std::vector<double> cv2f_at_opp_;
};

class memory_device_power final : public component_power_model {
 public:
  explicit memory_device_power(const memory_power_params& p) : m_(p), p_(p) {}

  power_sample step(const component_activity& a, const domain_electrical& e, double, double period_s) override {
    power_sample out;
    // In a memory DVFS domain: its clock sets the background, its traffic the domain's load.
    out.busy = m_.busy_share(a.bytes_read + a.bytes_written, period_s, e.avg_hz);
    out.activity = out.busy;
    if (!a.idle_s.empty()) {  // NVMe power states (APST)
      out.watts = m_.with_states_W(a.bytes_read, a.bytes_written, period_s, a.idle_s);
      double resident = 0;
      for (double s : a.idle_s) resident += s / period_s;
      out.low_power_share = std::min(1.0, resident);
    } else {
      out.watts = m_.step_W(a.bytes_read, a.bytes_written, period_s, e.avg_hz, e.avg_volts);
      out.low_power_share = m_.in_self_refresh() ? 1.0 : 0.0;
    }
    return out;
  }

  /// At another clock: its background there plus refresh (the traffic's energy per byte
  /// does not depend on the clock). Without a clock: the background.
  double at_opp_W(double volts, double hz, double, double) const override {
    return p_.max_hz > 0 ? m_.background_at_W(hz, volts) + p_.refresh_W : m_.background_W();
  }

  double floor_W(double, double) const override {
    double p = p_.background_W + p_.refresh_W;
    if (p_.self_refresh_W >= 0) p = std::min(p, p_.self_refresh_W);
    for (double w : p_.low_power_state_W) p = std::min(p, w);
    return std::max(0.0, p);
  }

 private:
  memory_power_model m_;
  memory_power_params p_;
};

class busy_idle_power final : public component_power_model {
 public:
  explicit busy_idle_power(const busy_idle_params& p)
      : busy_W_(detail::require_non_negative("busy_power", p.busy_W)),
        idle_W_(detail::require_non_negative("idle_power", p.idle_W)) {}

  power_sample step(const component_activity& a, const domain_electrical&, double, double) override {
    power_sample out;
    out.busy = std::min(1.0, a.compute_share + a.stall_share + a.overhead_share);
    out.activity = out.busy;
    out.watts = idle_W_ + (busy_W_ - idle_W_) * out.busy;
    return out;
  }

  double at_opp_W(double, double, double activity, double) const override {
    return idle_W_ + (busy_W_ - idle_W_) * activity;
  }

  double floor_W(double, double) const override { return std::min(busy_W_, idle_W_); }

 private:
  double busy_W_, idle_W_;
};

}  // namespace

void component_power_model::add_at_opps_W(const opp_table& opps, double activity, double temperature_K,
                                          std::vector<double>& out) const {
  for (std::size_t i = 0; i < opps.size(); ++i)
    out[i] += at_opp_W(opps.voltage_v(i), opps.frequency_hz(i), activity, temperature_K);
}

std::unique_ptr<component_power_model> make_compute_unit_power(const compute_power_params& p,
                                                               std::vector<idle_state> idle_states) {
  return std::make_unique<compute_unit_power>(p, std::move(idle_states));
}

std::unique_ptr<component_power_model> make_memory_device_power(const memory_power_params& p) {
  return std::make_unique<memory_device_power>(p);
}

std::unique_ptr<component_power_model> make_busy_idle_power(const busy_idle_params& p) {
  return std::make_unique<busy_idle_power>(p);
}

}  // namespace ptsim::power
