// The groups added in schema 1.1 (ops, unit_summary, domain_summary) and the row dimension
// scales every table carries, read back through the reader and through raw HDF5.
#include <doctest/doctest.h>
#include <hdf5.h>
#include <hdf5_hl.h>

#include <string>
#include <vector>

#include "sample_result.hpp"
#include "scratch.hpp"

namespace fs = std::filesystem;
using namespace ptsim::postproc;

namespace {

using test::scratch;

// The dimension attached to axis 0 of dataset `path`: the scale's dataset name, and whether
// it is a bare netCDF dimension (no values) rather than a coordinate ("" when none).
std::pair<std::string, bool> scale_of(hid_t file, const std::string& path) {
  const hid_t ds = H5Dopen2(file, path.c_str(), H5P_DEFAULT);
  REQUIRE_MESSAGE(ds >= 0, path);
  std::pair<std::string, bool> found;
  if (H5DSget_num_scales(ds, 0) > 0) {
    H5DSiterate_scales(
        ds, 0, nullptr,
        [](hid_t, unsigned, hid_t scale, void* out) -> herr_t {
          auto& f = *static_cast<std::pair<std::string, bool>*>(out);
          char buf[256] = {};
          H5Iget_name(scale, buf, sizeof buf);
          f.first = std::string(buf).substr(std::string(buf).rfind('/') + 1);
          H5DSget_scale_name(scale, buf, sizeof buf);
          f.second = std::string(buf).rfind("This is a netCDF dimension but not a netCDF variable", 0) == 0;
          return 1;
        },
        &found);
  }
  H5Dclose(ds);
  return found;
}

}  // namespace

TEST_CASE("ops: the first `limit` operators round-trip, the rest are counted") {
  const fs::path dir = scratch("ops");
  for (std::size_t n : {0, 1, 7, 5000}) {
    for (std::uint64_t limit : {std::uint64_t{0}, std::uint64_t{5}, std::uint64_t{4097}, default_ops_limit}) {
      CAPTURE(n);
      CAPTURE(limit);
      const fs::path file = dir / ("ops" + std::to_string(n) + "_" + std::to_string(limit) + ".h5");
      test::write_sample(file, 3, 1, n, limit);
      const ops_table ops = result_reader(file).ops();
      const std::size_t kept = std::min<std::size_t>(n, limit);
      CHECK(ops.limit == limit);
      CHECK(ops.dropped == n - kept);
      REQUIRE(ops.rows.size() == kept);
      std::size_t mismatches = 0;
      for (std::size_t i = 0; i < kept; ++i) {
        const op_row w = test::sample_op(i);
        const op_row& g = ops.rows[i];
        mismatches += g.unit != w.unit || g.op != w.op || g.start_s != w.start_s || g.end_s != w.end_s ||
                      g.bound_by != w.bound_by;
      }
      CHECK(mismatches == 0);
    }
  }
}

TEST_CASE("ops labels: a longer label after whole chunks were built narrower reads back in full") {
  // Label chunks are built as their 4096 rows complete, at the width of the longest label so
  // far; a longer one later means building them again at the end. Rows before and after it
  // must read back exactly, in every column.
  const fs::path dir = scratch("ops_width");
  for (std::size_t longer_at : {0, 100, 4095, 4096, 9000, 12287}) {
    CAPTURE(longer_at);
    const fs::path file = dir / ("ops" + std::to_string(longer_at) + ".h5");
    std::vector<op_row> want;
    {
      result_writer w(file, test::sample_metadata(), test::sample_layout(), test::record_period_s);
      for (std::size_t i = 0; i < 12288; ++i) {
        const bool longer = i >= longer_at && i % 3 == 0;
        op_row r{i % 2 ? "npu" : "gpu", longer ? "attention_with_a_much_longer_name_µ" : "mm",
                 0.001 * static_cast<double>(i), 0.001 * static_cast<double>(i) + 0.0005,
                 longer ? "interconnect" : "memory"};
        w.add_op(r);
        want.push_back(r);
      }
      w.commit(1.0);
    }
    const ops_table ops = result_reader(file).ops();
    REQUIRE(ops.rows.size() == want.size());
    std::size_t mismatches = 0;
    for (std::size_t i = 0; i < want.size(); ++i)
      mismatches += ops.rows[i].unit != want[i].unit || ops.rows[i].op != want[i].op ||
                    ops.rows[i].bound_by != want[i].bound_by || ops.rows[i].start_s != want[i].start_s;
    CHECK(mismatches == 0);
  }
}

