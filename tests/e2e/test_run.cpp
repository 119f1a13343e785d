// End to end: the real ptsim on the real default scenario, read back from HDF5.
#include <doctest/doctest.h>

#include "relative_approx.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <map>
#include <numeric>
#include <regex>

#include "ptsim/postproc/result_file.hpp"
#include "run_ptsim.hpp"

using namespace e2e;
using ptsim::postproc::result_reader;

namespace {
// One shared run of the default scenario per governor, made on first use.
const fs::path& governor_run(const std::string& governor) {
  static scratch dir("governors");
  static std::map<std::string, fs::path> runs;
  auto it = runs.find(governor);
  if (it != runs.end()) return it->second;
  const fs::path out = dir.dir / (governor + ".h5");
  const result r = run_ptsim(dir.dir, "run -q -o " + out.string() + " --set policy.governor=" + governor +
                                      " --set policy.thermal.governor=none");
  REQUIRE_MESSAGE(r.exit_code == 0, r.err);
  return runs[governor] = out;
}
}  // namespace

TEST_CASE("the default run writes the result contract") {
  scratch s("contract");
  const result r = run_ptsim(s.dir, "run -o out.h5");
  REQUIRE_MESSAGE(r.exit_code == 0, r.err);
  CHECK(r.out.find("result: out.h5") != std::string::npos);
  CHECK(fs::exists(s.dir / "out.h5"));
  CHECK_FALSE(fs::exists(s.dir / "out.h5.part"));

  result_reader f(s.dir / "out.h5");
  const auto& meta = f.metadata();
  CHECK(meta.scenario_name == "phone-camera");
  CHECK(meta.seed == 1);
  CHECK(meta.scenario_yaml.find("name: phone-camera") != std::string::npos);
  CHECK_FALSE(meta.ptsim_version.empty());

  // Timeseries: the five contract variables with their units, on their coordinates.
  const auto layout = f.layout();
  const std::map<std::string, std::pair<std::string, std::string>> want = {
      {"temperature", {"block", "degC"}}, {"power", {"component", "W"}}, {"frequency", {"domain", "Hz"}},
      {"voltage", {"domain", "V"}},       {"utilization", {"domain", "1"}}};
  for (const auto& entry : want) {  // not a structured binding: the lambda captures it
    const std::string& name = entry.first;
    const auto& dim_units = entry.second;
    auto v = std::find_if(layout.variables.begin(), layout.variables.end(), [&](auto& x) { return x.name == name; });
    REQUIRE_MESSAGE(v != layout.variables.end(), name);
    CHECK(v->dim == dim_units.first);
    CHECK(v->units == dim_units.second);
  }
  const auto time = f.time();
  // 20 s at a 10 ms record period: samples at 0.01 .. 20.00 s.
  REQUIRE(time.size() == 2000);
  CHECK(time.front() == ptsim_test::Approx(0.01));
  CHECK(time.back() == ptsim_test::Approx(20.0));
  CHECK(f.coord("domain") == std::vector<std::string>{"little", "mid", "big", "npu"});

  // Summary: every metric of the contract, with units.
  const auto& sum = f.summary();
  for (const char* m : {"energy_J", "avg_power_W", "peak_power_W", "throughput", "perf_per_watt", "latency_p50_s",
                        "latency_p99_s", "peak_temperature_C", "throttled_fraction"}) {
    REQUIRE_MESSAGE(sum.metrics.count(m), m);
    CHECK_FALSE(sum.metrics.at(m).units.empty());
    CHECK(std::isfinite(sum.metrics.at(m).value));
  }
  CHECK(sum.throughput_units == "inferences/s");
  // 30 fps for 20 s: 600 frames arrive at 0, 1/30, ..., 19.967 s; each finishes within ms.
  CHECK(sum.metrics.at("throughput").value == ptsim_test::Approx(30.0).epsilon(1e-9));
  // Every request that arrived within [0, 20 s) has a row: all 600 finished.
  CHECK(f.jobs().size() == 600);
  CHECK(sum.metrics.at("completed").value == 600);
  CHECK(sum.metrics.at("unfinished").value == 0);

  // The components are disjoint: the timeseries power (means over each record period)
  // integrates to the run's energy, and avg_power is that energy over the duration.
  std::size_t ncomp = 0;
  const auto power = f.variable("power", &ncomp);
  const double energy = std::accumulate(power.begin(), power.end(), 0.0) * 0.01;
  CHECK(energy == ptsim_test::Approx(sum.metrics.at("energy_J").value).epsilon(1e-9));
  CHECK(sum.metrics.at("avg_power_W").value == ptsim_test::Approx(energy / 20.0).epsilon(1e-9));

  // Jobs: latency = finish - arrival, all in the run.
  for (const auto& j : f.jobs()) {
    CHECK(j.latency_s == ptsim_test::Approx(j.finish_s - j.arrival_s));
    CHECK(j.start_s >= j.arrival_s);
    CHECK(j.finish_s <= 20.0);
  }

  // job_energy: each finished job's energy by component, a row summing to its energy_J.
  // Every busy second of the NPU is a frame's, so its column sums to the NPU's energy; and
  // every component's energy is shared among the frames but a compute unit's that was never
  // busy (no frame to charge: a CPU cluster EAS left idle), so the rows sum to the run's
  // energy less those units'.
  const auto split = f.job_energy();
  const auto jobs = f.jobs();
  REQUIRE(split.ids.size() == jobs.size());
  CHECK(split.components == f.coord("component"));
  const std::size_t nc = split.components.size();
  const std::size_t npu = static_cast<std::size_t>(
      std::find(split.components.begin(), split.components.end(), "npu") - split.components.begin());
  REQUIRE(npu < nc);
  double npu_J = 0, all_J = 0;
  for (std::size_t r = 0; r < jobs.size(); ++r) {
    CHECK(split.ids[r] == jobs[r].id);
    const double row = std::accumulate(split.joules.begin() + r * nc, split.joules.begin() + (r + 1) * nc, 0.0);
    CHECK(row == ptsim_test::Approx(jobs[r].energy_J).epsilon(1e-12));
    CHECK(split.joules[r * nc + npu] > 0);
    npu_J += split.joules[r * nc + npu];
    all_J += row;
  }
  CHECK(npu_J == ptsim_test::Approx(sum.metrics.at("energy_J[npu]").value).epsilon(1e-9));
  double never_busy_J = 0;
  for (std::size_t c = 0; c < nc; ++c) {
    double column = 0;
    for (std::size_t r = 0; r < jobs.size(); ++r) column += split.joules[r * nc + c];
    if (column == 0) never_busy_J += sum.metrics.at("energy_J[" + split.components[c] + "]").value;
  }
  CHECK(all_J + never_busy_J == ptsim_test::Approx(sum.metrics.at("energy_J").value).epsilon(1e-9));
}

