// An llm stream's KV cache sized as its serving engine sizes it: memory_utilization (vLLM:
// a share of the whole memory, weights included) or kv_cache_free_fraction (TensorRT-LLM: a
// share of what the weights leave free).
#include <doctest/doctest.h>

#include <string>

#include "helpers.hpp"
#include "ptsim/tlm_config/decoder.hpp"

namespace ps = ptsim::scenarios;
namespace tc = ptsim::tlm_config;
using namespace scen_test;

namespace {

const std::string serving = PTSIM_SOURCE_DIR "/scenarios/server-llm-serving.yaml";

// The stream's weights per rank and its first rank's memory capacity, from the loaded scenario.
struct placement {
  double weights_B = 0;
  double capacity_B = 0;
  double reserved_B = 0;  // the scenario's reserved_memory
};
placement placement_of(const ps::scenario& sc) {
  const tc::llm_config& l = sc.workload.streams.at(0).llm;
  tc::decoder_options o;
  o.tensor_parallel = l.tensor_parallel;
  o.weights = l.weights;
  placement p;
  p.weights_B = tc::decoder_weight_bytes_per_rank(l.shape, o);
  p.reserved_B = l.reserved_bytes;
  for (const auto& m : sc.platform.memories)
    if (m.name == "hbm0") p.capacity_B = m.capacity_B;
  REQUIRE(p.capacity_B > 0);
  return p;
}

}  // namespace

TEST_CASE("KV cache: a share of the whole memory by default, a share of the free memory with kv_cache_free_fraction") {
  // Llama-2-70B FP8 at TP4: one rank per GPU, each GPU its own HBM.
  const auto vllm = ps::load_scenario_file(serving, with_sets({"workload.streams.chat.llm.memory_utilization=0.8"}));
  const placement p = placement_of(vllm);
  CHECK(vllm.workload.streams.at(0).llm.kv_cache_bytes ==
        doctest::Approx(0.8 * p.capacity_B - p.weights_B - p.reserved_B));

  const auto trt = ps::load_scenario_file(serving, with_sets({"workload.streams.chat.llm.kv_cache_free_fraction=0.8"}));
  CHECK(trt.workload.streams.at(0).llm.kv_share_of_free);
  CHECK(trt.workload.streams.at(0).llm.kv_cache_bytes ==
        doctest::Approx(0.8 * (p.capacity_B - p.weights_B - p.reserved_B)));
  // The free-memory rule leaves the weights (and reserve) out of the share: 0.2 x them more at 0.8.
  CHECK(trt.workload.streams.at(0).llm.kv_cache_bytes - vllm.workload.streams.at(0).llm.kv_cache_bytes ==
        doctest::Approx(0.2 * (p.weights_B + p.reserved_B)));
}

TEST_CASE("KV cache: the engine's reserved memory is left out under both rules") {
  const auto vllm = ps::load_scenario_file(serving, with_sets({"workload.streams.chat.llm.memory_utilization=0.8",
                                                               "workload.streams.chat.llm.reserved_memory=4 GiB"}));
  const placement p = placement_of(vllm);
  const double reserved = 4.0 * 1024 * 1024 * 1024;
  CHECK(vllm.workload.streams.at(0).llm.reserved_bytes == doctest::Approx(reserved));
  CHECK(vllm.workload.streams.at(0).llm.kv_cache_bytes == doctest::Approx(0.8 * p.capacity_B - p.weights_B - reserved));
  const auto trt = ps::load_scenario_file(serving, with_sets({"workload.streams.chat.llm.kv_cache_free_fraction=0.8",
                                                              "workload.streams.chat.llm.reserved_memory=4 GiB"}));
  CHECK(trt.workload.streams.at(0).llm.kv_cache_bytes ==
        doctest::Approx(0.8 * (p.capacity_B - p.weights_B - reserved)));
  // The default, written out, is accepted; a negative reserve is not.
  CHECK(ps::load_scenario_file(serving, with_sets({"workload.streams.chat.llm.reserved_memory=0 GB"}))
            .workload.streams.at(0).llm.reserved_bytes == 0);
  CHECK_FALSE(diagnostics_of([] {
                ps::load_scenario_file(serving, with_sets({"workload.streams.chat.llm.reserved_memory=-1 GB"}));
              }).empty());
  // A reserve that leaves no room is refused at the memory, as weights that do not fit are.
  const auto full = diagnostics_of([] {
    ps::load_scenario_file(serving, with_sets({"workload.streams.chat.llm.reserved_memory=60 GB"}));
  });
  bool no_room = false;
  for (const auto& d : full) no_room = no_room || contains(d.message, "no room for a KV cache");
  CHECK(no_room);
}

TEST_CASE("KV cache: one sizing rule at a time") {
  const auto both = diagnostics_of([] {
    ps::load_scenario_file(serving, with_sets({"workload.streams.chat.llm.memory_utilization=0.9",
                                               "workload.streams.chat.llm.kv_cache_free_fraction=0.9"}));
  });
  const auto d = only_at(both, "workload.streams.chat.llm.kv_cache_free_fraction");
  CHECK_MESSAGE(contains(d.message, "not both"), d.to_string());

  const auto sized = diagnostics_of([] {
    ps::load_scenario_file(serving, with_sets({"workload.streams.chat.llm.kv_cache=20 GB",
                                               "workload.streams.chat.llm.kv_cache_free_fraction=0.9"}));
  });
  const auto e = only_at(sized, "workload.streams.chat.llm.kv_cache_free_fraction");
  CHECK_MESSAGE(contains(e.message, "give one"), e.to_string());

  const auto out_of_range = diagnostics_of([] {
    ps::load_scenario_file(serving, with_sets({"workload.streams.chat.llm.kv_cache_free_fraction=1.2"}));
  });
  CHECK(only_at(out_of_range, "workload.streams.chat.llm.kv_cache_free_fraction").message.find("1.2") != std::string::npos);
}
