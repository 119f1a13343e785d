#pragma once
// Small typed helpers over the HDF5 C API: groups, attributes, extendible datasets.
// What they write can be checked when read: files use HDF5's latest format (checksummed
// superblock, object headers and chunk indexes), every chunked dataset ends its filter
// pipeline with Fletcher-32, small ones (scalars) are compact (inside their checksummed object
// header), and strings are fixed-length UTF-8 (variable-length strings live in HDF5's global
// heap, which has no checksum, and a corrupt heap crashes HDF5 when read).
#include <hdf5.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "chunk_codec.hpp"
#include "h5_error.hpp"
#include "h5_handle.hpp"

namespace ptsim::postproc::h5 {

/// Fixed-length UTF-8 string type of `width` bytes (at least 1), NUL-padded.
handle fixed_string_type(std::size_t width, const context& ctx);

/// File creation and access properties of every file ptsim writes: links and attributes in
/// creation order, and HDF5's latest format (1.10), whose metadata is checksummed.
handle file_create_properties(const context& ctx);
handle file_access_properties(const context& ctx);

/// A group whose links and attributes keep creation order, so readers list them as written.
handle create_group(hid_t loc, const std::string& name, const context& ctx);
handle open_group(hid_t loc, const std::string& name, const context& ctx);
handle open_dataset(hid_t loc, const std::string& name, const context& ctx);
/// Whether `name` exists; an error looking it up (a damaged group) throws, never reads as absent.
bool has_link(hid_t loc, const std::string& name, const context& ctx);
/// Names of the links in a group, in creation order where tracked, else by name.
std::vector<std::string> link_names(hid_t group, const context& ctx);

void write_attr(hid_t obj, const std::string& name, const std::string& value, const context& ctx);
void write_attr(hid_t obj, const std::string& name, double value, const context& ctx);
void write_attr(hid_t obj, const std::string& name, std::int64_t value, const context& ctx);
void write_attr(hid_t obj, const std::string& name, std::uint64_t value, const context& ctx);

/// Attribute readers: nullopt when absent; throw when present but not convertible.
std::optional<std::string> read_string_attr(hid_t obj, const std::string& name,
                                            const context& ctx);
std::optional<double> read_double_attr(hid_t obj, const std::string& name, const context& ctx);
std::optional<std::int64_t> read_int_attr(hid_t obj, const std::string& name,
                                          const context& ctx);
std::optional<std::uint64_t> read_uint_attr(hid_t obj, const std::string& name,
                                            const context& ctx);

enum class column_type { f64, i64, str };

struct extendible_spec {
  column_type type = column_type::f64;
  hsize_t n_cols = 0;        ///< 0: 1-D (rows); otherwise 2-D (rows, n_cols)
  hsize_t chunk_rows = 256;
  bool compress = true;      ///< shuffle + deflate (Fletcher-32 is always on)
  /// false: no chunk cache, so that each write of whole chunks compresses and stores them
  /// there and then (on the thread that writes), not when the file closes.
  bool chunk_cache = true;
};

/// An empty dataset that grows along its first axis.
handle create_extendible(hid_t loc, const std::string& name, const extendible_spec& spec,
                         const context& ctx);
/// Appends rows (row-major, n_cols values each for 2-D) to an extendible dataset.
void append_rows(hid_t ds, column_type type, const void* data, hsize_t rows,
                 const context& ctx);
/// Appends rows of float64 (row-major, n_cols values each for 2-D) to an extendible dataset
/// made by create_extendible (f64, chunks of `chunk_rows` whole rows, shuffle + deflate), as
/// whole chunks compressed by `c` and stored with H5Dwrite_chunk (no HDF5 filter pipeline, no
/// chunk cache). The dataset must hold a whole number of chunks: every earlier append but the
/// last covered whole chunks. A partial last chunk is padded with the fill value 0, as HDF5
/// pads an edge chunk; readers see only the rows. `memo` (optional, one per dataset) spares
/// compressing a steady chunk equal to the last one.
void append_chunks(hid_t ds, const double* data, hsize_t rows, hsize_t chunk_rows,
                   chunk_compressor& c, const context& ctx, steady_chunk* memo = nullptr);

/// A 1-D dataset of strings (coordinate labels): fixed-length UTF-8 as wide as the longest,
/// chunked, deflated and checksummed, with `_Encoding` = utf-8 so that xarray decodes it.
handle create_string_dataset(hid_t loc, const std::string& name,
                             const std::vector<std::string>& values, const context& ctx);
/// A label column of `rows` rows (label_column.hpp writes its chunks): fixed-length UTF-8
/// strings of `width` bytes, NUL-padded (far smaller than variable-length strings for long
/// tables of repeated labels), chunks of label_chunk_rows(rows, chunk_rows), deflate.
handle create_label_dataset(hid_t loc, const std::string& name, std::size_t width, hsize_t rows,
                            hsize_t chunk_rows, const context& ctx);
/// The chunk length of such a column: chunk_rows, or the whole column if shorter.
hsize_t label_chunk_rows(hsize_t rows, hsize_t chunk_rows);
/// Stores a chunk that is already compressed for the dataset's filters, at `row`; `what`
/// begins the error message.
void write_stored_chunk(hid_t ds, hsize_t row, const byte_buffer& bytes, const std::string& what,
                        const context& ctx);
/// A chunked, compressed 1-D dataset of numbers, written in one go.
handle create_column(hid_t loc, const std::string& name, column_type type, const void* data,
                     hsize_t rows, hsize_t chunk_rows, const context& ctx);
/// Makes `scale` the dimension scale `dim` and attaches it to every dataset in `columns`.
void attach_row_scale(hid_t scale, const std::string& dim, const std::vector<hid_t>& columns,
                      const context& ctx);
/// What netCDF-4 names a dimension scale that is a bare dimension, not a coordinate
/// variable: h5netcdf (so xarray) then shows the dimension without a variable.
inline constexpr const char* netcdf_dimension_only =
    "This is a netCDF dimension but not a netCDF variable.";
/// A row dimension `name` with no values: an extendible dataset that never stores data,
/// marked as a bare netCDF dimension. Attach columns with attach_scale.
handle create_dimension_only(hid_t loc, const std::string& name, const context& ctx);
/// Attaches an existing scale to axis 0 of each dataset.
void attach_scale(hid_t scale, const std::vector<hid_t>& columns, const context& ctx);
/// Sets the length of a 1-D extendible dataset (a bare dimension follows its columns).
void set_rows(hid_t ds, hsize_t rows, const context& ctx);

/// A scalar float64 dataset, compact (its value inside its checksummed object header).
handle create_scalar(hid_t loc, const std::string& name, double value, const context& ctx);

/// Whole-dataset readers; dims receives the shape.
std::vector<double> read_doubles(hid_t ds, std::vector<hsize_t>* dims, const context& ctx);
std::vector<std::int64_t> read_ints(hid_t ds, const context& ctx);
/// Fixed-length strings; variable-length ones only from a file in HDF5's old format (what
/// ptsim wrote before schema 1.3): in a file of the current format they are refused, since
/// its checksummed metadata says they cannot be there and reading them trusts the global heap.
std::vector<std::string> read_strings(hid_t ds, const context& ctx);
/// Whether the object's file uses HDF5's old format (superblock version 0 or 1).
bool old_format_file(hid_t obj);

}  // namespace ptsim::postproc::h5
