// Bad platforms and workloads: `ptsim run` refuses them with exit code 2 and a message
// naming file, line and column, before anything is simulated or written.
#include "scenario_run.hpp"

using namespace e2e_scenarios;

namespace {

struct refusal {
  e2e::result r;
  bool wrote;
};

refusal refuse(const std::string& file, const std::string& sets) {
  static e2e::scratch dir("bad-input");
  const e2e::result r = e2e::run_ptsim(dir.dir, "run -q -o bad.h5 --force " + library(file) + " " + sets);
  const bool wrote = e2e::fs::exists(dir.dir / "bad.h5") || e2e::fs::exists(dir.dir / "bad.h5.part");
  return {r, wrote};
}

bool has(const std::string& hay, const std::string& needle) { return hay.find(needle) != std::string::npos; }

}  // namespace

TEST_CASE("an unknown component kind") {
  const auto x = refuse("server-llm-serving.yaml", "--set platform.components.gpu3.kind=tpu");
  CHECK(x.r.exit_code == 2);
  CHECK(has(x.r.err, "unknown component kind 'tpu'"));
  CHECK(has(x.r.err, "did you mean 'gpu'"));
  CHECK_FALSE(x.wrote);
}

TEST_CASE("a link bound twice, and so another left unbound") {
  const auto x = refuse("server-llm-serving.yaml", "--set platform.components.gpu3.fabric=nvlink2");
  CHECK(x.r.exit_code == 2);
  // Reported where the components are declared: in the preset the scenario extends.
  CHECK(has(x.r.err, "server-8xh100.yaml:"));
  CHECK(has(x.r.err, "a nvlink link has one upstream end but is bound by gpu2, gpu3"));
  CHECK(has(x.r.err, "nvlink3: nothing connects to it"));
  CHECK_FALSE(x.wrote);
}

TEST_CASE("zero bandwidth") {
  const auto x = refuse("server-llm-serving.yaml", "--set 'platform.components.nvswitch.bandwidth=0 GB/s'");
  CHECK(x.r.exit_code == 2);
  CHECK(has(x.r.err, "expected a value > 0"));
}

TEST_CASE("impossible shapes") {
  const auto x = refuse("server-llm-serving.yaml", "--set workload.streams.chat.llm.tensor_parallel=3");
  CHECK(x.r.exit_code == 2);
  CHECK(has(x.r.err, "heads (64) do not split over 3 ranks"));
  CHECK(has(x.r.err, "8 units do not form instances of tensor_parallel 3"));
  // Pipeline stages: 8 units in instances of 4 x 3, and more stages than Llama-2-70B's 80 layers.
  const auto p = refuse("server-llm-serving.yaml", "--set workload.streams.chat.llm.pipeline_parallel=3");
  CHECK(p.r.exit_code == 2);
  CHECK(has(p.r.err, "8 units do not form instances of tensor_parallel 4 x pipeline_parallel 3"));
  const auto q = refuse("server-llm-serving.yaml", "--set workload.streams.chat.llm.tensor_parallel=1 "
                                                   "--set workload.streams.chat.llm.pipeline_parallel=88");
  CHECK(has(q.r.err, "layers (80) cannot fill 88 pipeline stages"));
  // A mixture of experts that routes each token to more experts than it has.
  const auto m = refuse("server-llm-serving.yaml", "--set workload.streams.chat.llm.model=mixtral_8x7b "
                                                   "--set workload.streams.chat.llm.params.experts_per_token=9");
  CHECK(m.r.exit_code == 2);
  CHECK(has(m.r.err, "experts_per_token (9) must be 1..8 (the experts)"));
  CHECK_FALSE(m.wrote);
  const auto y = refuse("server-training.yaml", "--set workload.streams.train.stages.1.params.heads=0");
  CHECK(y.r.exit_code == 2);
  CHECK(has(y.r.err, "'heads' must be >= 1"));
  CHECK_FALSE(y.wrote);
  const auto z = refuse("server-llm-serving.yaml", "--set workload.streams.chat.llm.model=mixtral_8x7b "
                                                   "--set workload.streams.chat.llm.params.experts=1e12");
  CHECK(z.r.exit_code == 2);
  CHECK(has(z.r.err, "'experts' must be <= 16777216, found 1e+12"));
  CHECK_FALSE(z.wrote);
}

