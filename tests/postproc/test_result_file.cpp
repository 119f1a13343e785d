// Result file: what is written is what is read back, the file appears only when complete,
// and anything that is not a ptsim result is rejected with a message naming the file.
#include <doctest/doctest.h>
#include <hdf5.h>
#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <random>
#include <stdexcept>

#include "sample_result.hpp"
#include "scratch.hpp"

namespace fs = std::filesystem;
using namespace ptsim::postproc;

namespace {

using test::scratch;

fs::path part_of(const fs::path& p) { return fs::path(p.string() + ".part"); }

// The message of the std::runtime_error that f throws; fails the test if none is thrown.
template <typename F>
std::string error_of(F&& f) {
  try {
    f();
  } catch (const std::runtime_error& e) {
    return e.what();
  }
  FAIL("no std::runtime_error thrown");
  return {};
}

// Redirects stderr (fd 2) to a file while alive, to check what a call prints.
class stderr_capture {
 public:
  explicit stderr_capture(const fs::path& file) : file_(file) {
    std::fflush(stderr);
    saved_ = dup(2);
    std::FILE* f = std::fopen(file.c_str(), "w");
    dup2(fileno(f), 2);
    std::fclose(f);
  }
  ~stderr_capture() { restore(); }
  std::string text() {
    restore();
    std::ifstream in(file_);
    return {std::istreambuf_iterator<char>(in), {}};
  }

 private:
  void restore() {
    if (saved_ < 0) return;
    std::fflush(stderr);
    dup2(saved_, 2);
    close(saved_);
    saved_ = -1;
  }
  fs::path file_;
  int saved_ = -1;
};

void check_timeseries(const result_reader& r, std::size_t n) {
  const timeseries_layout l = test::sample_layout();
  const std::vector<double> t = r.time();
  REQUIRE(t.size() == n);
  for (std::size_t i = 0; i < n; ++i) CHECK(t[i] == test::sample_time(i));
  for (const auto& [dim, labels] : l.coords) CHECK(r.coord(dim) == labels);
  for (std::size_t v = 0; v < l.variables.size(); ++v) {
    std::size_t cols = 0;
    const std::vector<double> x = r.variable(l.variables[v].name, &cols);
    const std::size_t expect_cols = l.coords.at(l.variables[v].dim).size();
    CHECK(cols == expect_cols);
    REQUIRE(x.size() == n * expect_cols);
    std::size_t mismatches = 0;
    for (std::size_t i = 0; i < n; ++i)
      for (std::size_t j = 0; j < cols; ++j)
        mismatches += x[i * cols + j] != test::sample_value(v, i, j);
    CHECK_MESSAGE(mismatches == 0, l.variables[v].name);
  }
}

}  // namespace

