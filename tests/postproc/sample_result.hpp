#pragma once
// A result file with known contents, shared by the doctest suite and the writer program that
// the Python/xarray test reads. Every value follows a formula the tests recompute on their own.
#include <cmath>
#include <filesystem>
#include <string>
#include <vector>

#include "ptsim/postproc/result_file.hpp"

namespace ptsim::postproc::test {

inline constexpr double record_period_s = 0.01;

inline run_metadata sample_metadata() {
  run_metadata m;
  m.ptsim_version = "0.1.0-test";
  m.scenario_name = "phone-camera";
  m.scenario_yaml = "name: phone-camera\nduration: \"20 s\"\nseed: 42\n";
  m.seed = 18446744073709551557ull;  // above 2^63: must survive as unsigned 64-bit
  m.host = "testhost";
  m.start_time = "2024-01-02T03:04:05Z";
  return m;
}

inline timeseries_layout sample_layout() {
  timeseries_layout l;
  l.coords["block"] = {"big.cpu0", "big.cpu1", "gpu", "npu"};
  l.coords["component"] = {"cpu", "gpu", "dram"};
  l.coords["domain"] = {"big", "gpu"};
  l.variables = {
      {"temperature", "block", "degC", "block temperature"},
      {"power", "component", "W", "component power"},
      {"frequency", "domain", "Hz", "domain frequency"},
      {"voltage", "domain", "V", "domain voltage"},
      {"utilization", "domain", "1", "domain utilization"},
  };
  return l;
}

/// Value of variable v at sample t, column j: distinct per (v, t, j).
inline double sample_value(std::size_t v, std::size_t t, std::size_t j) {
  return 100.0 * static_cast<double>(v) + static_cast<double>(j) + 0.001 * static_cast<double>(t);
}

inline double sample_time(std::size_t t) { return static_cast<double>(t) * record_period_s; }

inline job_row sample_job(std::size_t i) {
  job_row r;
  r.id = static_cast<std::int64_t>(i) * 3 - 7;
  r.stream = i % 2 ? "camera" : "assistant";
  r.unit = i % 3 ? "npu" : "gpu";
  r.arrival_s = 0.5 * static_cast<double>(i);
  r.start_s = r.arrival_s + 0.001;
  r.finish_s = r.start_s + 0.02;
  r.latency_s = r.finish_s - r.arrival_s;
  r.energy_J = 0.125 * static_cast<double>(i % 7);
  return r;
}

inline std::vector<event_row> sample_events() {
  return {{0.25, "dvfs", "big", "schedutil raised the frequency", 2.4e9},
          {1.5, "throttle", "soc_zone", "step_wise → 1.2 GHz ceiling", 1.2e9},
          {2.0, "warning", "npu", "", std::nan("")}};
}

inline std::vector<floorplan_row> sample_floorplan() {
  return {{"big.cpu0", 0.0, 0.0, 1.5e-3, 2e-3},
          {"big.cpu1", 1.5e-3, 0.0, 1.5e-3, 2e-3},
          {"gpu", 0.0, 2e-3, 3e-3, 2.5e-3},
          {"npu", 3e-3, 0.0, 1e-3, 4.5e-3}};
}

inline run_summary sample_summary() {
  run_summary s;
  s.throughput_units = "inferences/s";
  s.metrics = {{"energy_J", {123.456, "J"}},
               {"avg_power_W", {6.1728, "W"}},
               {"peak_power_W", {9.87654321, "W"}},
               {"throughput", {0.1, "inferences/s"}},
               {"perf_per_watt", {1.0 / 3.0, "inferences/J"}},
               {"latency_p50_s", {0.0123, "s"}},
               {"latency_p99_s", {0.0456, "s"}},
               {"peak_temperature_C", {87.5, "degC"}},
               {"throttled_fraction", {1e-300, "1"}}};
  return s;
}

/// Operator i: units and names of varying length (UTF-8 included), back to back per unit.
inline op_row sample_op(std::size_t i) {
  static const char* const units[] = {"npu", "big.cpu0", "gpu"};
  static const char* const names[] = {"conv2d_3x3", "dwconv", "gemm_µkernel", "add"};
  op_row r;
  r.unit = units[i % 3];
  r.op = names[i % 4];
  r.start_s = 0.001 * static_cast<double>(i / 3);
  r.end_s = r.start_s + 0.0005 + 1e-6 * static_cast<double>(i % 5);
  r.bound_by = i % 2 ? "memory" : "compute";
  return r;
}

/// Unit, compute, memory, interconnect, dvfs, idle exit, idle (s), ops: each unit's 3 s.
inline std::vector<unit_time_row> sample_unit_summary() {
  return {{"npu", 1.25, 0.5, 0.0625, 0.03125, 0.03125, 1.125, 4000},
          {"big.cpu0", 0.0, 2.75, 0.0, 0.0, 0.0, 0.25, 7}};
}

inline std::vector<domain_summary_row> sample_domain_summary() {
  return {{"big", 0.375, 0.25, 0.125}, {"gpu", 0.0, 0.0, 0.0}};
}

/// Writes and commits the sample with n_samples timeseries rows and n_jobs jobs; n_ops
/// operators offered to an ops table of ops_limit rows, and the unit and domain summaries.
/// `expected_samples` is the layout's hint (0: none).
inline void write_sample(const std::filesystem::path& path, std::size_t n_samples,
                         std::size_t n_jobs, std::size_t n_ops = 0,
                         std::uint64_t ops_limit = default_ops_limit, std::size_t expected_samples = 0) {
  timeseries_layout l = sample_layout();
  l.expected_samples = expected_samples;
  result_writer w(path, sample_metadata(), l, record_period_s);
  w.set_ops_limit(ops_limit);
  for (std::size_t i = 0; i < n_ops; ++i) w.add_op(sample_op(i));
  w.set_unit_summary(sample_unit_summary());
  w.set_domain_summary(sample_domain_summary());
  std::vector<std::vector<double>> rows(l.variables.size());
  std::vector<const double*> ptrs(l.variables.size());
  for (std::size_t t = 0; t < n_samples; ++t) {
    for (std::size_t v = 0; v < l.variables.size(); ++v) {
      rows[v].resize(l.coords.at(l.variables[v].dim).size());
      for (std::size_t j = 0; j < rows[v].size(); ++j) rows[v][j] = sample_value(v, t, j);
      ptrs[v] = rows[v].data();
    }
    w.append_sample(sample_time(t), ptrs);
  }
  for (std::size_t i = 0; i < n_jobs; ++i) w.add_job(sample_job(i));
  for (const auto& e : sample_events()) w.add_event(e);
  w.set_floorplan(sample_floorplan());
  w.set_summary(sample_summary());
  w.commit(12.5);
}

}  // namespace ptsim::postproc::test
