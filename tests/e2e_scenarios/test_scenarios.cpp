// Every scenario of the library, shortened, through the real ptsim: the result contract
// (summary metrics with units, per-request jobs rows, timeseries over every domain), the
// throughput unit of its workload, and per-request tokens and energy.
#include "relative_approx.hpp"
#include <algorithm>
#include <cmath>
#include <numeric>
#include <set>

#include "scenario_run.hpp"

using namespace e2e_scenarios;
using ptsim::postproc::result_reader;

namespace {

struct expectation {
  const char* file;
  const char* name;
  const char* args;      ///< shortening overrides
  const char* units;     ///< throughput units
  std::size_t min_domains;
  bool llm;
};

const expectation all[] = {
    {"default.yaml", "phone-camera", "--set 'duration=2 s'", "inferences/s", 4, false},
    {"phone-llm-chat.yaml", "phone-llm-chat", "--set 'duration=12 s'", "tokens/s", 5, true},
    {"server-llm-serving.yaml", "server-llm-serving", "--set 'duration=3 s'", "tokens/s", 8, true},
    {"server-cnn-offline.yaml", "server-cnn-offline", "--set 'duration=1 s'", "inferences/s", 8, false},
    {"server-training.yaml", "server-training", "--set 'duration=1 s'", "samples/s", 8, false},
    {"phone-skin-throttle.yaml", "phone-skin-throttle", "--set 'duration=2 s'", "inferences/s", 4, false},
    {"node-training.yaml", "node-training", "--set 'duration=2 s'", "samples/s", 2, false},
    {"node-transformer-training.yaml", "node-transformer-training", "--set 'duration=1 s'", "samples/s", 2, false},
    {"node-llm-serving.yaml", "node-llm-serving", "--set 'duration=3 s'", "tokens/s", 2, true},
};

void check_contract(const expectation& e) {
  CAPTURE(e.file);
  result_reader f(result_of(e.file, e.args));
  CHECK(f.metadata().scenario_name == e.name);
  const auto& s = f.summary();
  for (const char* m : {"energy_J", "avg_power_W", "peak_power_W", "throughput", "perf_per_watt", "latency_p50_s",
                        "latency_p99_s", "peak_temperature_C", "throttled_fraction"}) {
    CAPTURE(m);
    REQUIRE(s.metrics.count(m));
    CHECK_FALSE(s.metrics.at(m).units.empty());
  }
  CHECK(s.throughput_units == e.units);
  CHECK(s.metrics.at("throughput").value > 0);
  CHECK(s.metrics.at("avg_power_W").value > 0);
  CHECK(f.coord("domain").size() >= e.min_domains);

  // Jobs: one row per request (or batch, or training step); the finished ones complete.
  const auto all_jobs = f.jobs();
  REQUIRE_FALSE(all_jobs.empty());
  std::vector<ptsim::postproc::job_row> jobs;
  std::size_t unfinished = 0, dropped = 0;
  for (const auto& j : all_jobs) {
    CAPTURE(j.state);
    if (j.state == "finished") {
      jobs.push_back(j);
      continue;
    }
    CHECK((j.state == "unfinished" || j.state == "dropped"));
    ++(j.state == "unfinished" ? unfinished : dropped);
    CHECK(std::isnan(j.finish_s));
    CHECK(std::isnan(j.latency_s));
    CHECK(std::isfinite(j.arrival_s));
  }
  CHECK(jobs.size() == s.metrics.at("completed").value);
  CHECK(unfinished == s.metrics.at("unfinished").value);
  CHECK(dropped == s.metrics.at("dropped").value);
  double job_energy = 0;
  std::set<std::int64_t> ids;
  for (const auto& j : jobs) {
    ids.insert(j.id);
    CHECK(j.start_s >= j.arrival_s);
    CHECK(j.finish_s >= j.start_s);
    CHECK(j.latency_s == ptsim_test::Approx(j.finish_s - j.arrival_s));
    CHECK(j.first_token_s >= j.start_s);
    CHECK(j.first_token_s <= j.finish_s);
    CHECK(j.energy_J > 0);
    CHECK_FALSE(j.unit.empty());
    job_energy += j.energy_J;
    if (e.llm) {
      CHECK(j.tokens_in > 0);
      CHECK(j.tokens_out > 0);
      CHECK(j.first_token_s < j.finish_s + 1e-12);
    } else {
      CHECK(j.tokens_in == 0);
      CHECK(j.first_token_s == j.finish_s);
    }
  }
  CHECK(ids.size() == jobs.size());
  // Jobs share out the platform's energy; finished ones cannot take more than all of it.
  CHECK(job_energy <= s.metrics.at("energy_J").value * (1 + 1e-9));
  if (e.llm) {
    // tokens/s counts every generated token, so at least those of finished requests.
    std::int64_t out = 0;
    for (const auto& j : jobs) out += j.tokens_out;
    const double duration = f.time().back();
    CHECK(s.metrics.at("throughput").value * duration >= static_cast<double>(out) - 1e-6);
  }
  // Where each compute unit's time went: by what bound its operators, and idle.
  const auto units = f.unit_summary();
  REQUIRE_FALSE(units.empty());
  double busy = 0;
  for (const auto& u : units) {
    busy += u.busy_s();
    CHECK(u.busy_s() + u.idle_s == ptsim_test::Approx(f.time().back()).epsilon(0.05));
  }
  CHECK(busy > 0);
}

}  // namespace