TEST_CASE("unit_summary and domain_summary round-trip") {
  const fs::path file = scratch("summaries") / "run.h5";
  test::write_sample(file, 3, 1);
  const result_reader r(file);
  const auto units = r.unit_summary(), want = test::sample_unit_summary();
  REQUIRE(units.size() == want.size());
  for (std::size_t i = 0; i < units.size(); ++i) {
    CHECK(units[i].unit == want[i].unit);
    CHECK(units[i].compute_bound_s == want[i].compute_bound_s);
    CHECK(units[i].memory_bound_s == want[i].memory_bound_s);
    CHECK(units[i].interconnect_bound_s == want[i].interconnect_bound_s);
    CHECK(units[i].dvfs_stall_s == want[i].dvfs_stall_s);
    CHECK(units[i].idle_exit_s == want[i].idle_exit_s);
    CHECK(units[i].idle_s == want[i].idle_s);
    CHECK(units[i].ops == want[i].ops);
  }
  CHECK(units[0].busy_s() == 1.25 + 0.5 + 0.0625 + 0.03125 + 0.03125);
  const auto doms = r.domain_summary(), dwant = test::sample_domain_summary();
  REQUIRE(doms.size() == dwant.size());
  for (std::size_t i = 0; i < doms.size(); ++i) {
    CHECK(doms[i].domain == dwant[i].domain);
    CHECK(doms[i].throttled_fraction == dwant[i].throttled_fraction);
    CHECK(doms[i].throttled_thermal_fraction == dwant[i].throttled_thermal_fraction);
    CHECK(doms[i].throttled_power_fraction == dwant[i].throttled_power_fraction);
  }
}

TEST_CASE("a writer that sets no summaries writes none, and the reader returns them empty") {
  const fs::path file = scratch("no_summaries") / "run.h5";
  {
    result_writer w(file, test::sample_metadata(), test::sample_layout(), 0.01);
    w.commit(0.1);
  }
  const result_reader r(file);
  CHECK(r.unit_summary().empty());
  CHECK(r.domain_summary().empty());
  CHECK(r.ops().rows.empty());
  CHECK(r.ops().limit == default_ops_limit);
}

TEST_CASE("a schema 1.0 file (before ops and the summaries) still reads") {
  const fs::path file = scratch("schema_1_0") / "run.h5";
  test::write_sample(file, 3, 1, 10);
  const hid_t f = H5Fopen(file.c_str(), H5F_ACC_RDWR, H5P_DEFAULT);
  REQUIRE(f >= 0);
  for (const char* g : {"ops", "unit_summary", "domain_summary"}) CHECK(H5Ldelete(f, g, H5P_DEFAULT) >= 0);
  H5Fclose(f);
  const result_reader r(file);
  CHECK(r.ops().rows.empty());
  CHECK(r.ops().limit == 0);
  CHECK(r.unit_summary().empty());
  CHECK(r.domain_summary().empty());
  CHECK(r.jobs().size() == 1);
}

