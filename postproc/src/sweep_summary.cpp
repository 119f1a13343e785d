// summary.h5 and summary.csv of a sweep: writer and reader in one place.
#include "ptsim/postproc/sweep_summary.hpp"

#include <hdf5.h>
#include <hdf5_hl.h>

#include <cmath>
#include <fstream>
#include <map>
#include <stdexcept>

#include "h5_error.hpp"
#include "h5_handle.hpp"
#include "h5_io.hpp"
#include "layout.hpp"
#include "number_text.hpp"
#include "ptsim/postproc/metric_catalogue.hpp"
#include "ptsim/postproc/output_file.hpp"

namespace ptsim::postproc {

namespace fs = std::filesystem;

namespace {

// Names of summary.h5 (columns are named by the table itself).
constexpr const char* attr_kind = "ptsim_file";
constexpr const char* kind_value = "sweep summary";
constexpr const char* attr_sweep = "sweep";
constexpr const char* attr_version = "ptsim_version";
constexpr const char* attr_throughput_units = "throughput_units";
using layout::attr_long_name;
using layout::attr_units;
constexpr const char* attr_role = "sweep_column";  // id, status, error, parameter, metric, wall
constexpr const char* run_dim = "run";
constexpr hsize_t chunk_rows = 1024;

// A parameter column is stored as integers when it is the replicate seed.
bool integer_column(const std::string& name, const std::vector<sweep_row>& rows, std::size_t k,
                    std::vector<std::int64_t>* out) {
  if (name != "seed") return false;
  out->clear();
  for (const auto& r : rows) {
    const std::string& t = r.params[k];
    if (t.empty() || t.find_first_not_of("0123456789") != std::string::npos || t.size() > 18) return false;
    out->push_back(std::stoll(t));
  }
  return true;
}

std::string csv_field(const std::string& s) {
  if (s.find_first_of(",\"\r\n") == std::string::npos) return s;
  std::string q = "\"";
  for (char ch : s) q += ch == '"' ? std::string("\"\"") : std::string(1, ch);
  return q + "\"";
}

// Failed runs have no metrics: an empty cell (pandas reads NaN). A real NaN prints "nan".
std::string csv_number(double v, bool ok) {
  if (!ok && std::isnan(v)) return "";
  return shortest_text(v);
}

void check_shape(const sweep_summary& s) {
  if (s.metric_units.size() != s.metric_names.size())
    throw std::logic_error("sweep_summary: metric_units and metric_names differ in length");
  for (const auto& r : s.rows)
    if (r.params.size() != s.param_names.size() || r.metrics.size() != s.metric_names.size())
      throw std::logic_error("sweep_summary: row '" + r.run_id + "' does not match the columns");
}

void write_h5(const fs::path& path, const sweep_summary& s) {
  h5::quiet_errors quiet;
  h5::context ctx{path.string()};
  const h5::handle fcpl = h5::file_create_properties(ctx);
  const h5::handle fapl = h5::file_access_properties(ctx);
  h5::handle file{ctx.check(H5Fcreate(path.c_str(), H5F_ACC_TRUNC, fcpl.get(), fapl.get()), "cannot create file"),
                  H5Fclose};
  const hid_t root = file.get();
  h5::write_attr(root, attr_kind, std::string(kind_value), ctx);
  h5::write_attr(root, attr_sweep, s.sweep_name, ctx);
  h5::write_attr(root, attr_version, s.ptsim_version, ctx);
  h5::write_attr(root, attr_throughput_units, s.throughput_units, ctx);

  const auto& rows = s.rows;
  const hsize_t n = rows.size();
  std::vector<h5::handle> cols;
  auto strings = [&](const std::string& name, auto get, const char* role, const char* long_name) {
    std::vector<std::string> v;
    for (const auto& r : rows) v.push_back(get(r));
    cols.push_back(h5::create_string_dataset(root, name, v, ctx));
    h5::write_attr(cols.back().get(), attr_role, std::string(role), ctx);
    h5::write_attr(cols.back().get(), attr_long_name, std::string(long_name), ctx);
  };
  auto numbers = [&](const std::string& name, const std::vector<double>& v, const char* role,
                     const std::string& units, const std::string& long_name) {
    cols.push_back(h5::create_column(root, name, h5::column_type::f64, v.data(), n, chunk_rows, ctx));
    h5::write_attr(cols.back().get(), attr_role, std::string(role), ctx);
    h5::write_attr(cols.back().get(), attr_units, units, ctx);
    h5::write_attr(cols.back().get(), attr_long_name, long_name, ctx);
  };

  std::vector<std::int64_t> index;
  for (const auto& r : rows) index.push_back(static_cast<std::int64_t>(r.index));
  h5::handle scale = h5::create_column(root, run_dim, h5::column_type::i64, index.data(), n, chunk_rows, ctx);
  h5::write_attr(scale.get(), attr_long_name, std::string("run index in the sweep's expansion order"), ctx);

  strings("run_id", [](const sweep_row& r) { return r.run_id; }, "id", "run id");
  strings("status", [](const sweep_row& r) { return std::string(r.ok ? "ok" : "failed"); }, "status", "ok or failed");
  strings("error", [](const sweep_row& r) { return r.error; }, "error", "why the run failed");
  for (std::size_t k = 0; k < s.param_names.size(); ++k) {
    std::vector<std::int64_t> ints;
    if (integer_column(s.param_names[k], rows, k, &ints)) {
      cols.push_back(h5::create_column(root, s.param_names[k], h5::column_type::i64, ints.data(), n, chunk_rows, ctx));
      h5::write_attr(cols.back().get(), attr_role, std::string("parameter"), ctx);
      h5::write_attr(cols.back().get(), attr_long_name, std::string("replicate seed"), ctx);
      continue;
    }
    strings(s.param_names[k], [k](const sweep_row& r) { return r.params[k]; }, "parameter",
            "swept scenario parameter, as written in the sweep file");
  }
  for (std::size_t k = 0; k < s.metric_names.size(); ++k) {
    std::vector<double> v;
    for (const auto& r : rows) v.push_back(r.metrics[k]);
    const auto d = meaning_of(s.metric_names[k]);
    numbers(s.metric_names[k], v, "metric", s.metric_units[k],
            d ? std::string(d->description) : std::string("run summary metric"));
    if (d) h5::write_attr(cols.back().get(), layout::attr_better, std::string(better_name(d->direction)), ctx);
  }
  std::vector<double> wall;
  std::vector<std::int64_t> rank;
  for (const auto& r : rows) {
    wall.push_back(r.wall_s);
    rank.push_back(r.wall_rank);
  }
  numbers("wall_s", wall, "wall", "s", "wall-clock time of the run's process");
  strings("wall_host", [](const sweep_row& r) { return r.wall_host; }, "wall", "machine that ran it");
  cols.push_back(h5::create_column(root, "wall_rank", h5::column_type::i64, rank.data(), n, chunk_rows, ctx));
  h5::write_attr(cols.back().get(), attr_role, std::string("wall"), ctx);
  h5::write_attr(cols.back().get(), attr_long_name, std::string("MPI rank or shard that ran it"), ctx);

  std::vector<hid_t> ids;
  for (const auto& c : cols) ids.push_back(c.get());
  h5::attach_row_scale(scale.get(), run_dim, ids, ctx);
  cols.clear();
  scale.reset();
  ctx.check_status(file.close(), "cannot close file");
}

}  // namespace

std::string sweep_summary_csv(const sweep_summary& s) {
  check_shape(s);
  std::string out = "run_id,status,error";
  for (const auto& p : s.param_names) out += "," + csv_field(p);
  for (const auto& m : s.metric_names) out += "," + csv_field(m);
  out += ",wall_s,wall_host,wall_rank\n";
  for (const auto& r : s.rows) {
    out += csv_field(r.run_id) + "," + (r.ok ? "ok" : "failed") + "," + csv_field(r.error);
    for (const auto& p : r.params) out += "," + csv_field(p);
    for (double v : r.metrics) out += "," + csv_number(v, r.ok);
    out += "," + csv_number(r.wall_s, false) + "," + csv_field(r.wall_host) + "," + std::to_string(r.wall_rank) + "\n";
  }
  return out;
}

void write_sweep_summary(const fs::path& dir, const sweep_summary& s) {
  check_shape(s);
  // Regenerated from the folder every time: an existing summary (a regular file) is replaced.
  // Never through a link: a sweep writes only inside its folder.
  const output_rules rules{true, false, false, false};
  try {
    output_file h5(dir / "summary.h5", rules);
    output_file csv(dir / "summary.csv", rules);
    write_h5(h5.write_path(), s);
    csv.stream() << sweep_summary_csv(s);
    h5.commit();
    csv.commit();
  } catch (const output_error& e) {
    throw std::runtime_error(std::string("cannot write the sweep summary: ") + e.what());
  }
}

sweep_summary read_sweep_summary(const fs::path& path) {
  h5::quiet_errors quiet;
  h5::context ctx{path.string()};
  std::error_code ec;
  if (!fs::is_regular_file(path, ec)) ctx.fail_plain("cannot open sweep summary (no such file)");
  const hid_t id = H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  if (id < 0) ctx.fail("not a ptsim sweep summary: HDF5 cannot open it");
  h5::handle file{id, H5Fclose};
  const hid_t root = file.get();
  if (h5::read_string_attr(root, attr_kind, ctx).value_or("") != kind_value)
    ctx.fail_plain(std::string("not a ptsim sweep summary (no root attribute ") + attr_kind + " = '" + kind_value + "')");
  sweep_summary s;
  s.sweep_name = h5::read_string_attr(root, attr_sweep, ctx).value_or("");
  s.ptsim_version = h5::read_string_attr(root, attr_version, ctx).value_or("");
  s.throughput_units = h5::read_string_attr(root, attr_throughput_units, ctx).value_or("");

  const h5::handle scale = h5::open_dataset(root, run_dim, ctx);
  const std::vector<std::int64_t> index = h5::read_ints(scale.get(), ctx);
  s.rows.resize(index.size());
  for (std::size_t i = 0; i < index.size(); ++i) s.rows[i].index = static_cast<std::size_t>(index[i]);
  auto same_length = [&](std::size_t got, const std::string& name) {
    if (got != s.rows.size()) ctx.fail_plain("column '" + name + "' differs in length from '" + run_dim + "'");
  };
  for (const std::string& name : h5::link_names(root, ctx)) {
    if (name == run_dim) continue;
    h5::handle ds = h5::open_dataset(root, name, ctx);
    const std::string role = h5::read_string_attr(ds.get(), attr_role, ctx).value_or("");
    const std::string units = h5::read_string_attr(ds.get(), attr_units, ctx).value_or("");
    if (role == "id" || role == "status" || role == "error" || (role == "wall" && name == "wall_host")) {
      const auto v = h5::read_strings(ds.get(), ctx);
      same_length(v.size(), name);
      for (std::size_t i = 0; i < v.size(); ++i) {
        if (role == "id") s.rows[i].run_id = v[i];
        else if (role == "status") s.rows[i].ok = v[i] == "ok";
        else if (role == "error") s.rows[i].error = v[i];
        else s.rows[i].wall_host = v[i];
      }
    } else if (role == "parameter") {
      s.param_names.push_back(name);
      h5::handle type{H5Dget_type(ds.get()), H5Tclose};
      std::vector<std::string> v;
      if (H5Tget_class(type.get()) == H5T_STRING) {
        v = h5::read_strings(ds.get(), ctx);
      } else {
        for (std::int64_t x : h5::read_ints(ds.get(), ctx)) v.push_back(std::to_string(x));
      }
      same_length(v.size(), name);
      for (std::size_t i = 0; i < v.size(); ++i) s.rows[i].params.push_back(v[i]);
    } else if (role == "metric") {
      s.metric_names.push_back(name);
      s.metric_units.push_back(units);
      const auto v = h5::read_doubles(ds.get(), nullptr, ctx);
      same_length(v.size(), name);
      for (std::size_t i = 0; i < v.size(); ++i) s.rows[i].metrics.push_back(v[i]);
    } else if (name == "wall_s") {
      const auto v = h5::read_doubles(ds.get(), nullptr, ctx);
      same_length(v.size(), name);
      for (std::size_t i = 0; i < v.size(); ++i) s.rows[i].wall_s = v[i];
    } else if (name == "wall_rank") {
      const auto v = h5::read_ints(ds.get(), ctx);
      same_length(v.size(), name);
      for (std::size_t i = 0; i < v.size(); ++i) s.rows[i].wall_rank = v[i];
    }
  }
  return s;
}

}  // namespace ptsim::postproc
