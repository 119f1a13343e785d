// result_writer: streams a run into "<final>.part" and renames it when complete.
#include <hdf5_hl.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <optional>
#include <memory>
#include <mutex>
#include <set>
#include <unordered_map>
#include <stdexcept>
#include <system_error>

#include "background_jobs.hpp"
#include "chunk_codec.hpp"
#include "h5_error.hpp"
#include "h5_handle.hpp"
#include "h5_io.hpp"
#include "label_column.hpp"
#include "layout.hpp"
#include "ptsim/postproc/result_file.hpp"

#include "ptsim/postproc/metric_catalogue.hpp"
#include "table_columns.hpp"

namespace ptsim::postproc {

namespace fs = std::filesystem;
using layout::column_def;

namespace {

// Interned labels: each distinct string gets an id; `fresh` hands out the ones added since
// its last call (label_column takes labels that way).
struct label_ids {
  std::vector<std::string> labels;
  std::unordered_map<std::string, std::uint32_t> index;
  std::size_t sent = 0;

  std::uint32_t id(const std::string& text) {
    auto [it, added] = index.emplace(text, static_cast<std::uint32_t>(labels.size()));
    if (added) labels.push_back(text);
    return it->second;
  }
  std::vector<std::string> fresh() {
    std::vector<std::string> out(labels.begin() + static_cast<std::ptrdiff_t>(sent), labels.end());
    sent = labels.size();
    return out;
  }
};

// One group holding one 1-D dataset per column over a bare row dimension (jobs, events):
// number columns are extendible datasets appended as rows come; string columns are
// fixed-length label columns (label_column) whose chunks the background thread builds from
// interned ids, and which are stored when the file is committed (their width is known then).
struct table {
  h5::handle group;
  h5::handle scale;
  std::vector<const column_def*> defs;
  std::vector<h5::handle> columns;                     ///< numbers; empty for strings until written
  std::vector<std::unique_ptr<label_column>> labels;   ///< strings; null for numbers
  std::vector<std::vector<std::uint32_t>> staged_ids;  ///< strings since the last post
  label_ids ids;
  hsize_t rows = 0;

  template <std::size_t N>
  void create(hid_t parent, const char* name, const char* dim,
              const std::array<column_def, N>& cols, const h5::context& ctx) {
    group = h5::create_group(parent, name, ctx);
    scale = h5::create_dimension_only(group.get(), dim, ctx);
    std::vector<hid_t> numbers;
    for (const column_def& d : cols) {
      defs.push_back(&d);
      staged_ids.emplace_back();
      if (d.type == h5::column_type::str) {
        columns.emplace_back();
        labels.push_back(std::make_unique<label_column>(layout::table_chunk_rows));
        continue;
      }
      labels.emplace_back();
      h5::extendible_spec spec;
      spec.type = d.type;
      spec.chunk_rows = layout::table_chunk_rows;
      columns.push_back(h5::create_extendible(group.get(), d.name, spec, ctx));
      if (d.units) h5::write_attr(columns.back().get(), layout::attr_units, d.units, ctx);
      h5::write_attr(columns.back().get(), layout::attr_long_name, d.long_name, ctx);
      numbers.push_back(columns.back().get());
    }
    h5::attach_scale(scale.get(), numbers, ctx);
  }

  // The bare row dimension follows the columns' length.
  void grow(std::size_t n, const h5::context& ctx) {
    rows += n;
    h5::set_rows(scale.get(), rows, ctx);
  }

  void append(std::size_t col, const std::vector<double>& v, const h5::context& ctx) {
    h5::append_rows(columns[col].get(), h5::column_type::f64, v.data(), v.size(), ctx);
  }
  void append(std::size_t col, const std::vector<std::int64_t>& v, const h5::context& ctx) {
    h5::append_rows(columns[col].get(), h5::column_type::i64, v.data(), v.size(), ctx);
  }
  void append(std::size_t col, const std::vector<std::string>& v, const h5::context&) {
    for (const std::string& text : v) staged_ids[col].push_back(ids.id(text));
  }

