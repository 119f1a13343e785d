#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

#include "ptsim/power/power_cap.hpp"

namespace ptsim::power {

void power_capper::window::push(double p) {
  samples.push_back(p);
  sum += p;
  if (samples.size() > n) {
    sum -= samples.front();
    samples.pop_front();
  }
}

double power_capper::window::plan() const {
  // Sum of the samples that will still be in the window after m more periods. Before the
  // window has filled, the missing past counts as exactly at the limit, so no window that
  // starts at t = 0 averages above it (no initial burst allowance).
  const std::size_t keep = n - m;
  double kept = 0;
  const std::size_t have = samples.size();
  for (std::size_t i = have > keep ? have - keep : 0; i < have; ++i) kept += samples[i];
  if (have < keep) kept += limit_W * static_cast<double>(keep - have);
  return (limit_W * static_cast<double>(n) - kept) / static_cast<double>(m);
}

power_capper::power_capper(const power_cap_config& cfg, double period_s) : cfg_(cfg) {
  auto make = [&](double limit, double win, const char* what) {
    if (!(limit > 0) || !std::isfinite(limit)) throw std::invalid_argument(std::string(what) + " must be > 0 W");
    if (!(win >= period_s * (1 - 1e-9)))
      throw std::invalid_argument(std::string(what) + " window must be at least the control period");
    window w;
    w.limit_W = limit;
    w.n = static_cast<std::size_t>(std::llround(win / period_s));
    w.m = std::clamp<std::size_t>(static_cast<std::size_t>(std::llround(cfg.settle_s / period_s)), 1, w.n);
    return w;
  };
  if (!(period_s > 0)) throw std::invalid_argument("control period must be > 0");
  windows_.push_back(make(cfg.limit_W, cfg.window_s, "power cap limit"));
  if (cfg.short_limit_W > 0) windows_.push_back(make(cfg.short_limit_W, cfg.short_window_s, "short-term limit"));
  if (cfg.soft_limit_W > 0) {
    if (cfg.soft_limit_W >= cfg.limit_W)
      throw std::invalid_argument("soft limit must be below the hard limit");
    windows_.push_back(make(cfg.soft_limit_W, cfg.window_s, "soft limit"));
    has_soft_ = true;
  }
}

double power_capper::average_W() const {
  const auto& w = windows_.front();
  return w.samples.empty() ? 0.0 : w.sum / static_cast<double>(w.samples.size());
}

void power_capper::allocate(double budget_W, std::vector<capped_domain>& doms, bool low_priority_only) const {
  // Fixed share: domains not being cut keep their current ceiling's power.
  double fixed = 0;
  std::vector<capped_domain*>& cut = cut_;
  cut.clear();
  for (auto& d : doms) {
    if (low_priority_only && !d.low_priority) {
      fixed += d.power_at_opp_W[d.opps->index_at_most(d.ceiling_hz)];
    } else {
      cut.push_back(&d);
    }
  }
  const double avail = budget_W - fixed;
  // A domain's grant buys OPP i when none of OPPs 1..i draws more than it (the walk up from
  // the lowest stops at the first that does): with each domain's running maximum of those
  // powers, a monotone sequence, a binary search answers it. The bisection below asks ~40
  // times per period, and a table of 15-MHz steps has ~80 OPPs.
  std::vector<std::size_t>& tops = tops_;
  std::vector<std::vector<double>>& run_max = run_max_;
  tops.resize(cut.size());
  if (run_max.size() < cut.size()) run_max.resize(cut.size());
  for (std::size_t k = 0; k < cut.size(); ++k) {
    const auto& p = cut[k]->power_at_opp_W;
    tops[k] = cut[k]->opps->index_at_most(cut[k]->ceiling_hz);
    auto& m = run_max[k];
    m.assign(tops[k] + 1, -std::numeric_limits<double>::infinity());
    for (std::size_t i = 1; i <= tops[k]; ++i) m[i] = std::max(m[i - 1], p[i]);
  }
  auto ceilings_for = [&](double lambda, std::vector<std::size_t>& idx) {
    double total = 0;
    idx.resize(cut.size());
    for (std::size_t k = 0; k < cut.size(); ++k) {
      const auto& p = cut[k]->power_at_opp_W;
      const auto& m = run_max[k];
      const double grant = p.front() + lambda * (p[tops[k]] - p.front());
      const std::size_t i =
          static_cast<std::size_t>(std::upper_bound(m.begin() + 1, m.end(), grant + 1e-12) - m.begin()) - 1;
      idx[k] = i;
      total += p[i];
    }
    return total;
  };
  std::vector<std::size_t>& idx = idx_;
  // Largest lambda in [0, 1] whose ceilings fit; bisection on a monotone step function.
  double lo = 0, hi = 1;
  if (ceilings_for(1.0, idx) <= avail) {
    lo = 1.0;
  } else {
    for (int it = 0; it < 40; ++it) {
      const double mid = 0.5 * (lo + hi);
      if (ceilings_for(mid, idx) <= avail) lo = mid;
      else hi = mid;
    }
  }
  ceilings_for(lo, idx);
  for (std::size_t k = 0; k < cut.size(); ++k) cut[k]->ceiling_hz = cut[k]->opps->frequency_hz(idx[k]);
}

void power_capper::update(double platform_power_W, std::vector<capped_domain>& doms) {
  for (auto& w : windows_) w.push(platform_power_W);
  // The OPP power estimates come from the last period's activity; load that changes
  // within a period makes the platform miss its plan by a systematic amount. Learn that
  // miss (a slow average) and plan around it, so the cap holds without a steady bias.
  // Only a plan that cut some clock says anything about the estimates: under a plan that
  // bound nobody the platform draws what its load asks, far below a generous plan (after
  // idle the window allows a burst), and learning that gap would loosen the cap by as much
  // as the burst allowance once the load returns.
  if (have_plan_ && binding_) miss_W_ += 0.05 * ((platform_power_W - planned_W_) - miss_W_);
  double measured_capped = 0;
  for (auto& d : doms) {
    measured_capped += d.measured_power_W;
    d.ceiling_hz = d.opps->max_hz();
  }
  const double uncontrolled = std::max(0.0, platform_power_W - measured_capped);
  // Hard limits (long, short): every capped domain shares the cut.
  double plan = std::numeric_limits<double>::infinity();
  for (std::size_t i = 0; i < windows_.size() - (has_soft_ ? 1 : 0); ++i) plan = std::min(plan, windows_[i].plan());
  plan = std::max(0.0, plan - miss_W_);
  planned_W_ = plan;
  have_plan_ = true;
  // Soft limit first: only low-priority domains give power back.
  if (has_soft_) {
    const double soft_plan = std::max(0.0, windows_.back().plan() - miss_W_);
    if (soft_plan < plan) {
      allocate(soft_plan - uncontrolled, doms, true);
      planned_W_ = soft_plan;
    }
  }
  allocate(plan - uncontrolled, doms, false);
  binding_ = std::any_of(doms.begin(), doms.end(), [](const capped_domain& d) { return d.ceiling_hz < d.opps->max_hz(); });
}

}  // namespace ptsim::power
