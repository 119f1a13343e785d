#pragma once
// A fixed-length label column of the ops table (unit, operator, bound_by) built while the run
// goes: each chunk is laid out and deflated when its rows are complete, on the writer's
// background thread, so that the commit only stores finished chunks. The width is that of the
// longest label used; a longer label arriving after chunks were built narrower has them built
// again at the end.
#include <hdf5.h>

#include <cstdint>
#include <string>
#include <vector>

#include "chunk_codec.hpp"
#include "h5_error.hpp"
#include "h5_handle.hpp"

namespace ptsim::postproc {

class label_column {
 public:
  explicit label_column(hsize_t chunk_rows) : chunk_rows_(chunk_rows) {}
  /// Labels given ids since the last call (ids count on from the earlier ones), then rows as
  /// ids. Builds the chunks they complete; with `last`, also the partial one and any built
  /// too narrow.
  void add(const std::vector<std::string>& new_labels, const std::vector<std::uint32_t>& ids, bool last,
           chunk_compressor& c);
  /// Creates the dataset and stores the chunks; after add(..., last = true).
  h5::handle write(hid_t loc, const std::string& name, const h5::context& ctx) const;

 private:
  void build(std::size_t first_row, std::size_t rows, std::size_t chunk, chunk_compressor& c);

  hsize_t chunk_rows_;
  std::vector<std::string> labels_;
  std::vector<std::uint32_t> ids_;
  std::size_t width_ = 1;  ///< the longest label used so far
  struct built {
    std::size_t width;
    byte_buffer bytes;
  };
  std::vector<built> chunks_;
  std::string rows_;  // one chunk laid out
};

}  // namespace ptsim::postproc