  // Hands the staged string rows (and labels new since the last call) to the background
  // thread, which builds the label columns' finished chunks (all of them with `last`).
  void post_labels(background_jobs& bg, chunk_compressor& c, bool last) {
    struct batch {
      std::vector<std::string> new_labels;
      std::vector<std::vector<std::uint32_t>> ids;
    };
    auto b = std::make_shared<batch>();
    b->new_labels = ids.fresh();
    b->ids.resize(staged_ids.size());
    for (std::size_t k = 0; k < staged_ids.size(); ++k) std::swap(b->ids[k], staged_ids[k]);
    bg.post([this, b, last, &c] {
      for (std::size_t k = 0; k < labels.size(); ++k)
        if (labels[k]) labels[k]->add(b->new_labels, b->ids[k], last, c);
    });
  }

  // At commit, after the background thread has drained: stores the label columns.
  void write_labels(const h5::context& ctx) {
    std::vector<hid_t> ids_out;
    for (std::size_t k = 0; k < labels.size(); ++k) {
      if (!labels[k]) continue;
      columns[k] = labels[k]->write(group.get(), defs[k]->name, ctx);
      h5::write_attr(columns[k].get(), layout::attr_long_name, defs[k]->long_name, ctx);
      ids_out.push_back(columns[k].get());
    }
    h5::attach_scale(scale.get(), ids_out, ctx);
  }

  void close() {
    columns.clear();
    scale.reset();
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
    if (!v.dim.empty() && layout.coords.count(v.dim) == 0)
      ctx.fail_plain("variable '" + v.name + "' spans unknown coordinate '" + v.dim + "'");
  }
}

// Copies `cols` adjacent values from each of `n` rows `stride` apart into `out`, row after
// row. A copy of a known size compiles to a few moves: the background thread gathered each
// sample's few values through a memcpy call before.
template <std::size_t Cols>
void gather_fixed(const double* in, std::size_t n, std::size_t stride, double* out) {
  for (std::size_t i = 0; i < n; ++i, in += stride, out += Cols) std::memcpy(out, in, Cols * sizeof(double));
}

void gather_columns(const double* in, std::size_t n, std::size_t stride, std::size_t cols, double* out) {
  switch (cols) {
    case 1: return gather_fixed<1>(in, n, stride, out);
    case 2: return gather_fixed<2>(in, n, stride, out);
    case 3: return gather_fixed<3>(in, n, stride, out);
    case 4: return gather_fixed<4>(in, n, stride, out);
    case 5: return gather_fixed<5>(in, n, stride, out);
    case 6: return gather_fixed<6>(in, n, stride, out);
    case 7: return gather_fixed<7>(in, n, stride, out);
    case 8: return gather_fixed<8>(in, n, stride, out);
    default:
      for (std::size_t i = 0; i < n; ++i, in += stride, out += cols) std::memcpy(out, in, cols * sizeof(double));
  }
}

}  // namespace

struct result_writer::impl {
  fs::path final_path;
  fs::path part_path;
  std::optional<output_file> out;  ///< the claim on part_path; publishes the file
  h5::context ctx;
  h5::handle file;

  h5::handle ts_group;
  h5::handle time_ds;
  std::vector<h5::handle> coord_ds;
  struct variable {
    h5::handle ds;
    std::size_t n_cols = 0;
    std::size_t offset = 0;  ///< its first value's place in a staged row
    steady_chunk steady;     ///< used by the background thread only
  };
  std::vector<variable> vars;
  // Samples are staged row-major, [time, variable 0's values, variable 1's, ...], so that a
  // sample costs the simulation a few stores; the background thread gathers each dataset's
  // columns from a full block of rows. Blocks it has finished with come back as spares.
  hsize_t chunk_rows = layout::timeseries_chunk_rows;  ///< rows of a timeseries chunk
  std::size_t row_width = 1;
  using rows_buffer = std::vector<double, uninitialized_allocator<double>>;
  rows_buffer staged;
  std::size_t staged_rows = 0;
  std::mutex spare_m;
  std::vector<rows_buffer> spare;
  rows_buffer gathered;  ///< one dataset's chunk rows; the background thread's

