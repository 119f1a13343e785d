#pragma once
// What a measured column is compared with, read from a run's result file:
//   - a summary metric of the catalogue (postproc/metric_catalogue.hpp): throughput,
//     avg_power_W, avg_wall_power_W, latency_p50_s, ...
//   - power:A+B+...  the run's average power of these components together (W), from the
//     `power(time, component)` timeseries; a name may hold ranges: power:gpu{0..3}+hbm{0..3}
//   - freq:DOMAIN    the domain's clock averaged over the run (MHz), from `frequency(time,
//     domain)`: the mean SM clock nvidia-smi samples under a power limit
//   - from the jobs table (finished requests):
//       ttft_pQ_s        percentile Q of the time to first token (first_token_s - arrival_s)
//       itl_pQ_s         percentile Q over requests of the mean inter-token latency,
//                        (finish_s - first_token_s) / (tokens_out - 1), requests of >= 2 tokens
//       decode_rate_pQ   percentile Q over requests of their decode rate (tokens/s), the
//                        inverse of the above
//       job_time_mean_s  mean of finish_s - start_s (a training step, an inference batch)
#include <filesystem>
#include <string>
#include <vector>

namespace ptsim::cosim::calibration {

struct metric_expr {
  enum class kind { summary, power, job_energy, freq, ttft, itl, decode_rate, job_time_mean } what = kind::summary;
  std::string text;                     ///< as written
  std::string summary_name;             ///< kind::summary
  std::vector<std::string> components;  ///< kind::power and kind::job_energy, ranges expanded
  std::string domain;                   ///< kind::freq
  double q = 50;                        ///< percentile of the jobs metrics
  std::string units() const;            ///< "W", "J", "MHz", "s", "tokens/s", or the catalogue's
};

/// Parses a metric expression. Throws std::invalid_argument saying what is accepted.
metric_expr parse_metric(const std::string& text);

/// The metrics' values in one result file (read once). NaN where the run has nothing to
/// measure (no finished request). Throws std::runtime_error for a component the file does
/// not have, or a file that is not a result.
std::vector<double> evaluate_metrics(const std::vector<const metric_expr*>& ms, const std::filesystem::path& result);

}  // namespace ptsim::cosim::calibration
