#include "h5_io.hpp"

#include "layout.hpp"

#include <hdf5_hl.h>

#include <algorithm>
#include <stdexcept>

// append_chunks stores memory's doubles as they are, and the files' float64 is little-endian.
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "ptsim's direct chunk writes assume a little-endian host"
#endif

namespace ptsim::postproc::h5 {

namespace {

handle scalar_space(const context& ctx) {
  return {ctx.check(H5Screate(H5S_SCALAR), "cannot create a dataspace"), H5Sclose};
}

hid_t file_type_of(column_type t) {
  return t == column_type::f64 ? H5T_IEEE_F64LE : H5T_STD_I64LE;
}

hid_t mem_type_of(column_type t) {
  return t == column_type::f64 ? H5T_NATIVE_DOUBLE : H5T_NATIVE_INT64;
}

// Replaces an attribute of the same name, so that writers may set a value twice.
handle create_attr(hid_t obj, const std::string& name, hid_t type, const context& ctx) {
  if (H5Aexists(obj, name.c_str()) > 0)
    ctx.check_status(H5Adelete(obj, name.c_str()), "cannot replace attribute '" + name + "'");
  handle space = scalar_space(ctx);
  return {ctx.check(H5Acreate2(obj, name.c_str(), type, space.get(), H5P_DEFAULT, H5P_DEFAULT),
                    "cannot create attribute '" + name + "'"),
          H5Aclose};
}

template <typename T>
void write_number_attr(hid_t obj, const std::string& name, hid_t file_type, hid_t mem_type,
                       T value, const context& ctx) {
  handle attr = create_attr(obj, name, file_type, ctx);
  ctx.check_status(H5Awrite(attr.get(), mem_type, &value),
                   "cannot write attribute '" + name + "'");
}

// Opens an attribute if present; nullopt-like invalid handle when absent.
handle open_attr(hid_t obj, const std::string& name, const context& ctx) {
  const htri_t exists = H5Aexists(obj, name.c_str());
  ctx.check_status(exists, "cannot look up attribute '" + name + "'");
  if (exists == 0) return {};
  return {ctx.check(H5Aopen(obj, name.c_str(), H5P_DEFAULT),
                    "cannot open attribute '" + name + "'"),
          H5Aclose};
}

template <typename T>
std::optional<T> read_number_attr(hid_t obj, const std::string& name, hid_t mem_type,
                                  bool allow_float, const context& ctx) {
  handle attr = open_attr(obj, name, ctx);
  if (!attr.valid()) return std::nullopt;
  handle type{ctx.check(H5Aget_type(attr.get()), "cannot read attribute '" + name + "'"),
              H5Tclose};
  const H5T_class_t cls = H5Tget_class(type.get());
  handle space{H5Aget_space(attr.get()), H5Sclose};
  if (!(cls == H5T_INTEGER || (allow_float && cls == H5T_FLOAT)) ||
      H5Sget_simple_extent_npoints(space.get()) != 1)
    ctx.fail_plain("attribute '" + name + "' is not a single number");
  T value{};
  ctx.check_status(H5Aread(attr.get(), mem_type, &value),
                   "cannot read attribute '" + name + "'");
  return value;
}

herr_t collect_name(hid_t, const char* name, const H5L_info_t*, void* data) {
  static_cast<std::vector<std::string>*>(data)->emplace_back(name);
  return 0;
}

}  // namespace

handle fixed_string_type(std::size_t width, const context& ctx) {
  handle t{ctx.check(H5Tcopy(H5T_C_S1), "cannot create a string type"), H5Tclose};
  ctx.check_status(H5Tset_size(t.get(), std::max<std::size_t>(width, 1)), "cannot create a string type");
  ctx.check_status(H5Tset_strpad(t.get(), H5T_STR_NULLPAD), "cannot create a string type");
  ctx.check_status(H5Tset_cset(t.get(), H5T_CSET_UTF8), "cannot create a string type");
  return t;
}

namespace {

// Links and attributes kept in the object header (checksummed as a whole, read in one piece),
// never moved to "dense" storage (a fractal heap with B-tree indexes) past 8 of them: HDF5
// 1.10 frees uninitialised pointers when iterating a damaged dense group fails, so a flipped
// bit there crashed the reader instead of failing the read. An attribute too large for an
// object header message (64 KiB) still goes to dense storage.
void keep_compact(hid_t plist, const context& ctx) {
  ctx.check_status(H5Pset_link_phase_change(plist, 65535, 65535), "cannot set group properties");
  ctx.check_status(H5Pset_attr_phase_change(plist, 65535, 65535), "cannot set group properties");
}

}  // namespace

handle file_create_properties(const context& ctx) {
  handle fcpl{ctx.check(H5Pcreate(H5P_FILE_CREATE), "cannot create file properties"), H5Pclose};
  const unsigned order = H5P_CRT_ORDER_TRACKED | H5P_CRT_ORDER_INDEXED;
  ctx.check_status(H5Pset_link_creation_order(fcpl.get(), order), "cannot set file properties");
  ctx.check_status(H5Pset_attr_creation_order(fcpl.get(), order), "cannot set file properties");
  keep_compact(fcpl.get(), ctx);
  return fcpl;
}

handle file_access_properties(const context& ctx) {
  handle fapl{ctx.check(H5Pcreate(H5P_FILE_ACCESS), "cannot create file properties"), H5Pclose};
  // The 1.10 format checksums the superblock, object headers, B-trees, heaps' indexes and
  // chunk indexes (HDF5 1.10 and later, h5py, netCDF 4.4+ read it).
  ctx.check_status(H5Pset_libver_bounds(fapl.get(), H5F_LIBVER_V110, H5F_LIBVER_LATEST),
                   "cannot set file properties");
  // HDF5's own whole-file lock is off: the output claim's lock already keeps other writers
  // out (output_file.hpp), and on file systems that emulate flock with byte-range locks
  // (NFS) HDF5's would collide with it.
  ctx.check_status(H5Pset_file_locking(fapl.get(), false, true), "cannot set file properties");
  return fapl;
}

bool old_format_file(hid_t obj) {
  const hid_t file = H5Iget_file_id(obj);
  if (file < 0) {
    H5Eclear2(H5E_DEFAULT);
    return false;
  }
  H5F_info2_t info{};
  const herr_t rc = H5Fget_info2(file, &info);
  H5Fclose(file);
  if (rc < 0) {
    H5Eclear2(H5E_DEFAULT);
    return false;
  }
  return info.super.version < 2;
}

handle create_group(hid_t loc, const std::string& name, const context& ctx) {
  handle gcpl{ctx.check(H5Pcreate(H5P_GROUP_CREATE), "cannot create group properties"),
              H5Pclose};
  const unsigned order = H5P_CRT_ORDER_TRACKED | H5P_CRT_ORDER_INDEXED;
  ctx.check_status(H5Pset_link_creation_order(gcpl.get(), order), "cannot set group order");
  ctx.check_status(H5Pset_attr_creation_order(gcpl.get(), order), "cannot set group order");
  keep_compact(gcpl.get(), ctx);
  return {ctx.check(H5Gcreate2(loc, name.c_str(), H5P_DEFAULT, gcpl.get(), H5P_DEFAULT),
                    "cannot create group '" + name + "'"),
          H5Gclose};
}

handle open_group(hid_t loc, const std::string& name, const context& ctx) {
  if (!has_link(loc, name, ctx)) ctx.fail_plain("no group '" + name + "'");
  return {ctx.check(H5Gopen2(loc, name.c_str(), H5P_DEFAULT), "cannot open group '" + name + "'"),
          H5Gclose};
}

handle open_dataset(hid_t loc, const std::string& name, const context& ctx) {
  if (!has_link(loc, name, ctx)) ctx.fail_plain("no dataset '" + name + "'");
  return {ctx.check(H5Dopen2(loc, name.c_str(), H5P_DEFAULT),
                    "cannot open dataset '" + name + "'"),
          H5Dclose};
}

bool has_link(hid_t loc, const std::string& name, const context& ctx) {
  // Each component of a path in turn: HDF5 fails (rather than answers no) when a group on
  // the way is missing, and a failure here must mean damage, not absence.
  std::size_t from = 0;
  while (true) {
    const std::size_t slash = name.find('/', from);
    const std::string prefix = name.substr(0, slash);
    const htri_t found = H5Lexists(loc, prefix.c_str(), H5P_DEFAULT);
    ctx.check_status(found, "cannot look up '" + prefix + "'");
    if (found == 0) return false;
    if (slash == std::string::npos) return true;
    from = slash + 1;
  }
}

std::vector<std::string> link_names(hid_t group, const context& ctx) {
  std::vector<std::string> names;
  hsize_t idx = 0;
  // Creation order is only indexed when the writer tracked it; fall back to name order.
  if (H5Literate(group, H5_INDEX_CRT_ORDER, H5_ITER_INC, &idx, collect_name, &names) < 0) {
    H5Eclear2(H5E_DEFAULT);
    names.clear();
    idx = 0;
    ctx.check_status(H5Literate(group, H5_INDEX_NAME, H5_ITER_INC, &idx, collect_name, &names),
                     "cannot list a group");
  }
  return names;
}

void write_attr(hid_t obj, const std::string& name, const std::string& value,
                const context& ctx) {
  handle type = fixed_string_type(value.size(), ctx);
  handle attr = create_attr(obj, name, type.get(), ctx);
  std::string text = value;
  text.resize(std::max<std::size_t>(value.size(), 1), '\0');
  ctx.check_status(H5Awrite(attr.get(), type.get(), text.data()),
                   "cannot write attribute '" + name + "'");
}

void write_attr(hid_t obj, const std::string& name, double value, const context& ctx) {
  write_number_attr(obj, name, H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, value, ctx);
}

void write_attr(hid_t obj, const std::string& name, std::int64_t value, const context& ctx) {
  write_number_attr(obj, name, H5T_STD_I64LE, H5T_NATIVE_INT64, value, ctx);
}

void write_attr(hid_t obj, const std::string& name, std::uint64_t value, const context& ctx) {
  write_number_attr(obj, name, H5T_STD_U64LE, H5T_NATIVE_UINT64, value, ctx);
}

std::optional<std::string> read_string_attr(hid_t obj, const std::string& name,
                                            const context& ctx) {
  handle attr = open_attr(obj, name, ctx);
  if (!attr.valid()) return std::nullopt;
  const std::string what = "cannot read attribute '" + name + "'";
  handle ftype{ctx.check(H5Aget_type(attr.get()), what), H5Tclose};
  handle space{ctx.check(H5Aget_space(attr.get()), what), H5Sclose};
  if (H5Tget_class(ftype.get()) != H5T_STRING || H5Sget_simple_extent_npoints(space.get()) != 1)
    ctx.fail_plain("attribute '" + name + "' is not a single string");
  // Read with the file's own string type: HDF5 will not convert between character sets.
  handle mtype{ctx.check(H5Tcopy(ftype.get()), what), H5Tclose};
  if (H5Tis_variable_str(ftype.get()) > 0) {
    if (!old_format_file(obj))
      ctx.fail_plain("attribute '" + name + "' is a variable-length string, which this file's format never holds");
    char* text = nullptr;
    ctx.check_status(H5Aread(attr.get(), mtype.get(), &text), what);
    std::string value = text ? text : "";
    H5free_memory(text);
    return value;
  }
  const std::size_t size = H5Tget_size(ftype.get());
  std::string buf(size, '\0');
  ctx.check_status(H5Aread(attr.get(), mtype.get(), buf.data()), what);
  buf.resize(std::min(buf.find('\0'), buf.size()));
  if (H5Tget_strpad(ftype.get()) == H5T_STR_SPACEPAD)
    buf.erase(buf.find_last_not_of(' ') + 1);
  return buf;
}

std::optional<double> read_double_attr(hid_t obj, const std::string& name, const context& ctx) {
  return read_number_attr<double>(obj, name, H5T_NATIVE_DOUBLE, true, ctx);
}

std::optional<std::int64_t> read_int_attr(hid_t obj, const std::string& name,
                                          const context& ctx) {
  return read_number_attr<std::int64_t>(obj, name, H5T_NATIVE_INT64, false, ctx);
}

std::optional<std::uint64_t> read_uint_attr(hid_t obj, const std::string& name,
                                            const context& ctx) {
  return read_number_attr<std::uint64_t>(obj, name, H5T_NATIVE_UINT64, false, ctx);
}

handle create_extendible(hid_t loc, const std::string& name, const extendible_spec& spec,
                         const context& ctx) {
  const std::string what = "cannot create dataset '" + name + "'";
  const int rank = spec.n_cols == 0 ? 1 : 2;
  const hsize_t dims[2] = {0, spec.n_cols};
  // A 2-D dataset with no columns still needs a non-zero chunk, which a fixed extent of 0
  // would not admit: let that axis grow too.
  const hsize_t max_dims[2] = {H5S_UNLIMITED, spec.n_cols == 0 ? H5S_UNLIMITED : spec.n_cols};
  const hsize_t chunk[2] = {spec.chunk_rows, std::max<hsize_t>(spec.n_cols, 1)};
  handle space{ctx.check(H5Screate_simple(rank, dims, max_dims), what), H5Sclose};
  handle dcpl{ctx.check(H5Pcreate(H5P_DATASET_CREATE), what), H5Pclose};
  ctx.check_status(H5Pset_chunk(dcpl.get(), rank, chunk), what);
  if (spec.type == column_type::str)
    throw std::logic_error("create_extendible takes numbers; strings go to label columns");
  if (spec.compress) {
    ctx.check_status(H5Pset_shuffle(dcpl.get()), what);
    ctx.check_status(H5Pset_deflate(dcpl.get(), layout::deflate_level), what);
  }
  // Last in the pipeline: checked first on read (chunk_compressor appends it to raw chunks).
  ctx.check_status(H5Pset_fletcher32(dcpl.get()), what);
  const hid_t type = file_type_of(spec.type);
  handle dapl{ctx.check(H5Pcreate(H5P_DATASET_ACCESS), what), H5Pclose};
  if (!spec.chunk_cache)
    ctx.check_status(H5Pset_chunk_cache(dapl.get(), 0, 0, H5D_CHUNK_CACHE_W0_DEFAULT), what);
  return {ctx.check(H5Dcreate2(loc, name.c_str(), type, space.get(), H5P_DEFAULT, dcpl.get(),
                               dapl.get()),
                    what),
          H5Dclose};
}

void append_rows(hid_t ds, column_type type, const void* data, hsize_t rows,
                 const context& ctx) {
  if (rows == 0) return;
  const std::string what = "cannot append to a dataset";
  handle space{ctx.check(H5Dget_space(ds), what), H5Sclose};
  hsize_t dims[2] = {0, 0};
  const int rank = H5Sget_simple_extent_dims(space.get(), dims, nullptr);
  if (rank < 1 || rank > 2) ctx.fail(what);
  const hsize_t start[2] = {dims[0], 0};
  const hsize_t count[2] = {rows, rank == 2 ? dims[1] : 1};
  dims[0] += rows;
  ctx.check_status(H5Dset_extent(ds, dims), what);
  if (rank == 2 && dims[1] == 0) return;  // nothing to store, but the rows axis stays in step
  space = handle{ctx.check(H5Dget_space(ds), what), H5Sclose};
  ctx.check_status(H5Sselect_hyperslab(space.get(), H5S_SELECT_SET, start, nullptr, count, nullptr),
                   what);
  handle mem{ctx.check(H5Screate_simple(rank, count, nullptr), what), H5Sclose};
  if (type == column_type::str) throw std::logic_error("append_rows takes numbers");
  ctx.check_status(H5Dwrite(ds, mem_type_of(type), mem.get(), space.get(), H5P_DEFAULT, data), what);
}

void append_chunks(hid_t ds, const double* data, hsize_t rows, hsize_t chunk_rows,
                   chunk_compressor& c, const context& ctx, steady_chunk* memo) {
  if (rows == 0) return;
  const std::string what = "cannot append chunks to a dataset";
  handle space{ctx.check(H5Dget_space(ds), what), H5Sclose};
  hsize_t dims[2] = {0, 0};
  const int rank = H5Sget_simple_extent_dims(space.get(), dims, nullptr);
  if (rank < 1 || rank > 2) ctx.fail(what);
  const hsize_t start = dims[0];
  if (chunk_rows == 0 || start % chunk_rows != 0)
    ctx.fail_plain(what + ": it ends inside a chunk (" + std::to_string(start) + " rows, chunks of " +
                   std::to_string(chunk_rows) + ")");
  dims[0] += rows;
  ctx.check_status(H5Dset_extent(ds, dims), what);
  const hsize_t cols = rank == 2 ? dims[1] : 1;
  if (cols == 0) return;  // nothing to store, but the rows axis stays in step
  const hsize_t chunk_values = chunk_rows * cols;
  std::vector<double> padded;
  for (hsize_t row = 0; row < rows; row += chunk_rows) {
    const double* values = data + row * cols;
    const hsize_t n = std::min(chunk_rows, rows - row);
    if (n < chunk_rows) {
      padded.assign(chunk_values, 0.0);
      std::copy(values, values + n * cols, padded.begin());
      values = padded.data();
    }
    const byte_buffer& bytes = c.compress(values, chunk_values, sizeof(double), memo, cols);
    write_stored_chunk(ds, start + row, bytes, what, ctx);
  }
}

namespace {

// A 1-D chunked, compressed dataset of `rows` elements (growable, so any chunk size fits).
handle create_filled(hid_t loc, const std::string& name, hid_t file_type, hsize_t rows,
                     hsize_t chunk_rows, bool shuffle, const context& ctx) {
  const std::string what = "cannot create dataset '" + name + "'";
  const hsize_t max_rows = H5S_UNLIMITED;
  const hsize_t chunk = std::max<hsize_t>(1, std::min(chunk_rows, std::max<hsize_t>(rows, 1)));
  handle space{ctx.check(H5Screate_simple(1, &rows, &max_rows), what), H5Sclose};
  handle dcpl{ctx.check(H5Pcreate(H5P_DATASET_CREATE), what), H5Pclose};
  ctx.check_status(H5Pset_chunk(dcpl.get(), 1, &chunk), what);
  if (shuffle) ctx.check_status(H5Pset_shuffle(dcpl.get()), what);
  ctx.check_status(H5Pset_deflate(dcpl.get(), layout::deflate_level), what);
  ctx.check_status(H5Pset_fletcher32(dcpl.get()), what);
  return {ctx.check(H5Dcreate2(loc, name.c_str(), file_type, space.get(), H5P_DEFAULT,
                               dcpl.get(), H5P_DEFAULT),
                    what),
          H5Dclose};
}

}  // namespace

handle create_string_dataset(hid_t loc, const std::string& name,
                             const std::vector<std::string>& values, const context& ctx) {
  std::size_t width = 1;
  for (const auto& v : values) width = std::max(width, v.size());
  handle type = fixed_string_type(width, ctx);
  const hsize_t n = values.size();
  handle ds = create_filled(loc, name, type.get(), n, layout::table_chunk_rows, false, ctx);
  if (n > 0) {
    std::string buf(n * width, '\0');
    for (std::size_t i = 0; i < values.size(); ++i) std::copy(values[i].begin(), values[i].end(), buf.begin() + static_cast<std::ptrdiff_t>(i * width));
    ctx.check_status(H5Dwrite(ds.get(), type.get(), H5S_ALL, H5S_ALL, H5P_DEFAULT, buf.data()),
                     "cannot write dataset '" + name + "'");
  }
  write_attr(ds.get(), layout::attr_encoding, std::string("utf-8"), ctx);
  return ds;
}

handle create_label_dataset(hid_t loc, const std::string& name, std::size_t width, hsize_t rows,
                            hsize_t chunk_rows, const context& ctx) {
  const std::string what = "cannot create dataset '" + name + "'";
  handle type = fixed_string_type(width, ctx);
  handle ds = create_filled(loc, name, type.get(), rows, chunk_rows, false, ctx);
  write_attr(ds.get(), layout::attr_encoding, std::string("utf-8"), ctx);
  return ds;
}

hsize_t label_chunk_rows(hsize_t rows, hsize_t chunk_rows) {
  return std::max<hsize_t>(1, std::min(chunk_rows, std::max<hsize_t>(rows, 1)));
}

void write_stored_chunk(hid_t ds, hsize_t row, const byte_buffer& bytes, const std::string& what,
                        const context& ctx) {
  const hsize_t offset[2] = {row, 0};
  ctx.check_status(H5Dwrite_chunk(ds, H5P_DEFAULT, 0, offset, bytes.size(), bytes.data()), what);
}

handle create_column(hid_t loc, const std::string& name, column_type type, const void* data,
                     hsize_t rows, hsize_t chunk_rows, const context& ctx) {
  if (type == column_type::str)
    throw std::logic_error("create_column takes numbers; strings go to create_string_dataset or create_label_dataset");
  handle ds = create_filled(loc, name, file_type_of(type), rows, chunk_rows, true, ctx);
  if (rows > 0)
    ctx.check_status(H5Dwrite(ds.get(), mem_type_of(type), H5S_ALL, H5S_ALL, H5P_DEFAULT, data),
                     "cannot write dataset '" + name + "'");
  return ds;
}

void attach_row_scale(hid_t scale, const std::string& dim, const std::vector<hid_t>& columns,
                      const context& ctx) {
  ctx.check_status(H5DSset_scale(scale, dim.c_str()), "cannot make '" + dim + "' a scale");
  attach_scale(scale, columns, ctx);
}

void attach_scale(hid_t scale, const std::vector<hid_t>& columns, const context& ctx) {
  for (hid_t c : columns) ctx.check_status(H5DSattach_scale(c, scale, 0), "cannot attach a dimension scale");
}

handle create_dimension_only(hid_t loc, const std::string& name, const context& ctx) {
  const std::string what = "cannot create dimension '" + name + "'";
  const hsize_t rows = 0, max_rows = H5S_UNLIMITED, chunk = 1024;
  handle space{ctx.check(H5Screate_simple(1, &rows, &max_rows), what), H5Sclose};
  handle dcpl{ctx.check(H5Pcreate(H5P_DATASET_CREATE), what), H5Pclose};
  ctx.check_status(H5Pset_chunk(dcpl.get(), 1, &chunk), what);
  // Never written: no chunk is ever allocated or filled.
  ctx.check_status(H5Pset_fill_time(dcpl.get(), H5D_FILL_TIME_NEVER), what);
  handle ds{ctx.check(H5Dcreate2(loc, name.c_str(), H5T_IEEE_F32LE, space.get(), H5P_DEFAULT, dcpl.get(),
                                 H5P_DEFAULT),
                      what),
            H5Dclose};
  ctx.check_status(H5DSset_scale(ds.get(), netcdf_dimension_only), what);
  return ds;
}

void set_rows(hid_t ds, hsize_t rows, const context& ctx) {
  ctx.check_status(H5Dset_extent(ds, &rows), "cannot resize a dimension");
}

handle create_scalar(hid_t loc, const std::string& name, double value, const context& ctx) {
  handle space = scalar_space(ctx);
  handle dcpl{ctx.check(H5Pcreate(H5P_DATASET_CREATE), "cannot create dataset '" + name + "'"), H5Pclose};
  // Compact: the value sits in the object header, which the 1.10 format checksums (a
  // contiguous value would not be).
  ctx.check_status(H5Pset_layout(dcpl.get(), H5D_COMPACT), "cannot create dataset '" + name + "'");
  handle ds{ctx.check(H5Dcreate2(loc, name.c_str(), H5T_IEEE_F64LE, space.get(), H5P_DEFAULT,
                                 dcpl.get(), H5P_DEFAULT),
                      "cannot create dataset '" + name + "'"),
            H5Dclose};
  ctx.check_status(H5Dwrite(ds.get(), H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, &value),
                   "cannot write dataset '" + name + "'");
  return ds;
}

namespace {

// Shape and element count; checks the element class against what the caller can take.
hsize_t shape_of(hid_t ds, std::vector<hsize_t>* dims, bool numeric, const context& ctx) {
  handle type{ctx.check(H5Dget_type(ds), "cannot read a dataset"), H5Tclose};
  const H5T_class_t cls = H5Tget_class(type.get());
  if (numeric ? (cls != H5T_INTEGER && cls != H5T_FLOAT) : cls != H5T_STRING)
    ctx.fail_plain(std::string("a dataset does not hold ") + (numeric ? "numbers" : "strings"));
  handle space{ctx.check(H5Dget_space(ds), "cannot read a dataset"), H5Sclose};
  const int rank = H5Sget_simple_extent_ndims(space.get());
  if (rank < 0) ctx.fail("cannot read a dataset");
  std::vector<hsize_t> d(static_cast<std::size_t>(rank));
  H5Sget_simple_extent_dims(space.get(), d.data(), nullptr);
  hsize_t n = 1;
  for (hsize_t x : d) n *= x;
  if (dims) *dims = d;
  return n;
}

template <typename T>
std::vector<T> read_numbers(hid_t ds, hid_t mem_type, std::vector<hsize_t>* dims,
                            const context& ctx) {
  std::vector<T> out(shape_of(ds, dims, true, ctx));
  if (!out.empty())
    ctx.check_status(H5Dread(ds, mem_type, H5S_ALL, H5S_ALL, H5P_DEFAULT, out.data()),
                     "cannot read a dataset");
  return out;
}

}  // namespace

std::vector<double> read_doubles(hid_t ds, std::vector<hsize_t>* dims, const context& ctx) {
  return read_numbers<double>(ds, H5T_NATIVE_DOUBLE, dims, ctx);
}

std::vector<std::int64_t> read_ints(hid_t ds, const context& ctx) {
  return read_numbers<std::int64_t>(ds, H5T_NATIVE_INT64, nullptr, ctx);
}

std::vector<std::string> read_strings(hid_t ds, const context& ctx) {
  const hsize_t n = shape_of(ds, nullptr, false, ctx);
  std::vector<std::string> out;
  if (n == 0) return out;
  out.reserve(n);
  const std::string what = "cannot read a string dataset";
  handle ftype{ctx.check(H5Dget_type(ds), what), H5Tclose};
  handle mtype{ctx.check(H5Tcopy(ftype.get()), what), H5Tclose};
  if (H5Tis_variable_str(ftype.get()) > 0) {
    if (!old_format_file(ds))
      ctx.fail_plain("a dataset holds variable-length strings, which this file's format never holds");
    std::vector<char*> buf(n, nullptr);
    ctx.check_status(H5Dread(ds, mtype.get(), H5S_ALL, H5S_ALL, H5P_DEFAULT, buf.data()), what);
    for (char* s : buf) out.emplace_back(s ? s : "");
    handle space{H5Dget_space(ds), H5Sclose};
    H5Dvlen_reclaim(mtype.get(), space.get(), H5P_DEFAULT, buf.data());
    return out;
  }
  const std::size_t size = H5Tget_size(ftype.get());
  std::string buf(size * n, '\0');
  ctx.check_status(H5Dread(ds, mtype.get(), H5S_ALL, H5S_ALL, H5P_DEFAULT, buf.data()), what);
  const bool space_pad = H5Tget_strpad(ftype.get()) == H5T_STR_SPACEPAD;
  for (hsize_t i = 0; i < n; ++i) {
    std::string s = buf.substr(i * size, size);
    s.resize(std::min(s.find('\0'), s.size()));
    if (space_pad) s.erase(s.find_last_not_of(' ') + 1);
    out.push_back(std::move(s));
  }
  return out;
}

}  // namespace ptsim::postproc::h5