  table jobs, events;
  std::vector<job_row> pending_jobs;
  std::vector<event_row> pending_events;
  std::vector<floorplan_row> floorplan_rows;
  std::optional<run_summary> summary;
  h5::handle summary_group;
  // Operators: labels interned (a few ids per operator, not strings) and written when the
  // file is committed; times streamed to the background thread a chunk at a time.
  h5::handle ops_group, ops_dim, ops_start, ops_end;
  // Rows since the last flush (unit, name, bound ids; times), and how many rows and labels
  // have gone to the background thread.
  std::vector<std::uint32_t> op_unit, op_name, op_bound;
  std::vector<double> op_start_buf, op_end_buf;
  std::uint64_t ops_stored = 0;
  std::size_t labels_sent = 0;
  // The label columns, built on the background thread (touched here only after a drain).
  label_column op_unit_col{layout::table_chunk_rows}, op_name_col{layout::table_chunk_rows},
      op_bound_col{layout::table_chunk_rows};
  std::vector<std::string> op_labels;
  std::unordered_map<std::string, std::uint32_t> op_label_ids;
  std::uint64_t ops_limit = default_ops_limit, ops_dropped = 0;
  // Compresses and writes full timeseries and operator-time chunks while the simulation goes
  // on (only the background thread uses the compressor). Declared last, so that it stops
  // before the handles it writes through are closed.
  chunk_compressor compressor{layout::deflate_level};
  std::unique_ptr<background_jobs> background;
  std::optional<std::vector<unit_time_row>> unit_rows;
  std::optional<std::vector<domain_summary_row>> domain_rows;
  // job_energy: its columns, the rows not yet written (a chunk at most), and its datasets
  // once the first rows are.
  std::vector<std::string> job_energy_components;
  std::vector<std::int64_t> pending_energy_ids;
  std::vector<double> pending_energy_J;
  h5::handle job_energy_group, job_energy_ids, job_energy_values;
  std::vector<task_row> task_rows;
  std::vector<task_residency_row> task_residency_rows;
  std::vector<task_run_row> task_run_rows;
  bool committed = false;

  ~impl() {
    background.reset();
    if (!committed) abandon();
  }

  std::uint32_t label_id(const std::string& text) {
    auto [it, added] = op_label_ids.emplace(text, static_cast<std::uint32_t>(op_labels.size()));
    if (added) op_labels.push_back(text);
    return it->second;
  }

