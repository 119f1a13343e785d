// result_writer: streams a run into "<final>.part" and renames it when complete.
#include <hdf5_hl.h>

#include <algorithm>
#include <optional>
#include <set>
#include <stdexcept>
#include <system_error>

#include "h5_error.hpp"
#include "h5_handle.hpp"
#include "h5_io.hpp"
#include "layout.hpp"
#include "ptsim/postproc/result_file.hpp"
#include "table_columns.hpp"

namespace ptsim::postproc {

namespace fs = std::filesystem;
using layout::column_def;

namespace {

// One group holding one extendible 1-D dataset per column.
struct table {
  h5::handle group;
  std::vector<h5::handle> columns;

  template <std::size_t N>
  void create(hid_t parent, const char* name, const std::array<column_def, N>& defs,
              const h5::context& ctx) {
    group = h5::create_group(parent, name, ctx);
    for (const column_def& d : defs) {
      h5::extendible_spec spec;
      spec.type = d.type;
      spec.chunk_rows = layout::table_chunk_rows;
      columns.push_back(h5::create_extendible(group.get(), d.name, spec, ctx));
      if (d.units) h5::write_attr(columns.back().get(), layout::attr_units, d.units, ctx);
      h5::write_attr(columns.back().get(), layout::attr_long_name, d.long_name, ctx);
    }
  }

  void append(std::size_t col, const std::vector<double>& v, const h5::context& ctx) {
    h5::append_rows(columns[col].get(), h5::column_type::f64, v.data(), v.size(), ctx);
  }
  void append(std::size_t col, const std::vector<std::int64_t>& v, const h5::context& ctx) {
    h5::append_rows(columns[col].get(), h5::column_type::i64, v.data(), v.size(), ctx);
  }
  void append(std::size_t col, const std::vector<std::string>& v, const h5::context& ctx) {
    h5::append_strings(columns[col].get(), v, ctx);
  }

  void close() {
    columns.clear();
    group.reset();
  }
};

// Gathers one member of every row into a column vector.
template <typename Row, typename Member>
auto column_of(const std::vector<Row>& rows, Member Row::*m) {
  std::vector<Member> out;
  out.reserve(rows.size());
  for (const Row& r : rows) out.push_back(r.*m);
  return out;
}

// Checks the layout before anything touches the disk, so a bad layout leaves no file.
void check_layout(const timeseries_layout& layout, const h5::context& ctx) {
  std::set<std::string> names{layout::time_name};
  auto check_name = [&](const std::string& name, const char* what) {
    if (name.empty() || name.find('/') != std::string::npos || name == ".")
      ctx.fail_plain(std::string("invalid ") + what + " name '" + name + "'");
    if (!names.insert(name).second)
      ctx.fail_plain(std::string(what) + " name '" + name +
                     "' is already used by time, a coordinate or another variable");
  };
  for (const auto& [dim, labels] : layout.coords) check_name(dim, "coordinate");
  for (const ts_variable& v : layout.variables) {
    check_name(v.name, "variable");
    if (layout.coords.count(v.dim) == 0)
      ctx.fail_plain("variable '" + v.name + "' spans unknown coordinate '" + v.dim + "'");
  }
}

}  // namespace

struct result_writer::impl {
  fs::path final_path;
  fs::path part_path;
  h5::context ctx;
  h5::handle file;

  h5::handle ts_group;
  h5::handle time_ds;
  std::vector<h5::handle> coord_ds;
  struct variable {
    h5::handle ds;
    std::size_t n_cols = 0;
    std::vector<double> buf;  ///< rows not yet written, row-major
  };
  std::vector<variable> vars;
  std::vector<double> time_buf;

  table jobs, events, floorplan;
  std::vector<job_row> pending_jobs;
  std::vector<event_row> pending_events;
  std::vector<floorplan_row> floorplan_rows;
  std::optional<run_summary> summary;
  h5::handle summary_group;
  bool committed = false;

  ~impl() {
    if (!committed) abandon();
  }

