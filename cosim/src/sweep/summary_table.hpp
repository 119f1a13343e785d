#pragma once
// The sweep's summary table, built from what its folder holds: one row per run that has a
// complete result (status ok, metrics read from the file) or a failure record, in run
// index order, whoever ran it, so the table is the same whatever -j, ranks or shards.
#include <cstddef>

#include "ptsim/postproc/sweep_summary.hpp"
#include "ptsim/scenarios/sweep.hpp"
#include "sweep_folder.hpp"

namespace ptsim::cosim::sweep {

struct table_counts {
  std::size_t ok = 0, failed = 0, missing = 0;  ///< missing: neither result nor record yet
};

postproc::sweep_summary build_summary(const scenarios::sweep_spec& sweep, const sweep_folder& folder,
                                      table_counts* counts);

}  // namespace ptsim::cosim::sweep