  // The next staged row, its time set; row_staged() counts it once its values are in.
  double* stage_row(double time_s) {
    double* row = staged.data() + staged_rows * row_width;
    row[0] = time_s;
    return row;
  }
  void row_staged() {
    if (++staged_rows == chunk_rows) flush_timeseries();
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
  void create_ops();
  void flush_ops(bool last);
  void write_ops();
  void write_unit_summary();
  void write_domain_summary();
  void write_tasks();
  void create_job_energy(hsize_t chunk_rows);
  void flush_job_energy();
  void close_objects();
  void abandon() noexcept;
};

void result_writer::impl::create(const run_metadata& meta, const timeseries_layout& layout,
                                 double record_period_s) {
  check_layout(layout, ctx);
  // part_path is this writer's own (the claim in `out` holds it): create the file over it.

  const h5::handle fcpl = h5::file_create_properties(ctx);
  const h5::handle fapl = h5::file_access_properties(ctx);
  file = h5::handle{ctx.check(H5Fcreate(part_path.c_str(), H5F_ACC_TRUNC, fcpl.get(), fapl.get()),
                              "cannot create result file"),
                    H5Fclose};

  write_root_attrs(meta);
  create_timeseries(layout, record_period_s);
  jobs.create(file.get(), layout::group_jobs, layout::jobs_dim, layout::job_columns, ctx);
  events.create(file.get(), layout::group_events, layout::events_dim, layout::event_columns, ctx);
  create_ops();
  summary_group = h5::create_group(file.get(), layout::group_summary, ctx);
  pending_jobs.reserve(layout::table_chunk_rows);
  pending_events.reserve(layout::table_chunk_rows);
  // The background thread calls HDF5 while this one may too (jobs, events): only a
  // thread-safe HDF5 (Debian's is) allows that; with another, the writes run in line.
  hbool_t threadsafe = 0;
  H5is_library_threadsafe(&threadsafe);
  background = std::make_unique<background_jobs>(layout::timeseries_chunks_in_flight, threadsafe > 0);
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

  // Whole chunks are compressed on the background thread and stored as they come
  // (h5::append_chunks), never through HDF5's filters, so the datasets need no chunk cache.
  h5::extendible_spec time_spec;
  if (layout.expected_samples > 0) {
    chunk_rows = layout::timeseries_min_chunk_rows;
    while (chunk_rows < layout.expected_samples && chunk_rows < layout::timeseries_chunk_rows) chunk_rows *= 2;
  }
  time_spec.chunk_rows = chunk_rows;
  time_spec.chunk_cache = false;
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
    // A variable over time alone is 1-D: one value per sample.
    var.n_cols = v.dim.empty() ? 1 : layout.coords.at(v.dim).size();
    h5::extendible_spec spec;
    spec.n_cols = v.dim.empty() ? 0 : var.n_cols;
    spec.chunk_rows = chunk_rows;
    spec.chunk_cache = false;
    var.ds = h5::create_extendible(ts_group.get(), v.name, spec, ctx);
    h5::write_attr(var.ds.get(), layout::attr_units, v.units, ctx);
    h5::write_attr(var.ds.get(), layout::attr_long_name, v.long_name, ctx);
    ctx.check_status(H5DSattach_scale(var.ds.get(), time_ds.get(), 0),
                     "cannot attach 'time' to '" + v.name + "'");
    if (!v.dim.empty())
      ctx.check_status(H5DSattach_scale(var.ds.get(), scale_of.at(v.dim), 1),
                       "cannot attach '" + v.dim + "' to '" + v.name + "'");
    var.offset = row_width;
    row_width += var.n_cols;
    vars.push_back(std::move(var));
  }
  staged.resize(chunk_rows * row_width);
}

void result_writer::impl::flush_timeseries() {
  if (staged_rows == 0) return;
  auto rows = std::make_shared<rows_buffer>();
  std::swap(*rows, staged);
  {
    std::lock_guard<std::mutex> lock(spare_m);
    if (!spare.empty()) std::swap(staged, spare.back()), spare.pop_back();
  }
  staged.resize(chunk_rows * row_width);
  const std::size_t n = staged_rows;
  staged_rows = 0;
  background->post([this, rows, n] {
    const auto gather = [&](std::size_t offset, std::size_t cols) {
      gathered.resize(n * cols);
      gather_columns(rows->data() + offset, n, row_width, cols, gathered.data());
      return gathered.data();
    };
    const hsize_t chunk = chunk_rows;
    h5::append_chunks(time_ds.get(), gather(0, 1), n, chunk, compressor, ctx);
    for (variable& v : vars)
      h5::append_chunks(v.ds.get(), gather(v.offset, v.n_cols), n, chunk, compressor, ctx, &v.steady);
    std::lock_guard<std::mutex> lock(spare_m);
    spare.push_back(std::move(*rows));
  });
}

void result_writer::impl::flush_jobs() {
  if (pending_jobs.empty()) return;
  const auto& r = pending_jobs;
  layout::for_each_field(layout::job_fields, [&](std::size_t k, auto member) { jobs.append(k, column_of(r, member), ctx); });
  jobs.grow(r.size(), ctx);
  jobs.post_labels(*background, compressor, false);
  pending_jobs.clear();
}

void result_writer::impl::flush_events() {
  if (pending_events.empty()) return;
  const auto& r = pending_events;
  layout::for_each_field(layout::event_fields,
                         [&](std::size_t k, auto member) { events.append(k, column_of(r, member), ctx); });
  events.grow(r.size(), ctx);
  events.post_labels(*background, compressor, false);
  pending_events.clear();
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
    // The catalogue travels with the file, so readers need no copy of it.
    if (const auto d = meaning_of(name)) {
      h5::write_attr(ds.get(), layout::attr_better, std::string(better_name(d->direction)), ctx);
      h5::write_attr(ds.get(), layout::attr_long_name, std::string(d->description), ctx);
    }
    if (std::isfinite(m.window_s)) h5::write_attr(ds.get(), layout::attr_window_s, m.window_s, ctx);
  }
}

namespace {

// A group of equally long columns over one labelled dimension (units, domains), written once.
struct labelled_group {
  h5::handle group, scale;
  std::vector<h5::handle> columns;

  labelled_group(hid_t parent, const char* name, const char* dim,
                 const std::vector<std::string>& labels, const h5::context& ctx) {
    group = h5::create_group(parent, name, ctx);
    scale = h5::create_string_dataset(group.get(), dim, labels, ctx);
    h5::write_attr(scale.get(), layout::attr_long_name, std::string(dim) + " name", ctx);
  }
  template <typename T>
  void add(const column_def& d, const std::vector<T>& v, const h5::context& ctx) {
    columns.push_back(h5::create_column(group.get(), d.name, d.type, v.data(), v.size(),
                                        layout::table_chunk_rows, ctx));
    if (d.units) h5::write_attr(columns.back().get(), layout::attr_units, d.units, ctx);
    h5::write_attr(columns.back().get(), layout::attr_long_name, d.long_name, ctx);
    if (const auto b = column_direction(d.name))
      h5::write_attr(columns.back().get(), layout::attr_better, std::string(better_name(*b)), ctx);
  }
  void add(const column_def& d, const std::vector<std::string>& v, const h5::context& ctx) {
    columns.push_back(h5::create_string_dataset(group.get(), d.name, v, ctx));
    h5::write_attr(columns.back().get(), layout::attr_long_name, d.long_name, ctx);
  }
  void attach(const char* dim, const h5::context& ctx) {
    std::vector<hid_t> ids;
    for (const auto& c : columns) ids.push_back(c.get());
    h5::attach_row_scale(scale.get(), dim, ids, ctx);
  }
};

}  // namespace

