// result_reader: checks that a file is a ptsim result of a known schema, then reads it back.
#include <hdf5.h>
#include <hdf5_hl.h>

#include <algorithm>
#include <map>
#include <stdexcept>

#include "h5_error.hpp"
#include "h5_handle.hpp"
#include "h5_io.hpp"
#include "layout.hpp"
#include "ptsim/postproc/result_file.hpp"
#include "table_columns.hpp"

namespace ptsim::postproc {

namespace fs = std::filesystem;

struct result_reader::impl {
  h5::context ctx;
  h5::handle file;
  run_metadata meta;
  run_summary summary;

  [[noreturn]] void not_ptsim(const std::string& why) const {
    ctx.fail_plain("not a ptsim result file (" + why + ")");
  }

  void open(const fs::path& path);
  void read_metadata();
  void read_summary();
  h5::handle open_in(const char* group, const std::string& name) const;
  template <std::size_t N>
  std::vector<h5::handle> open_table(const char* group,
                                     const std::array<layout::column_def, N>& defs,
                                     std::size_t* rows) const;
};

void result_reader::impl::open(const fs::path& path) {
  std::error_code ec;
  if (!fs::is_regular_file(path, ec)) ctx.fail_plain("cannot open result file (no such file)");
  const hid_t id = H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  if (id < 0) {
    std::string detail = h5::error_reason();
    if (h5::debug_enabled()) detail += " [HDF5 stack: " + h5::error_stack_text() + "]";
    H5Eclear2(H5E_DEFAULT);
    not_ptsim("HDF5 cannot open it: " + detail);
  }
  file = h5::handle{id, H5Fclose};
}

void result_reader::impl::read_metadata() {
  const hid_t root = file.get();
  auto required_string = [&](const char* name) {
    auto v = h5::read_string_attr(root, name, ctx);
    if (!v) not_ptsim(std::string("no root attribute '") + name + "'");
    return *v;
  };
  const std::string version = required_string(layout::attr_schema_version);
  auto major = h5::read_int_attr(root, layout::attr_schema_major, ctx);
  if (!major) not_ptsim(std::string("no root attribute '") + layout::attr_schema_major + "'");
  if (*major != schema_version_major)
    ctx.fail_plain("result schema version " + version + " (major " + std::to_string(*major) +
                   ") is not supported: this ptsim reads schema " +
                   std::to_string(schema_version_major) + ".x (writes " +
                   std::to_string(schema_version_major) + "." +
                   std::to_string(schema_version_minor) + ")");
  meta.ptsim_version = required_string(layout::attr_ptsim_version);
  meta.scenario_yaml = required_string(layout::attr_scenario);
  auto seed = h5::read_uint_attr(root, layout::attr_seed, ctx);
  if (!seed) not_ptsim(std::string("no root attribute '") + layout::attr_seed + "'");
  meta.seed = *seed;
  // Provenance that a minor version may lack: defaults rather than a rejection.
  meta.scenario_name = h5::read_string_attr(root, layout::attr_scenario_name, ctx).value_or("");
  meta.host = h5::read_string_attr(root, layout::attr_host, ctx).value_or("");
  meta.start_time = h5::read_string_attr(root, layout::attr_start_time, ctx).value_or("");
  meta.wall_s = h5::read_double_attr(root, layout::attr_wall_s, ctx).value_or(0.0);
}

void result_reader::impl::read_summary() {
  if (!h5::has_link(file.get(), layout::group_summary, ctx)) return;
  h5::handle g = h5::open_group(file.get(), layout::group_summary, ctx);
  summary.throughput_units =
      h5::read_string_attr(g.get(), layout::attr_throughput_units, ctx).value_or("");
  for (const std::string& name : h5::link_names(g.get(), ctx)) {
    h5::handle ds = h5::open_dataset(g.get(), name, ctx);
    const std::vector<double> v = h5::read_doubles(ds.get(), nullptr, ctx);
    if (v.size() != 1) ctx.fail_plain("summary/" + name + " is not a single number");
    metric m;
    m.value = v[0];
    m.units = h5::read_string_attr(ds.get(), layout::attr_units, ctx).value_or("");
    m.window_s = h5::read_double_attr(ds.get(), layout::attr_window_s, ctx).value_or(m.window_s);
    summary.metrics[name] = m;
  }
}

h5::handle result_reader::impl::open_in(const char* group, const std::string& name) const {
  h5::handle g = h5::open_group(file.get(), group, ctx);
  if (!h5::has_link(g.get(), name, ctx))
    ctx.fail_plain(std::string("no '") + name + "' in group '" + group + "'");
  return h5::open_dataset(g.get(), name, ctx);
}

template <std::size_t N>
std::vector<h5::handle> result_reader::impl::open_table(
    const char* group, const std::array<layout::column_def, N>& defs, std::size_t* rows) const {
  std::vector<h5::handle> cols;
  h5::handle g = h5::open_group(file.get(), group, ctx);
  for (const auto& d : defs) cols.push_back(h5::open_dataset(g.get(), d.name, ctx));
  *rows = 0;
  for (std::size_t i = 0; i < cols.size(); ++i) {
    h5::handle space{H5Dget_space(cols[i].get()), H5Sclose};
    hsize_t n = 0;
    if (H5Sget_simple_extent_ndims(space.get()) != 1)
      ctx.fail_plain(std::string(group) + "/" + defs[i].name + " is not 1-D");
    H5Sget_simple_extent_dims(space.get(), &n, nullptr);
    if (i == 0) *rows = n;
    if (n != *rows)
      ctx.fail_plain(std::string("columns of '") + group + "' differ in length");
  }
  return cols;
}

namespace {

// The rows of a table whose columns open_table opened: each column read by its member's type
// into that member (layout::*_fields bind them).
template <typename Row, typename Fields>
std::vector<Row> read_rows(const std::vector<h5::handle>& cols, std::size_t n, const Fields& fields,
                           const h5::context& ctx) {
  std::vector<Row> rows(n);
  layout::for_each_field(fields, [&](std::size_t k, auto member) {
    using M = std::remove_reference_t<decltype(rows.front().*member)>;
    std::vector<M> column;
    if constexpr (std::is_same_v<M, double>) column = h5::read_doubles(cols[k].get(), nullptr, ctx);
    else if constexpr (std::is_same_v<M, std::int64_t>) column = h5::read_ints(cols[k].get(), ctx);
    else column = h5::read_strings(cols[k].get(), ctx);
    if (column.size() != n) ctx.fail_plain("a table column holds fewer values than its dimension");
    for (std::size_t i = 0; i < n; ++i) rows[i].*member = std::move(column[i]);
  });
  return rows;
}

}  // namespace

result_reader::result_reader(const fs::path& path) : p_(std::make_unique<impl>()) {
  h5::quiet_errors quiet;
  p_->ctx.path = path.string();
  p_->open(path);
  p_->read_metadata();
  p_->read_summary();
}

result_reader::~result_reader() {
  h5::quiet_errors quiet;
  p_.reset();
}

result_reader::result_reader(result_reader&&) noexcept = default;

const run_metadata& result_reader::metadata() const { return p_->meta; }
const run_summary& result_reader::summary() const { return p_->summary; }

std::vector<std::string> result_reader::coord(const std::string& dim) const {
  h5::quiet_errors quiet;
  h5::handle ds = p_->open_in(layout::group_timeseries, dim);
  return h5::read_strings(ds.get(), p_->ctx);
}

std::vector<double> result_reader::time() const {
  h5::quiet_errors quiet;
  h5::handle ds = p_->open_in(layout::group_timeseries, layout::time_name);
  return h5::read_doubles(ds.get(), nullptr, p_->ctx);
}

std::vector<double> result_reader::variable(const std::string& name, std::size_t* n_cols) const {
  h5::quiet_errors quiet;
  h5::handle ds = p_->open_in(layout::group_timeseries, name);
  std::vector<hsize_t> dims;
  std::vector<double> values = h5::read_doubles(ds.get(), &dims, p_->ctx);
  if (dims.size() != 2 && dims.size() != 1)
    p_->ctx.fail_plain("timeseries/" + name + " is not a (time) or (time, dim) variable");
  if (n_cols) *n_cols = dims.size() == 2 ? static_cast<std::size_t>(dims[1]) : 1;
  return values;
}

std::vector<job_row> result_reader::jobs() const {
  h5::quiet_errors quiet;
  const auto& ctx = p_->ctx;
  std::size_t n = 0;
  const auto& all = layout::job_columns;
  h5::handle g = h5::open_group(p_->file.get(), layout::group_jobs, ctx);
  if (h5::has_link(g.get(), all[layout::job_columns_in_1_4].name, ctx)) {
    auto c = p_->open_table(layout::group_jobs, all, &n);
    return read_rows<job_row>(c, n, layout::job_fields, ctx);
  }
  // Before schema 1.5 the table held finished requests only, without a state column.
  std::array<layout::column_def, layout::job_columns_in_1_4> old{};
  std::copy_n(all.begin(), old.size(), old.begin());
  auto c = p_->open_table(layout::group_jobs, old, &n);
  return read_rows<job_row>(c, n, layout::job_fields_1_4, ctx);
}

std::vector<event_row> result_reader::events() const {
  h5::quiet_errors quiet;
  const auto& ctx = p_->ctx;
  std::size_t n = 0;
  auto c = p_->open_table(layout::group_events, layout::event_columns, &n);
  return read_rows<event_row>(c, n, layout::event_fields, ctx);
}

std::vector<floorplan_row> result_reader::floorplan() const {
  h5::quiet_errors quiet;
  const auto& ctx = p_->ctx;
  std::size_t n = 0;
  auto c = p_->open_table(layout::group_floorplan, layout::floorplan_columns, &n);
  return read_rows<floorplan_row>(c, n, layout::floorplan_fields, ctx);
}

ops_table result_reader::ops() const {
  h5::quiet_errors quiet;
  const auto& ctx = p_->ctx;
  ops_table out;
  if (!h5::has_link(p_->file.get(), layout::group_ops, ctx)) return out;  // schema 1.0
  h5::handle g = h5::open_group(p_->file.get(), layout::group_ops, ctx);
  out.limit = h5::read_uint_attr(g.get(), layout::attr_ops_limit, ctx).value_or(0);
  out.dropped = h5::read_uint_attr(g.get(), layout::attr_ops_dropped, ctx).value_or(0);
  std::size_t n = 0;
  auto c = p_->open_table(layout::group_ops, layout::op_columns, &n);
  out.rows = read_rows<op_row>(c, n, layout::op_fields, ctx);
  return out;
}

namespace {

// The labels of a per-entity group (its dimension scale) and a check on the columns' length.
std::vector<std::string> labels_of(hid_t group, const char* dim, std::size_t rows,
                                   const h5::context& ctx) {
  h5::handle ds = h5::open_dataset(group, dim, ctx);
  std::vector<std::string> labels = h5::read_strings(ds.get(), ctx);
  if (labels.size() != rows)
    ctx.fail_plain(std::string("the '") + dim + "' labels and their columns differ in length");
  return labels;
}

}  // namespace

std::vector<unit_time_row> result_reader::unit_summary() const {
  h5::quiet_errors quiet;
  const auto& ctx = p_->ctx;
  if (!h5::has_link(p_->file.get(), layout::group_unit_summary, ctx)) return {};
  std::size_t n = 0;
  auto c = p_->open_table(layout::group_unit_summary, layout::unit_summary_columns, &n);
  h5::handle g = h5::open_group(p_->file.get(), layout::group_unit_summary, ctx);
  const auto unit = labels_of(g.get(), layout::unit_dim, n, ctx);
  std::vector<unit_time_row> rows(n);
  for (std::size_t i = 0; i < n; ++i) rows[i].unit = unit[i];
  for (std::size_t k = 0; k < layout::unit_summary_fields.size(); ++k) {
    const auto v = h5::read_doubles(c[k].get(), nullptr, ctx);
    for (std::size_t i = 0; i < n; ++i) rows[i].*layout::unit_summary_fields[k] = v[i];
  }
  const auto ops = h5::read_ints(c[layout::unit_summary_ops_column].get(), ctx);
  for (std::size_t i = 0; i < n; ++i) rows[i].ops = static_cast<std::uint64_t>(std::max<std::int64_t>(0, ops[i]));
  return rows;
}

std::vector<task_row> result_reader::tasks() const {
  h5::quiet_errors quiet;
  if (!h5::has_link(p_->file.get(), layout::group_tasks, p_->ctx)) return {};
  std::size_t n = 0;
  auto c = p_->open_table(layout::group_tasks, layout::task_columns, &n);
  return read_rows<task_row>(c, n, layout::task_fields, p_->ctx);
}

job_energy_table result_reader::job_energy() const {
  h5::quiet_errors quiet;
  job_energy_table t;
  if (!h5::has_link(p_->file.get(), layout::group_job_energy, p_->ctx)) return t;
  h5::handle g = h5::open_group(p_->file.get(), layout::group_job_energy, p_->ctx);
  t.ids = h5::read_ints(h5::open_dataset(g.get(), layout::jobs_dim, p_->ctx).get(), p_->ctx);
  t.components = h5::read_strings(h5::open_dataset(g.get(), layout::component_dim, p_->ctx).get(), p_->ctx);
  std::vector<hsize_t> dims;
  t.joules = h5::read_doubles(h5::open_dataset(g.get(), layout::job_energy_name, p_->ctx).get(), &dims, p_->ctx);
  if (dims.size() != 2 || dims[0] != t.ids.size() || dims[1] != t.components.size())
    p_->not_ptsim("job_energy/energy_J is not (job, component)");
  return t;
}

std::vector<task_residency_row> result_reader::task_residency() const {
  h5::quiet_errors quiet;
  if (!h5::has_link(p_->file.get(), layout::group_task_residency, p_->ctx)) return {};
  std::size_t n = 0;
  auto c = p_->open_table(layout::group_task_residency, layout::task_residency_columns, &n);
  return read_rows<task_residency_row>(c, n, layout::task_residency_fields, p_->ctx);
}

std::vector<task_run_row> result_reader::task_runs() const {
  h5::quiet_errors quiet;
  if (!h5::has_link(p_->file.get(), layout::group_task_runs, p_->ctx)) return {};
  std::size_t n = 0;
  auto c = p_->open_table(layout::group_task_runs, layout::task_run_columns, &n);
  return read_rows<task_run_row>(c, n, layout::task_run_fields, p_->ctx);
}

std::vector<domain_summary_row> result_reader::domain_summary() const {
  h5::quiet_errors quiet;
  const auto& ctx = p_->ctx;
  if (!h5::has_link(p_->file.get(), layout::group_domain_summary, ctx)) return {};
  std::size_t n = 0;
  // Schema 1.1 files have the throttled shares only; the time-lost columns came in 1.2.
  const auto& all = layout::domain_summary_columns;
  const bool costs = h5::has_link(p_->file.get(), std::string(layout::group_domain_summary) + "/" + all[3].name, ctx);
  std::vector<h5::handle> c;
  if (costs) {
    c = p_->open_table(layout::group_domain_summary, all, &n);
  } else {
    std::array<layout::column_def, layout::domain_summary_columns_in_1_1> old{};
    std::copy_n(all.begin(), old.size(), old.begin());
    c = p_->open_table(layout::group_domain_summary, old, &n);
  }
  h5::handle g = h5::open_group(p_->file.get(), layout::group_domain_summary, ctx);
  const auto domain = labels_of(g.get(), layout::domain_dim, n, ctx);
  std::vector<domain_summary_row> rows(n);  // columns a 1.1 file lacks stay 0
  for (std::size_t i = 0; i < n; ++i) rows[i].domain = domain[i];
  for (std::size_t k = 0; k < c.size(); ++k) {
    const auto v = h5::read_doubles(c[k].get(), nullptr, ctx);
    for (std::size_t i = 0; i < n; ++i) rows[i].*layout::domain_summary_fields[k] = v[i];
  }
  return rows;
}

namespace {

bool is_scale(hid_t ds, const std::string& name, const h5::context& ctx) {
  const htri_t scale = H5DSis_scale(ds);
  ctx.check_status(scale, "cannot read timeseries/" + name);
  return scale > 0;
}

// The address of an object's header: what identifies it (H5Iget_name on an object reached by
// reference would search the whole file for a path, and fail on any damage on the way).
haddr_t address_of(hid_t obj, const std::string& what, const h5::context& ctx) {
  H5O_info_t info{};
  ctx.check_status(H5Oget_info2(obj, &info, H5O_INFO_BASIC), what);
  return info.addr;
}

// The datasets whose axis 1 a dimension scale is attached to, by object address, from the
// scale's REFERENCE_LIST (object references and axes, stored in its checksummed object
// header). H5DSiterate_scales would read the datasets' DIMENSION_LIST instead: variable-length
// references in the global heap, which has no checksum and crashes HDF5 when corrupt.
std::vector<haddr_t> attached_on_axis1(hid_t scale, const std::string& name, const h5::context& ctx) {
  std::vector<haddr_t> out;
  const std::string what = "cannot read the dimensions of timeseries/" + name;
  const htri_t listed = H5Aexists(scale, "REFERENCE_LIST");
  ctx.check_status(listed, what);
  if (listed == 0) return out;
  struct entry {
    hobj_ref_t ref;
    int axis;
  };
  h5::handle attr{ctx.check(H5Aopen(scale, "REFERENCE_LIST", H5P_DEFAULT), what), H5Aclose};
  h5::handle ftype{ctx.check(H5Aget_type(attr.get()), what), H5Tclose};
  if (H5Tget_class(ftype.get()) != H5T_COMPOUND || H5Tget_member_index(ftype.get(), "dataset") < 0 ||
      H5Tget_member_index(ftype.get(), "dimension") < 0)
    ctx.fail_plain(what + ": its REFERENCE_LIST is not a dimension scale's");
  h5::handle mt{ctx.check(H5Tcreate(H5T_COMPOUND, sizeof(entry)), what), H5Tclose};
  ctx.check_status(H5Tinsert(mt.get(), "dataset", HOFFSET(entry, ref), H5T_STD_REF_OBJ), what);
  ctx.check_status(H5Tinsert(mt.get(), "dimension", HOFFSET(entry, axis), H5T_NATIVE_INT), what);
  h5::handle space{ctx.check(H5Aget_space(attr.get()), what), H5Sclose};
  const hssize_t n = H5Sget_simple_extent_npoints(space.get());
  if (n < 0) ctx.fail(what);
  std::vector<entry> entries(static_cast<std::size_t>(n));
  if (n > 0) ctx.check_status(H5Aread(attr.get(), mt.get(), entries.data()), what);
  for (const entry& e : entries) {
    if (e.axis != 1) continue;
    h5::handle o{ctx.check(H5Rdereference2(scale, H5P_DEFAULT, H5R_OBJECT, &e.ref), what), H5Oclose};
    out.push_back(address_of(o.get(), what, ctx));
  }
  return out;
}

}  // namespace

timeseries_layout result_reader::layout() const {
  h5::quiet_errors quiet;
  const auto& ctx = p_->ctx;
  timeseries_layout out;
  h5::handle g = h5::open_group(p_->file.get(), layout::group_timeseries, ctx);
  std::map<haddr_t, std::string> dim_of;  // a 2-D variable's address -> the scale on its axis 1
  for (const std::string& name : h5::link_names(g.get(), ctx)) {
    if (name == layout::time_name) continue;
    h5::handle ds = h5::open_dataset(g.get(), name, ctx);
    if (is_scale(ds.get(), name, ctx))
      for (haddr_t v : attached_on_axis1(ds.get(), name, ctx)) dim_of[v] = name;
  }
  for (const std::string& name : h5::link_names(g.get(), ctx)) {
    if (name == layout::time_name) continue;
    h5::handle ds = h5::open_dataset(g.get(), name, ctx);
    if (is_scale(ds.get(), name, ctx)) {
      out.coords[name] = h5::read_strings(ds.get(), ctx);
      continue;
    }
    ts_variable v;
    v.name = name;
    v.units = h5::read_string_attr(ds.get(), layout::attr_units, ctx).value_or("");
    v.long_name = h5::read_string_attr(ds.get(), layout::attr_long_name, ctx).value_or("");
    h5::handle space(H5Dget_space(ds.get()), H5Sclose);
    if (H5Sget_simple_extent_ndims(space.get()) == 2) {
      const auto it = dim_of.find(address_of(ds.get(), "cannot read timeseries/" + name, ctx));
      if (it != dim_of.end()) v.dim = it->second;
    }
    out.variables.push_back(std::move(v));
  }
  H5Eclear2(H5E_DEFAULT);
  return out;
}

double result_reader::record_period_s() const {
  h5::quiet_errors quiet;
  h5::handle g = h5::open_group(p_->file.get(), layout::group_timeseries, p_->ctx);
  return h5::read_double_attr(g.get(), layout::attr_record_period_s, p_->ctx).value_or(0.0);
}

}  // namespace ptsim::postproc