namespace {
// default.yaml's OPP tables (gs101 clusters 0-2 and the NPU): highest and lowest, Hz.
const std::map<std::string, std::pair<double, double>> default_opp_range = {
    {"little", {1803e6, 300e6}}, {"mid", {2253e6, 400e6}}, {"big", {2802e6, 500e6}}, {"npu", {1200e6, 200e6}}};

// frequency(time, domain) of a run, one vector per domain name.
std::map<std::string, std::vector<double>> frequencies(const result_reader& f) {
  std::size_t nd = 0;
  const auto freq = f.variable("frequency", &nd);
  const auto domains = f.coord("domain");
  std::map<std::string, std::vector<double>> out;
  for (std::size_t t = 0; t < freq.size() / nd; ++t)
    for (std::size_t d = 0; d < nd; ++d) out[domains[d]].push_back(freq[t * nd + d]);
  return out;
}
}  // namespace

TEST_CASE("performance draws more power and answers sooner than powersave") {
  result_reader perf(governor_run("performance")), save(governor_run("powersave"));
  const auto& p = perf.summary().metrics;
  const auto& s = save.summary().metrics;
  CHECK(p.at("avg_power_W").value > s.at("avg_power_W").value);
  CHECK(p.at("latency_p99_s").value < s.at("latency_p99_s").value);
  // Each holds one frequency per domain, every sample: max under performance, min under powersave.
  const auto fp = frequencies(perf), fs_ = frequencies(save);
  REQUIRE(fp.size() == default_opp_range.size());
  for (const auto& entry : default_opp_range) {  // not bindings: CAPTURE's lambda (clang)
    const std::string& domain = entry.first;
    const auto& range = entry.second;
    CAPTURE(domain);
    REQUIRE(fp.count(domain) == 1);
    for (double hz : fp.at(domain)) CHECK(hz == ptsim_test::Approx(range.first));
    for (double hz : fs_.at(domain)) CHECK(hz == ptsim_test::Approx(range.second));
  }
}