TEST_CASE("every group round-trips with the values written") {
  const fs::path dir = scratch("round_trip");
  // 0 rows, less than a chunk, exactly one chunk (4096 rows), one and a bit, two and a bit.
  for (std::size_t n : {0, 1, 4096, 4200, 8500}) {
    CAPTURE(n);
    const fs::path file = dir / ("run" + std::to_string(n) + ".h5");
    const std::size_t n_jobs = n == 4200 ? 5000 : 3;  // 5000: more than one table chunk
    test::write_sample(file, n, n_jobs);
    const result_reader r(file);

    const run_metadata m = r.metadata(), e = test::sample_metadata();
    CHECK(m.ptsim_version == e.ptsim_version);
    CHECK(m.scenario_name == e.scenario_name);
    CHECK(m.scenario_yaml == e.scenario_yaml);
    CHECK(m.seed == e.seed);
    CHECK(m.host == e.host);
    CHECK(m.start_time == e.start_time);
    CHECK(m.wall_s == 12.5);
    CHECK(r.record_period_s() == test::record_period_s);

    check_timeseries(r, n);

    const timeseries_layout got = r.layout(), want = test::sample_layout();
    CHECK(got.coords == want.coords);
    REQUIRE(got.variables.size() == want.variables.size());
    for (std::size_t v = 0; v < want.variables.size(); ++v) {
      CHECK(got.variables[v].name == want.variables[v].name);
      CHECK(got.variables[v].dim == want.variables[v].dim);
      CHECK(got.variables[v].units == want.variables[v].units);
      CHECK(got.variables[v].long_name == want.variables[v].long_name);
    }

    const std::vector<job_row> jobs = r.jobs();
    REQUIRE(jobs.size() == n_jobs);
    for (std::size_t i = 0; i < n_jobs; ++i) {
      const job_row w = test::sample_job(i);
      const job_row& g = jobs[i];
      if (g.id != w.id || g.stream != w.stream || g.unit != w.unit || g.arrival_s != w.arrival_s ||
          g.start_s != w.start_s || g.finish_s != w.finish_s || g.latency_s != w.latency_s ||
          g.energy_J != w.energy_J) {
        FAIL_CHECK("job " << i << " differs");
        break;
      }
    }

    const std::vector<event_row> ev = r.events(), ev_want = test::sample_events();
    REQUIRE(ev.size() == ev_want.size());
    for (std::size_t i = 0; i < ev.size(); ++i) {
      CHECK(ev[i].time_s == ev_want[i].time_s);
      CHECK(ev[i].kind == ev_want[i].kind);
      CHECK(ev[i].source == ev_want[i].source);
      CHECK(ev[i].message == ev_want[i].message);  // includes UTF-8 ("→") and empty
      const bool both_nan = std::isnan(ev[i].value) && std::isnan(ev_want[i].value);
      CHECK((ev[i].value == ev_want[i].value || both_nan));
    }

    const std::vector<floorplan_row> fp = r.floorplan(), fp_want = test::sample_floorplan();
    REQUIRE(fp.size() == fp_want.size());
    for (std::size_t i = 0; i < fp.size(); ++i) {
      CHECK(fp[i].name == fp_want[i].name);
      CHECK(fp[i].x_m == fp_want[i].x_m);
      CHECK(fp[i].y_m == fp_want[i].y_m);
      CHECK(fp[i].width_m == fp_want[i].width_m);
      CHECK(fp[i].height_m == fp_want[i].height_m);
    }

    const run_summary s = r.summary(), s_want = test::sample_summary();
    CHECK(s.throughput_units == "inferences/s");
    REQUIRE(s.metrics.size() == s_want.metrics.size());
    for (const auto& [metric_name, m_want] : s_want.metrics) {
      const std::string& name = metric_name;  // CAPTURE cannot capture a structured binding
      CAPTURE(name);
      REQUIRE(s.metrics.count(name) == 1);
      CHECK(s.metrics.at(name).value == m_want.value);
      CHECK(s.metrics.at(name).units == m_want.units);
    }
  }
}