// The floorplan's blocks: labelled by name (the `block` scale), and their name, x, y, width
// and height as columns.
void result_writer::impl::write_floorplan() {
  const auto& r = floorplan_rows;
  const auto& c = layout::floorplan_columns;
  const std::vector<std::string> names = column_of(r, &floorplan_row::name);
  labelled_group g(file.get(), layout::group_floorplan, layout::floorplan_dim, names, ctx);
  layout::for_each_field(layout::floorplan_fields, [&](std::size_t k, auto member) { g.add(c[k], column_of(r, member), ctx); });
  g.attach(layout::floorplan_dim, ctx);
}

void result_writer::impl::create_ops() {
  const auto& c = layout::op_columns;
  ops_group = h5::create_group(file.get(), layout::group_ops, ctx);
  ops_dim = h5::create_dimension_only(ops_group.get(), layout::ops_dim, ctx);
  h5::extendible_spec spec;
  spec.chunk_rows = layout::table_chunk_rows;
  spec.chunk_cache = false;  // stored whole by the background thread (h5::append_chunks)
  ops_start = h5::create_extendible(ops_group.get(), c[layout::op_start].name, spec, ctx);
  ops_end = h5::create_extendible(ops_group.get(), c[layout::op_end].name, spec, ctx);
  for (const auto* h : {&ops_start, &ops_end}) {
    const column_def& d = h == &ops_start ? c[layout::op_start] : c[layout::op_end];
    h5::write_attr(h->get(), layout::attr_units, d.units, ctx);
    h5::write_attr(h->get(), layout::attr_long_name, d.long_name, ctx);
  }
  h5::attach_scale(ops_dim.get(), {ops_start.get(), ops_end.get()}, ctx);
  op_start_buf.reserve(layout::table_chunk_rows);
  op_end_buf.reserve(layout::table_chunk_rows);
}

void result_writer::impl::flush_ops(bool last) {
  if (op_start_buf.empty() && !last) return;
  struct rows {
    std::vector<double> start, end;
    std::vector<std::uint32_t> unit, name, bound;
    std::vector<std::string> new_labels;
  };
  auto r = std::make_shared<rows>();
  std::swap(r->start, op_start_buf);
  std::swap(r->end, op_end_buf);
  std::swap(r->unit, op_unit);
  std::swap(r->name, op_name);
  std::swap(r->bound, op_bound);
  r->new_labels.assign(op_labels.begin() + static_cast<std::ptrdiff_t>(labels_sent), op_labels.end());
  labels_sent = op_labels.size();
  for (auto* v : {&op_start_buf, &op_end_buf}) v->reserve(layout::table_chunk_rows);
  for (auto* v : {&op_unit, &op_name, &op_bound}) v->reserve(layout::table_chunk_rows);
  background->post([this, r, last] {
    h5::append_chunks(ops_start.get(), r->start.data(), r->start.size(), layout::table_chunk_rows, compressor, ctx);
    h5::append_chunks(ops_end.get(), r->end.data(), r->end.size(), layout::table_chunk_rows, compressor, ctx);
    op_unit_col.add(r->new_labels, r->unit, last, compressor);
    op_name_col.add(r->new_labels, r->name, last, compressor);
    op_bound_col.add(r->new_labels, r->bound, last, compressor);
  });
}