TEST_CASE("a decode attention kernel that does not exist, and per_head on units without fp32") {
  const auto x = refuse("server-llm-serving.yaml", "--set workload.streams.chat.llm.decode_attention=xqa");
  CHECK(x.r.exit_code == 2);
  CHECK(has(x.r.err, "workload.streams.chat.llm.decode_attention: expected one of [grouped, per_head], found 'xqa'"));
  CHECK_FALSE(x.wrote);
  // per_head computes on the vector units at fp32: a GPU whose vector table lacks it is refused.
  const auto y = refuse("server-llm-serving.yaml", "--set workload.streams.chat.llm.decode_attention=per_head "
                                                   "--set 'templates.h100.vector_ops_per_cycle={fp16: 512}'");
  CHECK(y.r.exit_code == 2);
  CHECK(has(y.r.err, "server-llm-serving.yaml:20:9: workload.streams.chat.llm: 'gpu0' has no fp32 throughput for "
                     "decode_attention: per_head"));
  CHECK_FALSE(y.wrote);
}

TEST_CASE("a memory format that does not exist") {
  const auto x = refuse("node-training.yaml", "--set workload.streams.train.stages.0.memory_format=channels_last");
  CHECK(x.r.exit_code == 2);
  CHECK(has(x.r.err, "workload.streams.train.stages[0].memory_format: expected one of [nchw, nhwc], found 'channels_last'"));
  CHECK_FALSE(x.wrote);
}

TEST_CASE("a model that does not fit in memory") {
  // Llama-2-70B in bf16 on one GPU: 138 GB of weights and the engine's 5.4 GiB (5.8 GB) for
  // the 85.0 GB an H100 reports.
  const auto x = refuse("server-llm-serving.yaml",
                        "--set workload.streams.chat.llm.tensor_parallel=1 --set workload.streams.chat.llm.weights=bf16");
  CHECK(x.r.exit_code == 2);
  CHECK(has(x.r.err, "no room for a KV cache"));
  CHECK(has(x.r.err, "platform.components.hbm0.capacity: the models placed on units using it need 144 GB"));
  CHECK_FALSE(x.wrote);
}

TEST_CASE("a unit that does not exist, and one listed twice") {
  const auto x = refuse("server-cnn-offline.yaml", "--set workload.streams.offline.stages.0.units.3=gpu9");
  CHECK(x.r.exit_code == 2);
  CHECK(has(x.r.err, "workload.streams.offline.stages[0].units"));
  CHECK(has(x.r.err, "'gpu9' is not a compute unit"));
  const auto y = refuse("server-llm-serving.yaml", "--set workload.streams.chat.llm.units.1=gpu0");
  CHECK(y.r.exit_code == 2);
  CHECK(has(y.r.err, "'gpu0' is listed twice"));
}

TEST_CASE("a CPU cluster wired straight to a memory, and a transfer to nowhere") {
  const auto x = refuse("server-training.yaml", "--set platform.components.cpu0.connect=ddr0");
  CHECK(x.r.exit_code == 2);
  CHECK(has(x.r.err, "platform.components.cpu0.connect"));
  CHECK(has(x.r.err, "a cpu_cluster reaches memory through a noc"));
  const auto y = refuse("server-training.yaml", "--set workload.streams.train.stages.0.unit=cpu1");
  CHECK(y.r.exit_code == 2);
  CHECK(has(y.r.err, "'cpu1' cannot reach 'nvme0'"));
}

TEST_CASE("a directory or a device where a file is expected") {
  // A directory would open and read as empty text; /dev/zero would never end.
  const auto x = refuse("server-training.yaml", "--set workload.streams.train.stages.0.graph=graphs");
  CHECK(x.r.exit_code == 2);
  CHECK(has(x.r.err, "workload.streams.train.stages[0].graph: cannot read the graph file"));
  CHECK(has(x.r.err, "graphs': is a directory"));
  CHECK_FALSE(x.wrote);
  const auto y = refuse("server-llm-serving.yaml",
                        "--set workload.streams.chat.arrival.kind=trace --set workload.streams.chat.arrival.file=/dev/zero");
  CHECK(y.r.exit_code == 2);
  CHECK(has(y.r.err, "cannot open the trace file '/dev/zero': is a device, not a file"));
  CHECK_FALSE(y.wrote);
}
