#pragma once
// The timeseries variables, declared once: each probe's name, coordinate, units, meaning,
// whether it is a mean over the record period or the value at the sample time, and how it
// is read from the loop. The HDF5 layout and every recorded row both come from this table,
// so a variable is added by adding a probe.
#include <string>
#include <vector>

#include "ptsim/cosim/control_loop.hpp"
#include "ptsim/postproc/result_file.hpp"

namespace ptsim::cosim {

struct probe {
  const char* name;
  const char* dim;  ///< coordinate it spans ("" = over time alone: one value)
  const char* units;
  const char* long_name;
  /// true: mean over the record period (so that power integrates to energy); false: the
  /// value at the sample time.
  bool mean;
  /// Writes the probe's values, one per label of its coordinate, to out.
  void (*fill)(const control_loop& loop, double* out);
};

/// Every timeseries variable, in the file's order.
const std::vector<probe>& probes();

/// A coordinate's labels for this loop; empty where the model has none (a probe over an
/// empty coordinate is not recorded).
std::vector<std::string> coordinate_labels(const control_loop& loop, const std::string& dim);

/// The probes this loop records (those whose coordinate is not empty), in order.
std::vector<const probe*> recorded_probes(const control_loop& loop);

/// The timeseries layout of the recorded probes (coordinates and variables with units).
postproc::timeseries_layout timeseries_layout_for(const control_loop& loop);

}  // namespace ptsim::cosim