// At commit, after the background thread has drained: the labels, the dimension's length,
// the counts.
void result_writer::impl::write_ops() {
  const auto& c = layout::op_columns;
  const hid_t g = ops_group.get();
  h5::write_attr(g, layout::attr_ops_limit, ops_limit, ctx);
  h5::write_attr(g, layout::attr_ops_dropped, ops_dropped, ctx);
  h5::set_rows(ops_dim.get(), ops_stored, ctx);
  const std::array<std::size_t, 3> label_columns{layout::op_unit, layout::op_name, layout::op_bound};
  std::vector<h5::handle> labels;
  labels.push_back(op_unit_col.write(g, c[layout::op_unit].name, ctx));
  labels.push_back(op_name_col.write(g, c[layout::op_name].name, ctx));
  labels.push_back(op_bound_col.write(g, c[layout::op_bound].name, ctx));
  std::vector<hid_t> ids;
  for (std::size_t i = 0; i < labels.size(); ++i) {
    const column_def& d = c[label_columns[i]];
    h5::write_attr(labels[i].get(), layout::attr_encoding, "utf-8", ctx);
    h5::write_attr(labels[i].get(), layout::attr_long_name, d.long_name, ctx);
    ids.push_back(labels[i].get());
  }
  h5::attach_scale(ops_dim.get(), ids, ctx);
}

void result_writer::impl::write_unit_summary() {
  if (!unit_rows) return;
  const auto& r = *unit_rows;
  const auto& c = layout::unit_summary_columns;
  labelled_group g(file.get(), layout::group_unit_summary, layout::unit_dim,
                   column_of(r, &unit_time_row::unit), ctx);
  for (std::size_t k = 0; k < layout::unit_summary_fields.size(); ++k)
    g.add(c[k], column_of(r, layout::unit_summary_fields[k]), ctx);
  std::vector<std::int64_t> ops_count;
  for (const auto& row : r) ops_count.push_back(static_cast<std::int64_t>(row.ops));
  g.add(c[layout::unit_summary_ops_column], ops_count, ctx);
  g.attach(layout::unit_dim, ctx);
}

void result_writer::impl::write_domain_summary() {
  if (!domain_rows) return;
  const auto& r = *domain_rows;
  labelled_group g(file.get(), layout::group_domain_summary, layout::domain_dim,
                   column_of(r, &domain_summary_row::domain), ctx);
  const auto& c = layout::domain_summary_columns;
  for (std::size_t k = 0; k < layout::domain_summary_fields.size(); ++k)
    g.add(c[k], column_of(r, layout::domain_summary_fields[k]), ctx);
  g.attach(layout::domain_dim, ctx);
}

namespace {
// A whole table written at once: a group, its columns, and the bare row dimension attached.
template <typename Row, std::size_t N, typename Fields>
void write_row_table(hid_t file, const char* name, const char* dim, const std::array<column_def, N>& cols,
                     const Fields& fields, const std::vector<Row>& rows, const h5::context& ctx) {
  h5::handle g = h5::create_group(file, name, ctx);
  h5::handle scale = h5::create_dimension_only(g.get(), dim, ctx);
  h5::set_rows(scale.get(), rows.size(), ctx);
  std::vector<h5::handle> made;
  layout::for_each_field(fields, [&](std::size_t k, auto member) {
    const column_def& d = cols[k];
    const auto v = column_of(rows, member);
    using M = typename decltype(v)::value_type;
    if constexpr (std::is_same_v<M, std::string>) {
      made.push_back(h5::create_string_dataset(g.get(), d.name, v, ctx));
      h5::write_attr(made.back().get(), layout::attr_encoding, "utf-8", ctx);
    } else {
      made.push_back(h5::create_column(g.get(), d.name, d.type, v.data(), v.size(), layout::table_chunk_rows, ctx));
      if (d.units) h5::write_attr(made.back().get(), layout::attr_units, d.units, ctx);
    }
    h5::write_attr(made.back().get(), layout::attr_long_name, d.long_name, ctx);
  });
  std::vector<hid_t> ids;
  for (const auto& m : made) ids.push_back(m.get());
  h5::attach_scale(scale.get(), ids, ctx);
}
}  // namespace

void result_writer::impl::write_tasks() {
  if (task_rows.empty()) return;
  write_row_table(file.get(), layout::group_tasks, layout::tasks_dim, layout::task_columns, layout::task_fields,
                  task_rows, ctx);
  write_row_table(file.get(), layout::group_task_residency, layout::task_residency_dim, layout::task_residency_columns,
                  layout::task_residency_fields, task_residency_rows, ctx);
  write_row_table(file.get(), layout::group_task_runs, layout::task_runs_dim, layout::task_run_columns,
                  layout::task_run_fields, task_run_rows, ctx);
}

