#include "ptsim/power/power_allocator.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <numeric>
#include <stdexcept>

#include "check.hpp"
#include "thermal_governors/common.hpp"

namespace ptsim::power {

std::vector<double> ipa_divvy_up_power(double budget_W, const std::vector<double>& weighted_req_W,
                                       const std::vector<double>& max_W) {
  if (weighted_req_W.size() != max_W.size())
    throw std::invalid_argument("ipa_divvy_up_power: weighted_req_W and max_W differ in size");
  const std::size_t n = max_W.size();
  const double total_req = std::accumulate(weighted_req_W.begin(), weighted_req_W.end(), 0.0);
  std::vector<double> grant(n, 0.0), headroom(n, 0.0);
  double surplus = 0.0, total_headroom = 0.0;
  for (std::size_t i = 0; i < n; ++i) {
    // Nobody requesting power: every grant is zero (the kernel divides by 1 mW then).
    grant[i] = total_req > 0.0 ? weighted_req_W[i] * budget_W / total_req : 0.0;
    if (grant[i] > max_W[i]) {
      surplus += grant[i] - max_W[i];
      grant[i] = max_W[i];
    }
    headroom[i] = max_W[i] - grant[i];
    total_headroom += headroom[i];
  }
  // One redistribution pass: an actor capped at its max leaves power that others with
  // headroom can use, shared by how far each is from its own max.
  const double extra = std::min(surplus, total_headroom);
  if (total_headroom > 0.0)
    for (std::size_t i = 0; i < n; ++i) grant[i] += headroom[i] * extra / total_headroom;
  return grant;
}

power_allocator_governor::power_allocator_governor(power_allocator_params p) : params_(p) {
  // NaN means "default"; anything else must be a usable gain.
  auto check = [](const char* name, double v) {
    if (!std::isnan(v)) detail::require_non_negative(name, v);
  };
  check("k_po", p.k_po);
  check("k_pu", p.k_pu);
  check("k_i", p.k_i);
  check("k_d", p.k_d);
  if (!std::isfinite(p.integral_cutoff_K))
    detail::bad_param("integral_cutoff_K", "a finite value in K", p.integral_cutoff_K);
}

void power_allocator_governor::start(const thermal_zone_config& cfg,
                                     std::vector<cooling_device>& devices) {
  detail::check_zone(cfg, devices);
  cfg_ = cfg;
  switch_on_K_ = cfg.switch_on_temp_K > 0.0 ? cfg.switch_on_temp_K : cfg.control_temp_K - 10.0;
  sustainable_W_ = cfg.sustainable_power_W;
  set_constants();
  err_integral_K_ = prev_err_K_ = 0.0;
  pid_ = {};
  granted_W_.assign(devices.size(), 0.0);
  for (std::size_t i = 0; i < devices.size(); ++i) {
    devices[i].ceiling_hz = detail::state_ceiling_hz(devices[i], 0);
    granted_W_[i] = devices[i].max_power_W;
  }
  acted_ = false;
  active_ = false;
}

void power_allocator_governor::set_constants() {
  // The kernel's estimate_pid_constants: full proportional gain over the switch-on band.
  const double dT = cfg_.control_temp_K - switch_on_K_;
  const double kpo = sustainable_W_ / dT;
  const double kpu = 2.0 * sustainable_W_ / dT;
  k_po_ = std::isnan(params_.k_po) ? kpo : params_.k_po;
  k_pu_ = std::isnan(params_.k_pu) ? kpu : params_.k_pu;
  k_i_ = std::isnan(params_.k_i) ? std::max(k_pu_ / 10.0, 1.0 / 1024.0) : params_.k_i;
  k_d_ = std::isnan(params_.k_d) ? 0.0 : params_.k_d;
}

void power_allocator_governor::update(double now_s, double temperature_K,
                                      std::vector<cooling_device>& devices) {
  if (devices.size() != granted_W_.size())
    throw std::invalid_argument(
        "power_allocator: the zone has a different number of devices than at start()");
  if (!detail::polling_due(acted_, last_action_s_, now_s, cfg_.polling_period_s)) return;
  acted_ = true;
  last_action_s_ = now_s;

  if (temperature_K < switch_on_K_) {
    // Cool enough: no limit, and a fresh controller for the next excursion.
    active_ = false;
    err_integral_K_ = prev_err_K_ = 0.0;
    pid_ = {};
    for (std::size_t i = 0; i < devices.size(); ++i) {
      devices[i].ceiling_hz = detail::state_ceiling_hz(devices[i], 0);
      granted_W_[i] = devices[i].max_power_W;
    }
    return;
  }
  active_ = true;

  for (const cooling_device& d : devices)
    if (d.power_at_opp_W.size() != d.opps->size())
      throw std::invalid_argument("power_allocator: cooling_device.power_at_opp_W needs one "
                                  "value per OPP");
  if (sustainable_W_ <= 0.0) {
    // Estimated as the power the devices draw at their maximum cooling state.
    for (const cooling_device& d : devices) sustainable_W_ += d.min_power_W;
    set_constants();
  }

  double max_alloc_W = 0.0;
  std::vector<double> weighted_req(devices.size()), max_W(devices.size());
  for (std::size_t i = 0; i < devices.size(); ++i) {
    weighted_req[i] = devices[i].weight * devices[i].requested_power_W;
    max_W[i] = devices[i].max_power_W;
    max_alloc_W += max_W[i];
  }

  // PID on err = control - T (positive: headroom; negative: overshoot).
  const double err = cfg_.control_temp_K - temperature_K;
  const double p = (err < 0.0 ? k_po_ : k_pu_) * err;
  double i = k_i_ * err_integral_K_;
  if (err < params_.integral_cutoff_K) {
    // Anti-windup: the integral never grows beyond what the devices can absorb.
    const double i_next = i + k_i_ * err;
    if (std::abs(i_next) < max_alloc_W) {
      i = i_next;
      err_integral_K_ += err;
    }
  }
  const double d = k_d_ * (err - prev_err_K_) / (cfg_.polling_period_s * 1000.0);
  prev_err_K_ = err;
  const double budget = std::clamp(sustainable_W_ + p + i + d, 0.0, max_alloc_W);
  pid_ = {err, p, i, d, budget};

  granted_W_ = ipa_divvy_up_power(budget, weighted_req, max_W);
  for (std::size_t k = 0; k < devices.size(); ++k) {
    const std::vector<double>& pw = devices[k].power_at_opp_W;
    std::size_t opp = 0;  // nothing fits: the lowest OPP, the deepest cooling state
    for (std::size_t j = pw.size(); j-- > 0;)
      if (pw[j] <= granted_W_[k]) {
        opp = j;
        break;
      }
    devices[k].ceiling_hz = devices[k].opps->frequency_hz(opp);
  }
}

void register_power_allocator(thermal_governor_registry& r) {
  const double derived = std::numeric_limits<double>::quiet_NaN();
  r.register_governor(
      {"power_allocator",
       "IPA: a PID controller on the temperature error sets a power budget, split across the cooling devices by "
       "weight x requested power",
       {{"k_po", derived, "proportional gain while overshooting, W/K (default: sustainable_power / (control - switch_on))"},
        {"k_pu", derived, "proportional gain while undershooting, W/K (default: 2 x sustainable_power / (control - switch_on))"},
        {"k_i", derived, "integral gain, W/K per polling period (default: max(k_pu / 10, 1/1024))"},
        {"k_d", 0.0, "derivative gain, W ms/K"},
        {"integral_cutoff", 0.0, "integrate only while the error is below this, K"}}},
      [](const tunables& t) {
        power_allocator_params p;
        auto get = [&](const char* name, double& field) {
          if (auto it = t.find(name); it != t.end()) field = it->second;
        };
        get("k_po", p.k_po);
        get("k_pu", p.k_pu);
        get("k_i", p.k_i);
        get("k_d", p.k_d);
        get("integral_cutoff", p.integral_cutoff_K);
        return std::make_unique<power_allocator_governor>(p);
      });
}

}  // namespace ptsim::power
