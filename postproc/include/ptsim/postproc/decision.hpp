#pragma once
// `ptsim report --best METRIC --where EXPR...`: the best configuration under constraints,
// and how far the runner-up is behind.
#include <string>
#include <vector>

#include "ptsim/postproc/report.hpp"

namespace ptsim::postproc {

enum class goal { maximize, minimize };

struct objective {
  std::string metric;
  goal direction = goal::maximize;
};

/// "max:METRIC", "min:METRIC", or a bare METRIC whose direction is known: higher is better
/// for throughput, perf_per_watt and completed; lower for energy_J, avg_power_W,
/// peak_power_W, latency_*, peak_temperature_C, throttled_*, and the per-unit
/// *_bound_s, dvfs_stall_s, idle_exit_s, busy_s. Throws std::invalid_argument for a bare metric
/// outside that table, naming the max:/min: spelling.
objective parse_objective(const std::string& text);

/// "METRIC OP NUMBER [UNIT]" with OP one of <, <=, >, >=, ==; spaces optional. UNIT is the
/// metric's own unit with an SI prefix or none ("10 ms" for a metric in s, "3 kW" in W),
/// or "%" for a metric in 1; decide() converts it to the metric's units.
struct constraint {
  std::string metric;
  std::string op;
  double value = 0;
  std::string unit;  ///< as written after the number; empty: the metric's own units
  std::string text;  ///< as written, for messages
  bool holds(double x) const;  ///< false for NaN
};

/// Throws std::invalid_argument naming the expression and what was expected.
constraint parse_constraint(const std::string& text);

struct decision {
  objective obj;
  std::vector<constraint> where;
  std::vector<std::size_t> ranking;  ///< entries meeting every constraint, best first
  /// Entries left out, with the first constraint each fails ("latency_p99_s = 0.041,
  /// needs < 0.03") or why the metric is missing.
  std::vector<std::pair<std::size_t, std::string>> excluded;
};

/// Ranks the entries by the objective among those meeting every constraint (ties keep
/// the input order). Throws std::invalid_argument if no entry has the metric at all (with
/// the nearest metric name they have, "did you mean"), or for a unit that is not the
/// metric's.
decision decide(const std::vector<labelled_summary>& entries, const objective& obj,
                const std::vector<constraint>& where);

/// The decision in the given format. json: one object {"metric", "goal", "where",
/// "best": {...}, "runner_up": {...} or null, "gap", "gap_relative", "ranking": [...],
/// "excluded": [...]}; numbers at full precision. table/markdown: the winner, the
/// runner-up and the gap in words, then the ranking. csv: one row per entry (rank, label,
/// parameters, value, ci95, feasible, reason).
std::string format_decision(const std::vector<labelled_summary>& entries, const decision& d,
                            report_format fmt);

}  // namespace ptsim::postproc