TEST_CASE("timeseries chunks fit the number of samples the run expects") {
  const fs::path dir = scratch("chunk_rows");
  const auto chunk_rows = [](const fs::path& file) {
    const hid_t f = H5Fopen(file.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
    const hid_t ds = H5Dopen2(f, "timeseries/power", H5P_DEFAULT);
    const hid_t dcpl = H5Dget_create_plist(ds);
    hsize_t chunk[2] = {0, 0};
    H5Pget_chunk(dcpl, 2, chunk);
    H5Pclose(dcpl);
    H5Dclose(ds);
    H5Fclose(f);
    return chunk[0];
  };
  // expected samples -> rows a chunk: the next power of two from 64, at most 4096; no hint: 4096.
  const std::vector<std::pair<std::size_t, hsize_t>> cases = {{1, 64}, {100, 128}, {128, 128}, {129, 256},
                                                              {20000, 4096}, {0, 4096}};
  for (const auto& c : cases) {
    const std::size_t expected = c.first;
    const hsize_t rows = c.second;
    CAPTURE(expected);
    // More samples than expected too (a hint, not a limit): several chunks, read back exactly.
    for (std::size_t n : {expected, expected + 300}) {
      const fs::path file = dir / ("run" + std::to_string(expected) + "_" + std::to_string(n) + ".h5");
      test::write_sample(file, n, 3, 0, default_ops_limit, expected);
      CHECK(chunk_rows(file) == rows);
      check_timeseries(result_reader(file), n);
    }
  }
}

TEST_CASE("the file is stored chunked, compressed, with time in s and dimension scales") {
  const fs::path file = scratch("storage") / "run.h5";
  test::write_sample(file, 300, 3);
  const hid_t f = H5Fopen(file.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  REQUIRE(f >= 0);
  const hid_t ds = H5Dopen2(f, "timeseries/power", H5P_DEFAULT);
  REQUIRE(ds >= 0);
  const hid_t dcpl = H5Dget_create_plist(ds);
  CHECK(H5Pget_layout(dcpl) == H5D_CHUNKED);
  hsize_t chunk[2] = {0, 0};
  CHECK(H5Pget_chunk(dcpl, 2, chunk) == 2);
  CHECK(chunk[1] == 3);  // whole rows: one chunk holds every component of a time range
  CHECK(H5Pget_nfilters(dcpl) == 3);  // shuffle + deflate + Fletcher-32, in that order
  unsigned flags = 0;
  std::size_t nelmts = 0;
  CHECK(H5Pget_filter2(dcpl, 0, &flags, &nelmts, nullptr, 0, nullptr, nullptr) == H5Z_FILTER_SHUFFLE);
  nelmts = 0;
  CHECK(H5Pget_filter2(dcpl, 1, &flags, &nelmts, nullptr, 0, nullptr, nullptr) == H5Z_FILTER_DEFLATE);
  nelmts = 0;
  CHECK(H5Pget_filter2(dcpl, 2, &flags, &nelmts, nullptr, 0, nullptr, nullptr) == H5Z_FILTER_FLETCHER32);
  // The 1.10 format: superblock version 3, whose metadata HDF5 checksums.
  H5F_info2_t info{};
  CHECK(H5Fget_info2(f, &info) >= 0);
  CHECK(info.super.version >= 2);
  const hid_t space = H5Dget_space(ds);
  hsize_t dims[2], max_dims[2];
  H5Sget_simple_extent_dims(space, dims, max_dims);
  CHECK(dims[0] == 300);
  CHECK(max_dims[0] == H5S_UNLIMITED);
  H5Sclose(space);
  H5Pclose(dcpl);
  H5Dclose(ds);
  H5Fclose(f);

  // Units of every time and duration column, read through the public reader's layout and
  // the raw attributes (the reader shares the writer's code, so check raw HDF5 too).
  auto units_of = [&](const char* path) {
    const hid_t file_id = H5Fopen(file.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
    const hid_t a = H5Aopen_by_name(file_id, path, "units", H5P_DEFAULT, H5P_DEFAULT);
    const hid_t t = H5Aget_type(a);
    std::string value;
    if (H5Tget_class(t) == H5T_STRING && H5Tis_variable_str(t) == 0) {  // fixed-length since 1.3
      value.assign(H5Tget_size(t), '\0');
      H5Aread(a, t, value.data());
      value.resize(value.find('\0') == std::string::npos ? value.size() : value.find('\0'));
    }
    H5Tclose(t);
    H5Aclose(a);
    H5Fclose(file_id);
    return value;
  };
  CHECK(units_of("timeseries/time") == "s");
  for (const char* p : {"jobs/arrival_s", "jobs/start_s", "jobs/finish_s", "jobs/latency_s",
                        "events/time_s", "summary/latency_p50_s", "summary/latency_p99_s"})
    CHECK_MESSAGE(units_of(p) == "s", p);
  CHECK(units_of("jobs/energy_J") == "J");
  CHECK(units_of("floorplan/width") == "m");
  CHECK(units_of("summary/throughput") == "inferences/s");
}

TEST_CASE("the result exists under .part while written and under its name only after commit") {
  const fs::path dir = scratch("part");
  const fs::path file = dir / "run.h5";
  // A stale .part from a crashed run does not block a new run.
  std::ofstream(part_of(file)) << "stale";
  {
    result_writer w(file, test::sample_metadata(), test::sample_layout(), 0.01);
    CHECK(w.final_path() == file);
    CHECK(fs::exists(part_of(file)));
    CHECK_FALSE(fs::exists(file));
    w.commit(1.0);
    CHECK_FALSE(fs::exists(part_of(file)));
    CHECK(fs::exists(file));
    CHECK_THROWS_AS(w.commit(1.0), std::logic_error);
  }
  CHECK(fs::exists(file));  // destruction after commit keeps the result
  CHECK(result_reader(file).time().empty());
}

TEST_CASE("destroying an uncommitted writer leaves no file") {
  const fs::path dir = scratch("abandon");
  const fs::path file = dir / "run.h5";
  {
    const timeseries_layout l = test::sample_layout();
    result_writer w(file, test::sample_metadata(), l, 0.01);
    std::vector<double> row(8, 1.0);
    std::vector<const double*> ptrs(l.variables.size(), row.data());
    for (int i = 0; i < 600; ++i) w.append_sample(i * 0.01, ptrs);  // some chunks on disk
    w.add_job(test::sample_job(1));
    CHECK(fs::exists(part_of(file)));
  }
  CHECK_FALSE(fs::exists(part_of(file)));
  CHECK_FALSE(fs::exists(file));
  CHECK(fs::is_empty(dir));
}

TEST_CASE("writer errors name the file and print nothing on stderr") {
  const fs::path dir = scratch("writer_errors");
  const fs::path file = dir / "no_such_dir" / "run.h5";
  stderr_capture cap(dir / "stderr.txt");
  const std::string msg = error_of([&] {
    result_writer w(file, test::sample_metadata(), test::sample_layout(), 0.01);
  });
  CHECK(cap.text().empty());
  CHECK(msg.find(part_of(file).string()) != std::string::npos);
  CHECK(msg.find("cannot create") != std::string::npos);

  timeseries_layout bad = test::sample_layout();
  bad.variables.push_back({"leakage", "core", "W", "no such coordinate"});
  const std::string msg2 = error_of([&] {
    result_writer w(dir / "bad.h5", test::sample_metadata(), bad, 0.01);
  });
  CHECK(msg2.find("bad.h5") != std::string::npos);
  CHECK(msg2.find("core") != std::string::npos);
  CHECK_FALSE(fs::exists(dir / "bad.h5.part"));
}

TEST_CASE("the reader rejects files that are not ptsim results, naming the file") {
  const fs::path dir = scratch("reject");
  stderr_capture cap(dir / "stderr.txt");

  SUBCASE("missing file") {
    const std::string msg = error_of([&] { result_reader r(dir / "absent.h5"); });
    CHECK(msg.find((dir / "absent.h5").string()) != std::string::npos);
  }
  SUBCASE("random bytes") {
    const fs::path file = dir / "random.h5";
    std::mt19937 gen(7);
    std::ofstream out(file, std::ios::binary);
    for (int i = 0; i < 8192; ++i) out.put(static_cast<char>(gen() & 0xff));
    out.close();
    const std::string msg = error_of([&] { result_reader r(file); });
    CHECK(msg.find(file.string() + ": not a ptsim result file (") == 0);
  }
  SUBCASE("truncated to half") {
    const fs::path file = dir / "truncated.h5";
    test::write_sample(file, 300, 100);
    fs::resize_file(file, fs::file_size(file) / 2);
    const std::string msg = error_of([&] { result_reader r(file); });
    CHECK(msg.find(file.string() + ": not a ptsim result file (") == 0);
  }
  SUBCASE("an HDF5 file without the root attributes") {
    const fs::path file = dir / "plain.h5";
    H5Fclose(H5Fcreate(file.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT));
    const std::string msg = error_of([&] { result_reader r(file); });
    CHECK(msg.find(file.string() + ": not a ptsim result file (") == 0);
    CHECK(msg.find("schema_version") != std::string::npos);
  }
  SUBCASE("another major schema version") {
    const fs::path file = dir / "future.h5";
    test::write_sample(file, 10, 1);
    // Rewrite the version attributes as a future ptsim would.
    const hid_t f = H5Fopen(file.c_str(), H5F_ACC_RDWR, H5P_DEFAULT);
    REQUIRE(f >= 0);
    const std::int64_t major = 2;
    const hid_t a = H5Aopen(f, "schema_version_major", H5P_DEFAULT);
    H5Awrite(a, H5T_NATIVE_INT64, &major);
    H5Aclose(a);
    H5Adelete(f, "schema_version");
    const hid_t t = H5Tcopy(H5T_C_S1);
    H5Tset_size(t, 3);
    const hid_t s = H5Screate(H5S_SCALAR);
    const hid_t v = H5Acreate2(f, "schema_version", t, s, H5P_DEFAULT, H5P_DEFAULT);
    H5Awrite(v, t, "2.3");
    H5Aclose(v);
    H5Sclose(s);
    H5Tclose(t);
    H5Fclose(f);
    const std::string msg = error_of([&] { result_reader r(file); });
    CHECK(msg.find(file.string()) == 0);
    CHECK(msg.find("2.3") != std::string::npos);  // the file's version
    CHECK(msg.find("1.x") != std::string::npos);  // the versions this ptsim reads
  }
  CHECK(cap.text().empty());  // no HDF5 error stack on stderr
}

TEST_CASE("a large scenario text (over HDF5's 64 KiB attribute header limit) round-trips") {
  const fs::path file = scratch("large_scenario") / "run.h5";
  run_metadata meta = test::sample_metadata();
  meta.scenario_yaml.clear();
  for (int i = 0; meta.scenario_yaml.size() < (1u << 20); ++i)
    meta.scenario_yaml +=
        "block_" + std::to_string(i) + ": { x: \"" + std::to_string(i) + " mm\" }\n";
  {
    result_writer w(file, meta, test::sample_layout(), 0.01);
    w.commit(0.5);
  }
  CHECK(result_reader(file).metadata().scenario_yaml == meta.scenario_yaml);
}

TEST_CASE("append_sample checks the number of variables") {
  const fs::path file = scratch("arity") / "run.h5";
  result_writer w(file, test::sample_metadata(), test::sample_layout(), 0.01);
  const double x[4] = {1, 2, 3, 4};
  CHECK_THROWS_AS(w.append_sample(0.0, {x, x}), std::invalid_argument);
}

TEST_CASE("schema 1.5: every request's state, NaN times of unfinished ones, peaks' window_s, labelled metrics") {
  const fs::path file = scratch("states") / "run.h5";
  const double nan = std::nan("");
  {
    result_writer w(file, test::sample_metadata(), test::sample_layout(), test::record_period_s);
    job_row done = test::sample_job(0), open, dropped;
    open.id = 7;
    open.stream = "chat";
    open.arrival_s = 1.5;
    open.start_s = open.finish_s = open.latency_s = open.first_token_s = nan;
    open.tokens_in = 300;
    open.state = "unfinished";
    dropped.id = -1;
    dropped.stream = "chat";
    dropped.arrival_s = 1.75;
    dropped.start_s = dropped.finish_s = dropped.latency_s = dropped.first_token_s = nan;
    dropped.state = "dropped";
    for (const job_row& j : {done, open, dropped}) w.add_job(j);
    run_summary s;
    s.throughput_units = "tokens/s";
    s.metrics["peak_power_W"] = {3.5, "W", 0.01};
    s.metrics["ttft_p99_s[chat]"] = {0.25, "s"};
    s.metrics["energy_J[gpu0]"] = {12.0, "J"};
    w.set_summary(s);
    w.commit(1);
  }
  const result_reader r(file);
  const auto jobs = r.jobs();
  REQUIRE(jobs.size() == 3);
  CHECK(jobs[0].state == "finished");
  CHECK(jobs[1].state == "unfinished");
  CHECK(jobs[1].id == 7);
  CHECK(jobs[1].arrival_s == 1.5);
  CHECK(std::isnan(jobs[1].finish_s));
  CHECK(std::isnan(jobs[1].latency_s));
  CHECK(jobs[1].tokens_in == 300);
  CHECK(jobs[2].state == "dropped");
  CHECK(jobs[2].id == -1);
  const run_summary s = r.summary();
  CHECK(s.metrics.at("peak_power_W").window_s == 0.01);
  CHECK(std::isnan(s.metrics.at("ttft_p99_s[chat]").window_s));  // not a peak: no attribute
  CHECK(s.metrics.at("ttft_p99_s[chat]").value == 0.25);
  CHECK(s.metrics.at("energy_J[gpu0]").units == "J");
  // The labelled metrics carry the catalogue's direction and meaning, as the others do.
  hid_t f = H5Fopen(file.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  REQUIRE(f >= 0);
  hid_t ds = H5Dopen2(f, "summary/ttft_p99_s[chat]", H5P_DEFAULT);
  CHECK(H5Aexists(ds, "better") > 0);
  CHECK(H5Aexists(ds, "window_s") == 0);
  H5Dclose(ds);
  ds = H5Dopen2(f, "summary/peak_power_W", H5P_DEFAULT);
  CHECK(H5Aexists(ds, "window_s") > 0);
  H5Dclose(ds);
  H5Fclose(f);
}
