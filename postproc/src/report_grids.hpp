#pragma once
// The report's tables, shared by its text formats (report.cpp) and the html page.
#include <vector>

#include "ptsim/postproc/report.hpp"
#include "text_grid.hpp"

namespace ptsim::postproc {

/// Parameters, metrics and per-domain throttling, one column per entry (human numbers).
text_grid report_summary_grid(const std::vector<labelled_summary>& runs);
/// Where each unit's time went, in percent of the run.
text_grid report_time_grid(const std::vector<labelled_summary>& runs);

}  // namespace ptsim::postproc
