#pragma once
// Shared fixtures of the power tests: small OPP tables and a control-loop driver.
#include <utility>
#include <vector>

#include "ptsim/power/governor.hpp"
#include "ptsim/power/opp_table.hpp"
#include "ptsim/units/quantities.hpp"

namespace ptsim::power::test {

constexpr double MHz = 1e6;
/// 0 degC in kelvin: thermal trip points are written in degC.
constexpr double K0 = units::zero_celsius_in_kelvin;

/// OPP table from (MHz, V) pairs.
inline opp_table table_mhz(const std::vector<std::pair<double, double>>& mhz_v) {
  std::vector<opp> pts;
  for (const auto& [mhz, v] : mhz_v) pts.push_back({units::hertz(mhz * MHz), units::volts(v)});
  return opp_table(std::move(pts));
}

/// 500, 1000, 1500, 2000 MHz at 0.6 .. 0.9 V.
inline opp_table four_opps() {
  return table_mhz({{500, 0.6}, {1000, 0.7}, {1500, 0.8}, {2000, 0.9}});
}

/// Steps a governor through 1 ms control periods. By default the domain runs at what the
/// governor requested (cur follows the request); policy limits 0 = the table's.
struct loop {
  cpufreq_governor& gov;
  double now_s = 0.0, period_s = 1e-3, cur_hz = 0.0;
  double policy_min_hz = 0.0, policy_max_hz = 0.0;
  bool follow = true;

  double step(double util, double iowait = 0.0) {
    now_s += period_s;
    cpufreq_sample s;
    s.now_s = now_s;
    s.period_s = period_s;
    s.utilization = util;
    s.iowait_share = iowait;
    s.cur_hz = cur_hz;
    s.policy_min_hz = policy_min_hz;
    s.policy_max_hz = policy_max_hz;
    const double f = gov.update(s);
    if (follow) cur_hz = f;
    return f;
  }
  /// n identical periods; returns the request after the last.
  double run(int n, double util, double iowait = 0.0) {
    double f = 0.0;
    for (int i = 0; i < n; ++i) f = step(util, iowait);
    return f;
  }
};

}  // namespace ptsim::power::test
