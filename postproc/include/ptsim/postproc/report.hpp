#pragma once
// `ptsim report`: the summary of one run, or runs side by side, in several formats.
#include <string>
#include <vector>

#include "ptsim/postproc/result_file.hpp"

namespace ptsim::postproc {

enum class report_format { table, csv, json, markdown };

/// Parses "table", "csv", "json" or "markdown"; throws std::invalid_argument otherwise.
report_format parse_report_format(const std::string& s);

struct labelled_summary {
  std::string label;  ///< run name (file stem or run id)
  run_summary summary;
};

/// json: for one run, one object {metric: number, ..., "units": {metric: unit}}, numbers
/// at full precision (17 significant digits); for several, an array of such objects with
/// a "run" key. table/markdown/csv: one row per metric, one column per run.
std::string format_report(const std::vector<labelled_summary>& runs, report_format fmt);

}  // namespace ptsim::postproc
