#pragma once
// A console reporter that also keeps each benchmark's CPU time per iteration (ns, median
// over repetitions; CPU, not wall, time so that other load on the machine does not skew it),
// so that a harness prints ratios measured in the same run.
#include <benchmark/benchmark.h>
#include <unistd.h>

#include <algorithm>
#include <map>
#include <string>
#include <vector>

namespace ptsim::bench {

class summary_reporter : public benchmark::ConsoleReporter {
 public:
  /// Colour only on a terminal (--benchmark_color applies to the library's own reporter only).
  summary_reporter() : ConsoleReporter(isatty(STDOUT_FILENO) ? OO_Defaults : OO_Tabular) {}

  void ReportRuns(const std::vector<Run>& runs) override {
    ConsoleReporter::ReportRuns(runs);
    for (const auto& r : runs) {
      if (r.error_occurred || r.iterations == 0) continue;
      const double ns = r.GetAdjustedCPUTime() / benchmark::GetTimeUnitMultiplier(r.time_unit) * 1e9;
      const std::string& name = r.run_name.function_name;
      if (r.run_type == Run::RT_Iteration) samples_[name].push_back(ns);
      else if (r.aggregate_name == "median") medians_[name] = ns;  // --benchmark_repetitions
    }
  }
  /// Median CPU ns per iteration of a benchmark by name; 0 when it did not run (filtered out).
  double ns(const std::string& name) const {
    if (auto m = medians_.find(name); m != medians_.end()) return m->second;
    auto it = samples_.find(name);
    if (it == samples_.end()) return 0.0;
    std::vector<double> v = it->second;
    std::nth_element(v.begin(), v.begin() + static_cast<long>(v.size() / 2), v.end());
    return v[v.size() / 2];
  }

 private:
  std::map<std::string, std::vector<double>> samples_;
  std::map<std::string, double> medians_;
};

/// Runs the registered benchmarks (honouring --benchmark_* flags) through `rep`.
inline void run_all(int argc, char** argv, summary_reporter& rep) {
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks(&rep);
  benchmark::Shutdown();
}

}  // namespace ptsim::bench
