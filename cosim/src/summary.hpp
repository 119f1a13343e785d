#pragma once
// Run-level accumulators and the summary metrics of the result contract.
#include <string>
#include <vector>

#include "ptsim/postproc/result_file.hpp"

namespace ptsim::cosim {

struct run_totals {
  double duration_s = 0;
  double energy_J = 0;
  double wall_energy_J = 0;  ///< at the wall, through the VR and PSU
  double peak_power_W = 0;
  double peak_temperature_K = 0;
  double throttled_s = 0;          ///< time with any domain below its request
  double throttled_thermal_s = 0;  ///< ... because of a thermal ceiling
  double throttled_power_s = 0;    ///< ... because of a power cap
  double power_cap_violation_s = 0;  ///< time the power averaged over the cap's window was above its limit
  std::vector<double> latencies_s;
  std::size_t completed = 0;
  std::string throughput_units = "inferences/s";
};

/// Linear-interpolated percentile (numpy's default), q in [0, 100]; NaN when empty.
double percentile(std::vector<double> values, double q);

/// energy_J, avg_power_W, peak_power_W, throughput, perf_per_watt, latency_p50_s,
/// latency_p99_s, peak_temperature_C, throttled_fraction — with their units.
postproc::run_summary summarize(const run_totals& t);

}  // namespace ptsim::cosim
