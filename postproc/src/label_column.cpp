#include "label_column.hpp"

#include <algorithm>

#include "h5_io.hpp"

namespace ptsim::postproc {

void label_column::build(std::size_t first_row, std::size_t rows, std::size_t chunk, chunk_compressor& c) {
  // `rows` labels from first_row, NUL-padded to width_ bytes, then empty rows up to a whole
  // chunk (HDF5 pads an edge chunk so).
  rows_.assign(chunk * width_, '\0');
  for (std::size_t i = 0; i < rows; ++i) {
    const std::string& l = labels_[ids_[first_row + i]];
    std::copy(l.begin(), l.end(), rows_.begin() + static_cast<std::ptrdiff_t>(i * width_));
  }
  const std::size_t k = first_row / chunk;
  if (chunks_.size() <= k) chunks_.resize(k + 1);
  chunks_[k] = {width_, c.compress(rows_.data(), rows_.size(), 1)};
}

void label_column::add(const std::vector<std::string>& new_labels, const std::vector<std::uint32_t>& ids,
                       bool last, chunk_compressor& c) {
  labels_.insert(labels_.end(), new_labels.begin(), new_labels.end());
  const std::size_t done = ids_.size() / chunk_rows_ * chunk_rows_;  // rows in built chunks
  ids_.insert(ids_.end(), ids.begin(), ids.end());
  for (std::uint32_t id : ids) width_ = std::max(width_, labels_.at(id).size());
  const std::size_t total = ids_.size();
  if (!last) {
    for (std::size_t row = done; row + chunk_rows_ <= total; row += chunk_rows_) build(row, chunk_rows_, chunk_rows_, c);
    return;
  }
  // The column's chunk length is known now: a column shorter than one chunk is one chunk.
  const auto chunk = static_cast<std::size_t>(h5::label_chunk_rows(total, chunk_rows_));
  if (chunk != chunk_rows_) chunks_.clear();
  for (std::size_t row = 0; row < total; row += chunk) {
    const std::size_t k = row / chunk;
    if (k < chunks_.size() && chunks_[k].width == width_ && row + chunk <= total) continue;
    build(row, std::min(chunk, total - row), chunk, c);
  }
}

h5::handle label_column::write(hid_t loc, const std::string& name, const h5::context& ctx) const {
  const hsize_t rows = ids_.size();
  h5::handle ds = h5::create_label_dataset(loc, name, width_, rows, chunk_rows_, ctx);
  const hsize_t chunk = h5::label_chunk_rows(rows, chunk_rows_);
  const std::string what = "cannot write dataset '" + name + "'";
  for (std::size_t k = 0; rows > 0 && k < chunks_.size(); ++k)
    h5::write_stored_chunk(ds.get(), k * chunk, chunks_[k].bytes, what, ctx);
  return ds;
}

}  // namespace ptsim::postproc
