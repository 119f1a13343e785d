#pragma once
// Power capping: limits on average power over moving windows, enforced by frequency
// ceilings on DVFS domains (as RAPL's PL1/PL2 on a package, a GPU's board power limit,
// or a datacenter's two-threshold cap).
//
// Every control period the capper is told the platform power of the period that just
// ended. For each window of n periods with limit L it plans the power of the coming
// periods so that the moving average returns to L within `settle` periods:
//     P_next = (L * n - sum of the last n - m samples) / m,   m = min(settle, n)
// (m = 1 is deadbeat: the average is exactly L every period, at the price of bursts when
// old samples leave the window; larger m trades that for smoothness). Before a window has
// filled, its missing past counts as being at the limit. The tightest window
// wins, less the learnt systematic miss between plan and measurement (a slow average of
// measured - planned, learnt only from periods whose plan cut some clock). The
// uncontrolled part of the platform (memories, links, leakage outside the capped domains)
// is measured, not modelled: budget = P_next - (P_platform - P_capped_domains).
// The budget is shared by raising every capped domain's power by the same fraction of its
// own range [P(min OPP), P(max OPP)] until the budget is used up; each domain's ceiling is
// the highest OPP whose estimated power fits its share. With a soft limit (datacenter
// style), only low-priority domains are cut to meet it; everyone is cut for the hard one.
#include <cstddef>
#include <deque>
#include <string>
#include <vector>

#include "ptsim/power/opp_table.hpp"

namespace ptsim::power {

struct power_cap_config {
  double limit_W = 0;        ///< long-term limit (RAPL PL1, board limit, hard threshold); > 0
  double window_s = 1.0;     ///< averaging window of limit_W
  double short_limit_W = 0;  ///< optional short-term limit (RAPL PL2); 0 = none
  double short_window_s = 0.01;
  double soft_limit_W = 0;   ///< optional first threshold for low-priority domains; 0 = none
  double settle_s = 0.05;    ///< time over which the average is brought back to the limit
  std::vector<std::string> domains;       ///< capped domains; empty = every domain
  std::vector<std::string> low_priority;  ///< domains cut first at the soft limit
};

/// A capped domain as the capper sees it each period.
struct capped_domain {
  const opp_table* opps = nullptr;
  /// Estimated power of the domain at each OPP under its current load (W).
  std::vector<double> power_at_opp_W;
  double measured_power_W = 0;  ///< what it drew in the period that just ended
  bool low_priority = false;
  double ceiling_hz = 0;  ///< output
};

class power_capper {
 public:
  /// Throws std::invalid_argument for non-positive limits or windows, or windows shorter
  /// than the control period.
  power_capper(const power_cap_config& cfg, double period_s);
  /// One control period: records platform power and sets each domain's ceiling.
  void update(double platform_power_W, std::vector<capped_domain>& doms);
  /// Moving average over the long window so far (W).
  double average_W() const;
  /// The power planned for the coming period (W).
  double planned_W() const { return planned_W_; }

 private:
  struct window {
    double limit_W;
    std::size_t n, m;
    std::deque<double> samples;
    double sum = 0;
    void push(double p);
    double plan() const;
  };
  void allocate(double budget_W, std::vector<capped_domain>& doms, bool low_priority_only) const;

  power_cap_config cfg_;
  std::vector<window> windows_;  // [0] = long; then short; then soft (low priority)
  bool has_soft_ = false;
  bool have_plan_ = false;
  bool binding_ = false;  ///< the last plan cut some domain below its top OPP
  double planned_W_ = 0;
  double miss_W_ = 0;  ///< learnt systematic excess of measured over planned power
  // allocate's working storage, kept from one period to the next: it runs every control
  // period, and allocating these each time was a visible share of a capped run.
  mutable std::vector<capped_domain*> cut_;
  mutable std::vector<std::size_t> tops_, idx_;
  mutable std::vector<std::vector<double>> run_max_;
};

}  // namespace ptsim::power