  void require_open() const {
    if (committed || !file.valid())
      throw std::logic_error(final_path.string() + ": result file already committed");
  }

  void create(const run_metadata& meta, const timeseries_layout& layout, double record_period_s);
  void write_root_attrs(const run_metadata& meta);
  void create_timeseries(const timeseries_layout& layout, double record_period_s);
  void flush_timeseries();
  void flush_jobs();
  void flush_events();
  void write_floorplan();
  void write_summary();
  void close_objects();
  void abandon() noexcept;
};

void result_writer::impl::create(const run_metadata& meta, const timeseries_layout& layout,
                                 double record_period_s) {
  check_layout(layout, ctx);
  // A .part left by a crashed run is stale by definition: replace it, then create exclusively.
  std::error_code ec;
  fs::remove(part_path, ec);
  if (ec) ctx.fail_plain("cannot remove stale file: " + ec.message());

  h5::handle fcpl{ctx.check(H5Pcreate(H5P_FILE_CREATE), "cannot create file properties"),
                  H5Pclose};
  const unsigned order = H5P_CRT_ORDER_TRACKED | H5P_CRT_ORDER_INDEXED;
  ctx.check_status(H5Pset_link_creation_order(fcpl.get(), order), "cannot set file properties");
  ctx.check_status(H5Pset_attr_creation_order(fcpl.get(), order), "cannot set file properties");
  file = h5::handle{ctx.check(H5Fcreate(part_path.c_str(), H5F_ACC_EXCL, fcpl.get(), H5P_DEFAULT),
                              "cannot create result file"),
                    H5Fclose};

  write_root_attrs(meta);
  create_timeseries(layout, record_period_s);
  jobs.create(file.get(), layout::group_jobs, layout::job_columns, ctx);
  events.create(file.get(), layout::group_events, layout::event_columns, ctx);
  floorplan.create(file.get(), layout::group_floorplan, layout::floorplan_columns, ctx);
  summary_group = h5::create_group(file.get(), layout::group_summary, ctx);
  pending_jobs.reserve(layout::table_chunk_rows);
  pending_events.reserve(layout::table_chunk_rows);
}

void result_writer::impl::write_root_attrs(const run_metadata& meta) {
  const hid_t root = file.get();
  h5::write_attr(root, layout::attr_ptsim_version, meta.ptsim_version, ctx);
  h5::write_attr(root, layout::attr_schema_version,
                 std::to_string(schema_version_major) + "." + std::to_string(schema_version_minor),
                 ctx);
  h5::write_attr(root, layout::attr_schema_major, std::int64_t{schema_version_major}, ctx);
  h5::write_attr(root, layout::attr_schema_minor, std::int64_t{schema_version_minor}, ctx);
  h5::write_attr(root, layout::attr_scenario, meta.scenario_yaml, ctx);
  h5::write_attr(root, layout::attr_scenario_name, meta.scenario_name, ctx);
  h5::write_attr(root, layout::attr_seed, meta.seed, ctx);
  h5::write_attr(root, layout::attr_host, meta.host, ctx);
  h5::write_attr(root, layout::attr_start_time, meta.start_time, ctx);
}

void result_writer::impl::create_timeseries(const timeseries_layout& layout,
                                            double record_period_s) {
  ts_group = h5::create_group(file.get(), layout::group_timeseries, ctx);
  h5::write_attr(ts_group.get(), layout::attr_record_period_s, record_period_s, ctx);

  h5::extendible_spec time_spec;
  time_spec.chunk_rows = layout::timeseries_chunk_rows;
  time_ds = h5::create_extendible(ts_group.get(), layout::time_name, time_spec, ctx);
  h5::write_attr(time_ds.get(), layout::attr_units, layout::seconds, ctx);
  h5::write_attr(time_ds.get(), layout::attr_long_name, "simulated time", ctx);
  // Dimension scales are what h5netcdf (and so xarray) turns into named dimensions.
  ctx.check_status(H5DSset_scale(time_ds.get(), layout::time_name), "cannot make 'time' a scale");

  std::map<std::string, hid_t> scale_of;
  for (const auto& [dim, labels] : layout.coords) {
    coord_ds.push_back(h5::create_string_dataset(ts_group.get(), dim, labels, ctx));
    h5::write_attr(coord_ds.back().get(), layout::attr_long_name, dim + " name", ctx);
    ctx.check_status(H5DSset_scale(coord_ds.back().get(), dim.c_str()),
                     "cannot make '" + dim + "' a scale");
    scale_of[dim] = coord_ds.back().get();
  }

  for (const ts_variable& v : layout.variables) {
    variable var;
    var.n_cols = layout.coords.at(v.dim).size();
    h5::extendible_spec spec;
    spec.n_cols = var.n_cols;
    spec.chunk_rows = layout::timeseries_chunk_rows;
    var.ds = h5::create_extendible(ts_group.get(), v.name, spec, ctx);
    h5::write_attr(var.ds.get(), layout::attr_units, v.units, ctx);
    h5::write_attr(var.ds.get(), layout::attr_long_name, v.long_name, ctx);
    ctx.check_status(H5DSattach_scale(var.ds.get(), time_ds.get(), 0),
                     "cannot attach 'time' to '" + v.name + "'");
    ctx.check_status(H5DSattach_scale(var.ds.get(), scale_of.at(v.dim), 1),
                     "cannot attach '" + v.dim + "' to '" + v.name + "'");
    var.buf.reserve(layout::timeseries_chunk_rows * var.n_cols);
    vars.push_back(std::move(var));
  }
  time_buf.reserve(layout::timeseries_chunk_rows);
}

void result_writer::impl::flush_timeseries() {
  if (time_buf.empty()) return;
  h5::append_rows(time_ds.get(), h5::column_type::f64, time_buf.data(), time_buf.size(), ctx);
  for (variable& v : vars) {
    h5::append_rows(v.ds.get(), h5::column_type::f64, v.buf.data(), time_buf.size(), ctx);
    v.buf.clear();
  }
  time_buf.clear();
}

void result_writer::impl::flush_jobs() {
  if (pending_jobs.empty()) return;
  const auto& r = pending_jobs;
  jobs.append(0, column_of(r, &job_row::id), ctx);
  jobs.append(1, column_of(r, &job_row::stream), ctx);
  jobs.append(2, column_of(r, &job_row::unit), ctx);
  jobs.append(3, column_of(r, &job_row::arrival_s), ctx);
  jobs.append(4, column_of(r, &job_row::start_s), ctx);
  jobs.append(5, column_of(r, &job_row::finish_s), ctx);
  jobs.append(6, column_of(r, &job_row::latency_s), ctx);
  jobs.append(7, column_of(r, &job_row::energy_J), ctx);
  pending_jobs.clear();
}

void result_writer::impl::flush_events() {
  if (pending_events.empty()) return;
  const auto& r = pending_events;
  events.append(0, column_of(r, &event_row::time_s), ctx);
  events.append(1, column_of(r, &event_row::kind), ctx);
  events.append(2, column_of(r, &event_row::source), ctx);
  events.append(3, column_of(r, &event_row::message), ctx);
  events.append(4, column_of(r, &event_row::value), ctx);
  pending_events.clear();
}

void result_writer::impl::write_floorplan() {
  const auto& r = floorplan_rows;
  floorplan.append(0, column_of(r, &floorplan_row::name), ctx);
  floorplan.append(1, column_of(r, &floorplan_row::x_m), ctx);
  floorplan.append(2, column_of(r, &floorplan_row::y_m), ctx);
  floorplan.append(3, column_of(r, &floorplan_row::width_m), ctx);
  floorplan.append(4, column_of(r, &floorplan_row::height_m), ctx);
}

void result_writer::impl::write_summary() {
  const hid_t g = summary_group.get();
  const std::string tp_units = summary ? summary->throughput_units : std::string();
  h5::write_attr(g, layout::attr_throughput_units, tp_units, ctx);
  if (!summary) return;
  for (const auto& [name, m] : summary->metrics) {
    if (name.empty() || name.find('/') != std::string::npos)
      ctx.fail_plain("invalid summary metric name '" + name + "'");
    h5::handle ds = h5::create_scalar(g, name, m.value, ctx);
    const bool throughput = name == layout::throughput_metric;
    // throughput's unit is the throughput_units string when the metric itself has none.
    const std::string units = throughput && m.units.empty() ? tp_units : m.units;
    h5::write_attr(ds.get(), layout::attr_units, units, ctx);
    if (throughput) h5::write_attr(ds.get(), layout::attr_throughput_units, tp_units, ctx);
  }
}

void result_writer::impl::close_objects() {
  vars.clear();
  coord_ds.clear();
  time_ds.reset();
  ts_group.reset();
  jobs.close();
  events.close();
  floorplan.close();
  summary_group.reset();
}

void result_writer::impl::abandon() noexcept {
  h5::quiet_errors quiet;
  close_objects();
  file.reset();
  std::error_code ec;
  fs::remove(part_path, ec);
}

result_writer::result_writer(fs::path final_path, const run_metadata& meta,
                             const timeseries_layout& layout, double record_period_s)
    : p_(std::make_unique<impl>()) {
  h5::quiet_errors quiet;
  p_->final_path = std::move(final_path);
  p_->part_path = p_->final_path;
  p_->part_path += ".part";
  p_->ctx.path = p_->part_path.string();
  p_->create(meta, layout, record_period_s);  // on throw, ~impl removes what was created
}

result_writer::~result_writer() = default;

void result_writer::append_sample(double time_s, const std::vector<const double*>& values) {
  impl& w = *p_;
  w.require_open();
  if (values.size() != w.vars.size())
    throw std::invalid_argument(w.final_path.string() + ": append_sample got " +
                                std::to_string(values.size()) + " variables, layout has " +
                                std::to_string(w.vars.size()));
  w.time_buf.push_back(time_s);
  for (std::size_t i = 0; i < values.size(); ++i) {
    auto& v = w.vars[i];
    if (v.n_cols > 0) v.buf.insert(v.buf.end(), values[i], values[i] + v.n_cols);
  }
  if (w.time_buf.size() >= layout::timeseries_chunk_rows) {
    h5::quiet_errors quiet;
    w.flush_timeseries();
  }
}

void result_writer::add_job(const job_row& row) {
  p_->require_open();
  p_->pending_jobs.push_back(row);
  if (p_->pending_jobs.size() >= layout::table_chunk_rows) {
    h5::quiet_errors quiet;
    p_->flush_jobs();
  }
}

void result_writer::add_event(const event_row& row) {
  p_->require_open();
  p_->pending_events.push_back(row);
  if (p_->pending_events.size() >= layout::table_chunk_rows) {
    h5::quiet_errors quiet;
    p_->flush_events();
  }
}

void result_writer::set_floorplan(const std::vector<floorplan_row>& rows) {
  p_->require_open();
  p_->floorplan_rows = rows;
}

void result_writer::set_summary(const run_summary& s) {
  p_->require_open();
  p_->summary = s;
}

void result_writer::commit(double wall_s) {
  impl& w = *p_;
  w.require_open();
  h5::quiet_errors quiet;
  w.flush_timeseries();
  w.flush_jobs();
  w.flush_events();
  w.write_floorplan();
  w.write_summary();
  h5::write_attr(w.file.get(), layout::attr_wall_s, wall_s, w.ctx);
  w.close_objects();
  w.ctx.check_status(H5Fflush(w.file.get(), H5F_SCOPE_GLOBAL), "cannot flush result file");
  w.ctx.check_status(w.file.close(), "cannot close result file");
  std::error_code ec;
  fs::rename(w.part_path, w.final_path, ec);
  if (ec)
    w.ctx.fail_plain("cannot rename to " + w.final_path.string() + ": " + ec.message());
  w.committed = true;
}

const fs::path& result_writer::final_path() const { return p_->final_path; }

}  // namespace ptsim::postproc