void result_writer::impl::create_job_energy(hsize_t chunk_rows) {
  job_energy_group = h5::create_group(file.get(), layout::group_job_energy, ctx);
  h5::extendible_spec ids_spec;
  ids_spec.type = h5::column_type::i64;
  ids_spec.chunk_rows = chunk_rows;
  job_energy_ids = h5::create_extendible(job_energy_group.get(), layout::jobs_dim, ids_spec, ctx);
  h5::write_attr(job_energy_ids.get(), layout::attr_long_name, std::string("job id (as in jobs)"), ctx);
  ctx.check_status(H5DSset_scale(job_energy_ids.get(), layout::jobs_dim), "cannot make 'job' a scale");
  h5::handle comps = h5::create_string_dataset(job_energy_group.get(), layout::component_dim, job_energy_components, ctx);
  h5::write_attr(comps.get(), layout::attr_long_name, std::string("component name"), ctx);
  ctx.check_status(H5DSset_scale(comps.get(), layout::component_dim), "cannot make 'component' a scale");
  h5::extendible_spec spec;
  spec.n_cols = job_energy_components.size();
  spec.chunk_rows = chunk_rows;
  job_energy_values = h5::create_extendible(job_energy_group.get(), layout::job_energy_name, spec, ctx);
  h5::write_attr(job_energy_values.get(), layout::attr_units, std::string("J"), ctx);
  h5::write_attr(job_energy_values.get(), layout::attr_long_name,
                 std::string("energy attributed to the job, by component (a row sums to jobs/energy_J)"), ctx);
  ctx.check_status(H5DSattach_scale(job_energy_values.get(), job_energy_ids.get(), 0), "cannot attach 'job' to job_energy");
  ctx.check_status(H5DSattach_scale(job_energy_values.get(), comps.get(), 1), "cannot attach 'component' to job_energy");
}

// A chunk of rows at a time, so that a run's requests never sit in memory as one matrix of
// requests x components (49 on the DGX H100 preset: 392 B a request). The group is made with
// the first rows: a run in which no request finished has none. Chunks as long as the rows of
// a table that fits in one (the whole table, as before streaming), else table_chunk_rows.
void result_writer::impl::flush_job_energy() {
  const hsize_t rows = pending_energy_ids.size();
  if (rows == 0) return;
  if (!job_energy_values.valid()) create_job_energy(std::min<hsize_t>(rows, layout::table_chunk_rows));
  h5::append_rows(job_energy_ids.get(), h5::column_type::i64, pending_energy_ids.data(), rows, ctx);
  h5::append_rows(job_energy_values.get(), h5::column_type::f64, pending_energy_J.data(), rows, ctx);
  pending_energy_ids.clear();
  pending_energy_J.clear();
}

void result_writer::impl::close_objects() {
  for (auto* h : {&ops_start, &ops_end, &ops_dim, &ops_group, &job_energy_values, &job_energy_ids, &job_energy_group})
    h->reset();
  vars.clear();
  coord_ds.clear();
  time_ds.reset();
  ts_group.reset();
  jobs.close();
  events.close();
  summary_group.reset();
}

void result_writer::impl::abandon() noexcept {
  background.reset();  // stops the writes in flight before their datasets close
  h5::quiet_errors quiet;
  close_objects();
  file.reset();
  if (out) out->abandon();
}

result_writer::result_writer(fs::path final_path, const run_metadata& meta,
                             const timeseries_layout& layout, double record_period_s)
    : result_writer(output_file(final_path, output_rules{true, false, false}), meta, layout, record_period_s) {}

result_writer::result_writer(output_file out, const run_metadata& meta, const timeseries_layout& layout,
                             double record_period_s)
    : p_(std::make_unique<impl>()) {
  h5::quiet_errors quiet;
  p_->final_path = out.requested();
  p_->part_path = out.write_path();
  p_->out.emplace(std::move(out));
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
  double* row = w.stage_row(time_s);
  for (std::size_t i = 0; i < values.size(); ++i) std::copy_n(values[i], w.vars[i].n_cols, row + w.vars[i].offset);
  w.row_staged();
}

void result_writer::append_sample(double time_s, const double* row) {
  impl& w = *p_;
  w.require_open();
  std::copy_n(row, w.row_width - 1, w.stage_row(time_s) + 1);
  w.row_staged();
}

std::size_t result_writer::sample_width() const { return p_->row_width - 1; }

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

