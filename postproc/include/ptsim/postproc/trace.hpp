#pragma once
// A run as Chrome trace-event JSON (chrome://tracing, Perfetto's UI): operators as slices
// on one track per compute unit; frequency, voltage, power and temperature as counters;
// DVFS changes and throttling as instant events with their reason, throttle episodes as
// slices on their domain's track; with CPU-scheduler tasks (policy.scheduler: eas), each
// task's runs as slices named by the CPU they ran on, its migrations as instants, and the
// utilisation schedutil read (sched_util) and each task's util_avg as counters.
// Timestamps in microseconds.
#include <cstddef>
#include <limits>
#include <ostream>

#include "ptsim/postproc/result_file.hpp"

namespace ptsim::postproc {

struct trace_options {
  /// Time window (s): what falls outside is left out, slices crossing an edge are cut.
  double from_s = -std::numeric_limits<double>::infinity();
  double to_s = std::numeric_limits<double>::infinity();
};

/// What a trace holds, by phase.
struct trace_counts {
  std::size_t slices = 0;    ///< "X": operators and throttle episodes
  std::size_t counters = 0;  ///< "C"
  std::size_t instants = 0;  ///< "i"
};

/// Process ids of the tracks, so that tools and tests find them.
namespace trace_pid {
inline constexpr int units = 1, domains = 2, power = 3, temperature = 4, run = 5, tasks = 6;
}

/// Writes the trace of a result file. Values recorded as means over a record period
/// (frequency, voltage, power) are stamped at the period's start, so that a counter's
/// step covers the period it describes; temperature is stamped at the sample time.
/// Throws std::invalid_argument if from_s >= to_s.
trace_counts write_trace(const result_reader& run, std::ostream& out, const trace_options& opt = {});

}  // namespace ptsim::postproc
