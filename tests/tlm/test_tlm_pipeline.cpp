// Pipeline parallelism: two stages on two GPUs and their two micro-batch lanes, against
// the closed form of a pipeline whose slower stage never idles.
//
// Llama 3.2 1B (bf16, 16 layers, tied embeddings) on gpu0 (stage 0: the embedding and
// layers 0-7) and gpu1 (stage 1: layers 8-15 and the logits, which read the 128256 x
// 2048 embedding matrix). Each GPU has its own memory of 1 TB/s (efficiency 1, no
// latency), a 2 us launch per kernel and an NVLink of 100 GB/s and 1 us into a switch of
// 0.5 us; every collective or send pays 20 us (collective_latency). Eight closed-loop
// users with 16-token prompts and 65 output tokens: the two lanes hold 4 sequences each
// (max_batch 4 a lane).
//
// A decode step of one lane (4 sequences), memory-bound on every operator:
//   stage 0: 8 layers x 121,634,816 B (60,817,408 bf16 weights; norms 2 x 2048 x 2 B more)
//            = 973 MB, and 66 kernels (embedding, 8 x 8, the send); the send of 4 x 2048
//            x 2 B = 16 KiB: 16384 / 100e9 + 1.5 us + 20 us;
//   stage 1: the same 8 layers, the final norm and the LM head (525,336,576 B), 67
//            kernels (8 x 8, final norm, LM head, sampling).
//   t0 = 0.9731 ms + 132 us + 21.7 us = 1.127 ms, t1 = 1.4986 ms + 134 us = 1.633 ms.
// t1 > t0: gpu1 is the bottleneck. Lane A's stage 1 runs while lane B's stage 0 does, and
// each lane's next stage 1 waits for the other's: in steady state gpu1 never idles and a
// lane decodes a token every 2 x t1 = 3.27 ms (its KV reads add ~0.5 %). One GPU with the
// whole model would take 2.47 GB / 1 TB/s + 132 x 2 us = 2.74 ms a token for 4
// sequences: the two-stage pipeline serves 8 / (2 t1) = 2,449 tokens/s, 1.67x it.
#include "sc_test.hpp"

#include "ptsim/tlm_config/model_zoo.hpp"

using namespace sc_test;

TEST_CASE("pipeline parallelism: two stages, two lanes, the slower stage never idles") {
  const double bw = 1e12, launch = 2e-6, L = 20e-6;
  const decoder_shape shape = decoder_model("llama3_2_1b", {});
  const double layer_B = 60'817'408.0 * 2 + 2 * 2048 * 2.0, head_B = 128256.0 * 2048 * 2;
  const double send = 4 * 2048 * 2.0 / 100e9 + 1.5e-6 + L;
  const double t0 = 8 * layer_B / bw + 66 * launch + send;
  const double t1 = (8 * layer_B + head_B + 2048 * 2.0) / bw + 67 * launch;
  REQUIRE(t1 > t0);

  platform_config pc;
  pc.quantum = pu::seconds(100e-6);
  for (int i = 0; i < 2; ++i) {
    const std::string n = std::to_string(i);
    pc.memories.push_back(hbm("hbm" + n, bw, 0));
    compute_unit_config u = gpu("gpu" + n, "d", "hbm" + n, 132, 4096, 0.75, launch);
    u.fabric = "nvl" + n;
    u.collective_latency = pu::seconds(L);
    pc.units.push_back(u);
    pc.interconnects.push_back(link("nvl" + n, "nvlink", {"sw"}, 100e9, 1e-6));
  }
  pc.interconnects.push_back(link("sw", "switch", {}, 1e12, 0.5e-6));
  workload_config wc;
  stream_config s = llm_stream("pp", shape, {"gpu0", "gpu1"}, 1, 8, 16, 65, 10e9);
  s.llm.pipeline_parallel = 2;
  s.batching.max_batch = s.llm.max_batch = 4;  // per lane: the two lanes hold the 8 users
  wc.streams.push_back(s);
  platform plat(pc, wc, {{"d", {1.98e9, 1.0}}}, 1e-3, 1);

  sc_core::sc_start(sc_core::sc_time(0.25, sc_core::SC_SEC));

  const auto& recs = plat.workload().finished();
  REQUIRE(recs.size() >= 8);
  double tpot = 0;
  for (std::size_t i = 0; i < 8; ++i) {
    REQUIRE(recs[i].tokens_out == 65);
    tpot += (recs[i].finish_s - recs[i].first_token_s) / 64 / 8;
  }
  CHECK(tpot == near(2 * t1).epsilon(0.02));
  // Aggregate: both lanes' tokens, 8 / (2 t1) a second.
  CHECK(8 / tpot == near(8 / (2 * t1)).epsilon(0.02));
  // Only stage 0 sends: gpu0 books interconnect time, gpu1 none; gpu1 does the larger share.
  CHECK(plat.units()[0]->bound_seconds(bound_by::interconnect) > 0);
  CHECK(plat.units()[1]->bound_seconds(bound_by::interconnect) == 0);
  CHECK(plat.units()[1]->memory_bound_s() > plat.units()[0]->memory_bound_s());
}
