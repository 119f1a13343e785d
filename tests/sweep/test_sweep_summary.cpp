// summary.csv and summary.h5 of a hand-built table: exact CSV text (quoting, empty cells for
// failed runs, numbers that read back exactly) and the HDF5 file read back.
#include <doctest/doctest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>
#include <sstream>
#include <unistd.h>

#include "ptsim/postproc/metric_catalogue.hpp"
#include "ptsim/postproc/sweep_summary.hpp"

namespace pp = ptsim::postproc;
namespace fs = std::filesystem;

namespace {

constexpr double nan = std::numeric_limits<double>::quiet_NaN();

pp::sweep_summary sample() {
  pp::sweep_summary s;
  s.sweep_name = "sample";
  s.ptsim_version = "9.9.9";
  s.param_names = {"policy.governor", "seed"};
  s.metric_names = {"energy_J", "latency_p99_s"};
  s.metric_units = {"J", "s"};
  s.throughput_units = "inferences/s";
  s.rows.resize(3);
  s.rows[0] = {0, "performance_s1-0123456789", true, "", {"performance", "1"}, {0.1, 1e-300}, 1.5, "node1", 0};
  s.rows[1] = {1, "x_s2-abcdefabcd", false, "bad, \"quoted\"", {"x,y", "2"}, {nan, nan}, nan, "node2", 1};
  s.rows[2] = {2, "powersave_s3-9999999999", true, "", {"powersave", "3"}, {2.5, nan}, 0.25, "node1", 0};
  return s;
}

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

bool same(double a, double b) { return (std::isnan(a) && std::isnan(b)) || a == b; }

}  // namespace

TEST_CASE("summary.csv: header, then one row per run; failed runs have empty metric cells") {
  CHECK(pp::sweep_summary_csv(sample()) ==
        "run_id,status,error,policy.governor,seed,energy_J,latency_p99_s,wall_s,wall_host,wall_rank\n"
        "performance_s1-0123456789,ok,,performance,1,0.1,1e-300,1.5,node1,0\n"
        "x_s2-abcdefabcd,failed,\"bad, \"\"quoted\"\"\",\"x,y\",2,,,,node2,1\n"
        "powersave_s3-9999999999,ok,,powersave,3,2.5,nan,0.25,node1,0\n");
}

TEST_CASE("metrics are ordered as the catalogue lists them, others after by name") {
  // The contract's nine first (DESIGN.md's order), then the catalogue's others, then unknown.
  CHECK(pp::order_metrics({"zzz", "completed", "throughput", "energy_J", "aaa", "throttled_fraction"}) ==
        std::vector<std::string>{"energy_J", "throughput", "throttled_fraction", "completed", "aaa", "zzz"});
}

TEST_CASE("write_sweep_summary writes both files whole, and summary.h5 reads back") {
  const fs::path dir = fs::path(PTSIM_BINARY_DIR) / "sweep-scratch" / ("summary-" + std::to_string(getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  const auto s = sample();
  pp::write_sweep_summary(dir, s);
  CHECK(slurp(dir / "summary.csv") == pp::sweep_summary_csv(s));
  CHECK_FALSE(fs::exists(dir / "summary.h5.part"));
  CHECK_FALSE(fs::exists(dir / "summary.csv.part"));

  const auto back = pp::read_sweep_summary(dir / "summary.h5");
  CHECK(back.sweep_name == "sample");
  CHECK(back.ptsim_version == "9.9.9");
  CHECK(back.throughput_units == "inferences/s");
  CHECK(back.param_names == s.param_names);
  CHECK(back.metric_names == s.metric_names);
  CHECK(back.metric_units == s.metric_units);
  REQUIRE(back.rows.size() == 3);
  for (std::size_t i = 0; i < 3; ++i) {
    const auto &a = s.rows[i], &b = back.rows[i];
    CHECK(b.index == a.index);
    CHECK(b.run_id == a.run_id);
    CHECK(b.ok == a.ok);
    CHECK(b.error == a.error);
    CHECK(b.params == a.params);
    for (std::size_t k = 0; k < 2; ++k) CHECK(same(b.metrics[k], a.metrics[k]));
    CHECK(same(b.wall_s, a.wall_s));
    CHECK(b.wall_host == a.wall_host);
    CHECK(b.wall_rank == a.wall_rank);
  }
  // Written again (a resumed sweep), the files are replaced, not appended to.
  pp::write_sweep_summary(dir, s);
  CHECK(pp::read_sweep_summary(dir / "summary.h5").rows.size() == 3);
  CHECK_THROWS_WITH_AS(pp::read_sweep_summary(dir / "summary.csv"), doctest::Contains("not a ptsim sweep summary"),
                       std::runtime_error);
  fs::remove_all(dir);
}
