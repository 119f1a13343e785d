#pragma once
// `ptsim report DIR --pareto`: energy against time per configuration of a sweep, the
// energy-optimal and the time-optimal configuration and the Pareto front between them (the
// points no other point beats on both), as the Zeus and Perseus studies plot them.
#include <string>
#include <vector>

#include "ptsim/postproc/report.hpp"

namespace ptsim::postproc {

/// The two axes, both lower-is-better: a report metric (report_value's names) or one of the
/// derived per-work quantities below, which make runs of one fixed duration comparable:
///   time_per_work_s   = 1 / throughput           (s per sample, token, inference)
///   energy_per_work_J = avg_power_W / throughput (J per sample, token, inference)
struct pareto_axes {
  std::string time = "time_per_work_s";
  std::string energy = "energy_per_work_J";
};

/// "TIME,ENERGY" (spaces allowed); throws std::invalid_argument naming what was expected.
pareto_axes parse_pareto_axes(const std::string& text);

/// An axis value for an entry: the derived quantities above, else report_value; NaN if unknown.
double pareto_value(const labelled_summary& e, const std::string& name);

struct pareto_point {
  std::size_t entry;  ///< index into the entries
  double time, energy;
  bool on_front;
};

struct pareto_result {
  pareto_axes axes;
  std::vector<pareto_point> points;  ///< entries with both values, by time then energy
  std::vector<std::size_t> front;    ///< indices into points on the front, by time (energy falls along it)
  std::size_t time_optimal = 0;      ///< index into points: least time (ties: least energy)
  std::size_t energy_optimal = 0;    ///< index into points: least energy (ties: least time)
  std::vector<std::size_t> excluded; ///< entries without a value on an axis
};

/// Throws std::invalid_argument when no entry has both values (naming the axis none has).
pareto_result pareto(const std::vector<labelled_summary>& entries, const pareto_axes& axes);

/// table/markdown: the two optima and the front in words, then one row per configuration by
/// time (parameters, time, energy, energy / the energy-optimal's, on the front, which optimum).
/// csv: that table with numbers at full precision. json: {"time_metric", "energy_metric",
/// "units", "time_optimal", "energy_optimal", "front": [labels], "points": [...], "excluded"}.
/// html: the report page with that text.
std::string format_pareto(const std::vector<labelled_summary>& entries, const pareto_result& r, report_format fmt);

}  // namespace ptsim::postproc