TEST_CASE("every table column has its row dimension attached as a scale (xarray reads the groups)") {
  const fs::path file = scratch("scales") / "run.h5";
  test::write_sample(file, 3, 5000, 20);  // jobs over more than one chunk
  const hid_t f = H5Fopen(file.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  REQUIRE(f >= 0);
  const struct {
    const char* group;
    const char* dim;
    bool bare;  ///< a row dimension without values, or a coordinate of labels
    std::vector<const char*> columns;
  } tables[] = {
      {"jobs", "job", true, {"id", "stream", "unit", "arrival_s", "start_s", "finish_s", "latency_s", "energy_J"}},
      {"events", "event", true, {"time_s", "kind", "source", "message", "value"}},
      {"floorplan", "block", false, {"name", "x", "y", "width", "height"}},
      {"ops", "op", true, {"unit", "operator", "start_s", "end_s", "bound_by"}},
      {"unit_summary", "unit", false,
       {"compute_bound_s", "memory_bound_s", "interconnect_bound_s", "dvfs_stall_s", "idle_exit_s", "idle_s", "ops"}},
      {"domain_summary", "domain", false,
       {"throttled_fraction", "throttled_thermal_fraction", "throttled_power_fraction"}},
  };
  for (const auto& t : tables)
    for (const char* c : t.columns) {
      const std::string path = std::string(t.group) + "/" + c;
      CHECK_MESSAGE(scale_of(f, path) == std::make_pair(std::string(t.dim), t.bare), path);
    }
  // A bare dimension is as long as its columns and stores nothing.
  for (const char* path : {"jobs/job", "ops/op"}) {
    const hid_t dim = H5Dopen2(f, path, H5P_DEFAULT);
    const hid_t space = H5Dget_space(dim);
    hsize_t n = 0;
    H5Sget_simple_extent_dims(space, &n, nullptr);
    CHECK_MESSAGE(n == (std::string(path) == "jobs/job" ? 5000u : 20u), path);
    CHECK_MESSAGE(H5Dget_storage_size(dim) == 0, path);
    H5Sclose(space);
    H5Dclose(dim);
  }

  // Operator labels: fixed-length UTF-8, chunked and compressed (a 100k-row table stays small).
  const hid_t ops = H5Dopen2(f, "ops/operator", H5P_DEFAULT);
  const hid_t type = H5Dget_type(ops);
  CHECK(H5Tis_variable_str(type) == 0);
  CHECK(H5Tget_cset(type) == H5T_CSET_UTF8);
  CHECK(H5Tget_size(type) == std::string("gemm_µkernel").size());  // the longest name
  const hid_t dcpl = H5Dget_create_plist(ops);
  CHECK(H5Pget_layout(dcpl) == H5D_CHUNKED);
  CHECK(H5Pget_nfilters(dcpl) >= 1);
  H5Pclose(dcpl);
  H5Tclose(type);
  H5Dclose(ops);
  H5Fclose(f);
}

TEST_CASE("job_energy streams a chunk at a time: rows over several chunks round-trip in order") {
  // 4096 rows a chunk (layout::table_chunk_rows): 0 rows (no group), one short chunk, and
  // 2.5 chunks, where the first rows fix the chunk length and later ones append.
  const std::vector<std::string> comps = {"gpu0", "hbm0", "cpu0"};
  for (std::size_t n : {0, 3, 10240}) {
    CAPTURE(n);
    const fs::path file = scratch("job_energy") / ("run" + std::to_string(n) + ".h5");
    {
      result_writer w(file, test::sample_metadata(), test::sample_layout(), 0.01);
      w.set_job_energy_components(comps);
      for (std::size_t r = 0; r < n; ++r) {
        // Row r: r, 0.5 r, 1e-3 (distinct per row and column, so an order slip shows).
        const double row[] = {static_cast<double>(r), 0.5 * static_cast<double>(r), 1e-3};
        w.add_job_energy(static_cast<std::int64_t>(1000 + r), row);
      }
      w.commit(0.1);
    }
    const job_energy_table t = result_reader(file).job_energy();
    if (n == 0) {
      CHECK(t.ids.empty());
      CHECK(t.components.empty());  // no group at all
      const hid_t f = H5Fopen(file.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
      CHECK(H5Lexists(f, "job_energy", H5P_DEFAULT) == 0);
      H5Fclose(f);
      continue;
    }
    CHECK(t.components == comps);
    REQUIRE(t.ids.size() == n);
    REQUIRE(t.joules.size() == 3 * n);
    std::size_t mismatches = 0;
    for (std::size_t r = 0; r < n; ++r)
      mismatches += t.ids[r] != static_cast<std::int64_t>(1000 + r) || t.joules[3 * r] != static_cast<double>(r) ||
                    t.joules[3 * r + 1] != 0.5 * static_cast<double>(r) || t.joules[3 * r + 2] != 1e-3;
    CHECK(mismatches == 0);
    // The job dimension is a scale on the energies' first axis, the components on their second.
    const hid_t f = H5Fopen(file.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
    CHECK(scale_of(f, "job_energy/energy_J").first == "job");
    H5Fclose(f);
  }
}

TEST_CASE("job_energy: a row before its components, or components after a row, is a logic error") {
  const fs::path file = scratch("job_energy_order") / "run.h5";
  result_writer w(file, test::sample_metadata(), test::sample_layout(), 0.01);
  const double row[] = {1.0};
  CHECK_THROWS_AS(w.add_job_energy(1, row), std::logic_error);
  w.set_job_energy_components({"gpu0"});
  w.add_job_energy(1, row);
  CHECK_THROWS_AS(w.set_job_energy_components({"gpu0", "hbm0"}), std::logic_error);
}