TEST_CASE("default scenario") { check_contract(all[0]); }
TEST_CASE("phone LLM chat") { check_contract(all[1]); }
TEST_CASE("server LLM serving") { check_contract(all[2]); }
TEST_CASE("server CNN offline") { check_contract(all[3]); }
TEST_CASE("server training") { check_contract(all[4]); }
TEST_CASE("phone skin throttle") { check_contract(all[5]); }
TEST_CASE("one-GPU node: A40 training") { check_contract(all[6]); }
TEST_CASE("one-GPU node: A100 transformer training") { check_contract(all[7]); }
TEST_CASE("one-GPU node: H100 LLM serving") { check_contract(all[8]); }

TEST_CASE("server LLM serving: two tensor-parallel instances, time to first token before the finish") {
  result_reader f(result_of(all[2].file, all[2].args));
  std::set<std::string> instances;
  for (const auto& j : f.jobs())
    if (j.state == "finished") instances.insert(j.unit);  // unfinished requests have no unit yet
  CHECK(instances == std::set<std::string>{"gpu0+gpu1+gpu2+gpu3", "gpu4+gpu5+gpu6+gpu7"});
  // Ten DVFS domains: one per GPU and per host CPU.
  CHECK(f.coord("domain").size() == 10);
}

TEST_CASE("server CNN offline: a jobs row per batch of 2048 images, spread over the GPUs") {
  result_reader f(result_of(all[3].file, all[3].args));
  std::vector<ptsim::postproc::job_row> jobs;
  for (const auto& j : f.jobs())
    if (j.state == "finished") jobs.push_back(j);
  std::set<std::string> gpus;
  for (const auto& j : jobs) gpus.insert(j.unit);
  CHECK(gpus.size() == 8);
  // Images per second: 2048 per finished batch over the run.
  CHECK(f.summary().metrics.at("throughput").value == ptsim_test::Approx(2048.0 * jobs.size() / f.time().back()));
}

TEST_CASE("one-GPU node: A40 training in NCHW pays cuDNN's transposes, channels last does not") {
  // The A40's TF32 convolutions run on its tensor cores: each between a transpose of its input
  // and one of its output (forward and backward), kernels named after it in the ops table.
  const std::string args = "--set 'duration=2 s' --set 'templates.loader.per_step=0 s'";
  result_reader nchw(result_of(all[6].file, args));
  result_reader nhwc(result_of(all[6].file, args + " --set workload.streams.train.stages.0.memory_format=nhwc"));
  // Kernels of finished steps only: the run's end may cut a step between a transpose pair.
  const auto count = [](const result_reader& f, const std::string& suffix) {
    double done = 0;
    for (const auto& j : f.jobs())
      if (!std::isnan(j.finish_s)) done = std::max(done, j.finish_s);
    int n = 0;
    for (const auto& r : f.ops().rows)
      if (r.end_s <= done && r.op.size() > suffix.size() &&
          r.op.compare(r.op.size() - suffix.size(), suffix.size(), suffix) == 0)
        ++n;
    return n;
  };
  CHECK(count(nchw, "_to_nhwc") > 0);
  CHECK(count(nchw, "_to_nhwc") == count(nchw, "_to_nchw"));
  CHECK(count(nhwc, "_to_nhwc") == 0);
  CHECK(count(nhwc, "_to_nchw") == 0);
  // The transposes are memory traffic the clock does not shorten: channels last trains faster.
  CHECK(nhwc.summary().metrics.at("throughput").value > 1.05 * nchw.summary().metrics.at("throughput").value);
}

TEST_CASE("the same scenario and seed give the same numbers") {
  result_reader a(result_of("server-llm-serving.yaml", "--set 'duration=1 s'"));
  result_reader b(result_of("server-llm-serving.yaml", "--set 'duration=1 s' --seed 1"));
  CHECK(a.summary().metrics.at("energy_J").value == b.summary().metrics.at("energy_J").value);
  CHECK(a.summary().metrics.at("throughput").value == b.summary().metrics.at("throughput").value);
  const auto ja = a.jobs(), jb = b.jobs();
  REQUIRE(ja.size() == jb.size());
  for (std::size_t i = 0; i < ja.size(); ++i) {
    CHECK(ja[i].state == jb[i].state);
    CHECK((ja[i].finish_s == jb[i].finish_s || (std::isnan(ja[i].finish_s) && std::isnan(jb[i].finish_s))));
  }
}