TEST_CASE("schedutil, ondemand and conservative move with load and average below max") {
  for (const std::string gov : {"schedutil", "ondemand", "conservative"}) {
    CAPTURE(gov);
    const auto freq = frequencies(result_reader(governor_run(gov)));
    bool moved = false;
    for (const auto& entry : default_opp_range) {
      const std::string& domain = entry.first;
      const auto& range = entry.second;
      CAPTURE(domain);
      const auto& v = freq.at(domain);
      const auto [lo, hi] = std::minmax_element(v.begin(), v.end());
      moved = moved || *hi > *lo;
      for (double hz : v) CHECK(hz <= range.first * (1 + 1e-12));
      CHECK(std::accumulate(v.begin(), v.end(), 0.0) / static_cast<double>(v.size()) < range.first);
    }
    CHECK(moved);  // a 30 fps camera pipeline loads the clusters in bursts
  }
}

TEST_CASE("the same seed gives identical results, bit for bit") {
  scratch s("determinism");
  REQUIRE(run_ptsim(s.dir, "run -q -o a.h5 --seed 7").exit_code == 0);
  REQUIRE(run_ptsim(s.dir, "run -q -o b.h5 --seed 7").exit_code == 0);
  result_reader a(s.dir / "a.h5"), b(s.dir / "b.h5");
  for (const char* v : {"temperature", "power", "frequency", "voltage", "utilization"}) {
    const auto x = a.variable(v), y = b.variable(v);
    REQUIRE(x.size() == y.size());
    CHECK_MESSAGE(std::memcmp(x.data(), y.data(), x.size() * sizeof(double)) == 0, v);
  }
  CHECK(a.metadata().seed == 7);
}

TEST_CASE("a misspelled key fails naming its line and leaves no output") {
  scratch s("typo");
  std::string text = slurp(default_scenario());
  const std::string key = "\nduration:";
  const auto pos = text.find(key);
  REQUIRE(pos != std::string::npos);
  text.replace(pos, key.size(), "\nduraton:");
  const int line = static_cast<int>(std::count(text.begin(), text.begin() + static_cast<long>(pos) + 1, '\n')) + 1;
  std::ofstream(s.dir / "typo.yaml") << text;
  const result r = run_ptsim(s.dir, "run typo.yaml -o out.h5");
  CHECK(r.exit_code == 2);
  CHECK_MESSAGE(r.err.find("typo.yaml:" + std::to_string(line) + ":1: duraton: unknown key 'duraton' (did you mean 'duration'?)") != std::string::npos, r.err);
  CHECK_FALSE(fs::exists(s.dir / "out.h5"));
  CHECK_FALSE(fs::exists(s.dir / "out.h5.part"));
  CHECK_FALSE(fs::exists(s.dir / "results"));
}

TEST_CASE("an existing result is never overwritten without --force") {
  scratch s("clobber");
  std::ofstream(s.dir / "keep.h5") << "precious";
  const result r = run_ptsim(s.dir, "run -q -o keep.h5");
  CHECK(r.exit_code == 2);
  CHECK(r.err.find("--force") != std::string::npos);
  CHECK(slurp(s.dir / "keep.h5") == "precious");
  CHECK(run_ptsim(s.dir, "run -q -o keep.h5 --force").exit_code == 0);
  CHECK_NOTHROW(result_reader(s.dir / "keep.h5"));
}

TEST_CASE("without -o, runs land in results/ under fresh names") {
  scratch s("results");
  const result a = run_ptsim(s.dir, "run -q");
  const result b = run_ptsim(s.dir, "run -q");
  REQUIRE(a.exit_code == 0);
  REQUIRE(b.exit_code == 0);
  const std::regex name(R"(results/phone-camera-\d{8}-\d{6}(-\d+)?\.h5\n)");
  CHECK(std::regex_match(a.out, name));
  CHECK(std::regex_match(b.out, name));
  CHECK(a.out != b.out);
}

TEST_CASE("a bad --set path fails before running") {
  scratch s("badset");
  const result r = run_ptsim(s.dir, "run -o x.h5 --set policy.govrnor=performance");
  CHECK(r.exit_code == 2);
  CHECK(r.err.find("did you mean 'governor'") != std::string::npos);
  CHECK_FALSE(fs::exists(s.dir / "x.h5"));
}