void result_writer::set_ops_limit(std::uint64_t limit) {
  p_->require_open();
  p_->ops_limit = limit;
}

std::uint32_t result_writer::op_label(const std::string& text) {
  p_->require_open();
  return p_->label_id(text);
}

void result_writer::add_op(std::uint32_t unit, std::uint32_t op, double start_s, double end_s,
                           std::uint32_t bound_by) {
  impl& w = *p_;
  w.require_open();
  const auto n = static_cast<std::uint32_t>(w.op_labels.size());
  if (unit >= n || op >= n || bound_by >= n)
    throw std::invalid_argument(w.final_path.string() + ": add_op got a label id that op_label did not give");
  // Bounded: a long run keeps its first ops_limit operators and counts the rest.
  if (w.ops_stored >= w.ops_limit) {
    ++w.ops_dropped;
    return;
  }
  ++w.ops_stored;
  w.op_unit.push_back(unit);
  w.op_name.push_back(op);
  w.op_bound.push_back(bound_by);
  w.op_start_buf.push_back(start_s);
  w.op_end_buf.push_back(end_s);
  if (w.op_start_buf.size() >= layout::table_chunk_rows) w.flush_ops(false);
}

std::uint64_t result_writer::ops_dropped() const { return p_->ops_dropped; }

void result_writer::add_op(const op_row& row) {
  impl& w = *p_;
  w.require_open();
  add_op(w.label_id(row.unit), w.label_id(row.op), row.start_s, row.end_s, w.label_id(row.bound_by));
}

void result_writer::set_unit_summary(const std::vector<unit_time_row>& rows) {
  p_->require_open();
  p_->unit_rows = rows;
}

void result_writer::set_domain_summary(const std::vector<domain_summary_row>& rows) {
  p_->require_open();
  p_->domain_rows = rows;
}

void result_writer::set_tasks(const std::vector<task_row>& tasks, const std::vector<task_residency_row>& residency,
                              const std::vector<task_run_row>& runs) {
  p_->require_open();
  p_->task_rows = tasks;
  p_->task_residency_rows = residency;
  p_->task_run_rows = runs;
}

void result_writer::set_job_energy_components(std::vector<std::string> components) {
  p_->require_open();
  if (!p_->pending_energy_ids.empty() || p_->job_energy_values.valid())
    throw std::logic_error("job_energy: components set after its first row");
  p_->job_energy_components = std::move(components);
}

void result_writer::add_job_energy(std::int64_t id, const double* joules) {
  impl& w = *p_;
  w.require_open();
  if (w.job_energy_components.empty()) throw std::logic_error("job_energy: a row before its components");
  w.pending_energy_ids.push_back(id);
  w.pending_energy_J.insert(w.pending_energy_J.end(), joules, joules + w.job_energy_components.size());
  if (w.pending_energy_ids.size() >= layout::table_chunk_rows) {
    h5::quiet_errors quiet;
    w.flush_job_energy();
  }
}

void result_writer::commit(double wall_s) {
  impl& w = *p_;
  w.require_open();
  h5::quiet_errors quiet;
  w.flush_timeseries();
  w.flush_ops(true);
  // These overlap with the background thread's last chunks (HDF5 itself serialises the two
  // threads' calls: Debian builds it thread-safe).
  w.flush_jobs();
  w.flush_events();
  w.jobs.post_labels(*w.background, w.compressor, true);
  w.events.post_labels(*w.background, w.compressor, true);
  w.write_floorplan();
  w.write_summary();
  w.write_unit_summary();
  w.write_domain_summary();
  w.write_tasks();
  w.flush_job_energy();
  w.background->drain();  // rethrows a failed background write
  w.write_ops();
  w.jobs.write_labels(w.ctx);
  w.events.write_labels(w.ctx);
  h5::write_attr(w.file.get(), layout::attr_wall_s, wall_s, w.ctx);
  w.close_objects();
  w.ctx.check_status(H5Fflush(w.file.get(), H5F_SCOPE_GLOBAL), "cannot flush result file");
  w.ctx.check_status(w.file.close(), "cannot close result file");
  try {
    w.out->commit();  // the rename, under the claim's rules
  } catch (const output_error& e) {
    throw std::runtime_error(e.what());  // names the file and why
  }
  w.committed = true;
}

const fs::path& result_writer::final_path() const { return p_->final_path; }

}  // namespace ptsim::postproc
