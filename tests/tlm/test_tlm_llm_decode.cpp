// Memory-bound LLM decode: tokens/s = batch / (bytes per step / bandwidth) and barely
// moves with the GPU clock.
//
// Two GPUs, each with its own memory of 1 TB/s (efficiency 1, no latency), one at
// 1980 MHz and one at 990 MHz, each serving Llama 3.2 1B (bf16) to 4 closed-loop users
// with 16-token prompts and 65 output tokens. The first iteration prefills all four;
// then 64 decode iterations run with 4 sequences each.
//
// Bytes per decode step: every weight once. With tied embeddings the LM head reads the
// embedding matrix, so the weights read are exactly the parameters, 1,235,814,400 x 2 B
// = 2.4716 GB (decoder_shape::parameters is checked against the published count in
// test_decoder). The KV cache read is 4 x ~50 tokens x 16 layers x 2 x 8 x 64 x 2 B =
// 6.6 MB and activations a few MB: +0.5 %, inside the 2 % tolerance.
// Kernels per decode step: embedding, 16 layers x 8 (two norms, qkv, attention, o,
// gate+up, silu, down), final norm, LM head, sampling = 132, at 2 us each = 264 us.
//   TPOT = 2.4716e9 / 1e12 + 132 x 2 us = 2.7356 ms at either clock;
// arithmetic per step 2 x 1.24e9 x 4 = 9.9 GFLOP at 132 x 4096 x 0.75 x f = 0.80 PFLOP/s
// (1980 MHz) or 0.40 (990 MHz): 12 or 25 us, hidden under the memory time.
#include "sc_test.hpp"

#include "ptsim/tlm_config/model_zoo.hpp"

using namespace sc_test;

TEST_CASE("memory-bound decode: tokens/s follows bandwidth, not the clock") {
  const double bw = 1e12, launch = 2e-6;
  const decoder_shape shape = decoder_model("llama3_2_1b", {});
  const double bytes_per_step = shape.parameters() * 2;
  const double tpot = bytes_per_step / bw + 132 * launch;

  platform_config pc;
  pc.quantum = pu::seconds(200e-6);
  pc.memories = {hbm("hbm_f", bw, 0), hbm("hbm_h", bw, 0)};
  pc.units = {gpu("gpu_f", "d_f", "hbm_f", 132, 4096, 0.75, launch), gpu("gpu_h", "d_h", "hbm_h", 132, 4096, 0.75, launch)};
  workload_config wc;
  wc.streams.push_back(llm_stream("fast", shape, {"gpu_f"}, 1, 4, 16, 65, 10e9));
  wc.streams.push_back(llm_stream("slow", shape, {"gpu_h"}, 1, 4, 16, 65, 10e9));
  platform plat(pc, wc, {{"d_f", {1.98e9, 1.0}}, {"d_h", {0.99e9, 0.8}}}, 1e-3, 1);

  sc_core::sc_start(sc_core::sc_time(0.3, sc_core::SC_SEC));

  const auto& recs = plat.workload().finished();
  double tpot_f = 0, tpot_h = 0;
  int nf = 0, nh = 0;
  for (const auto& r : recs) {
    REQUIRE(r.tokens_out == 65);
    CHECK(r.tokens_in == 16);
    CHECK(r.first_token_s > r.start_s);
    CHECK(r.finish_s > r.first_token_s);
    const double t = (r.finish_s - r.first_token_s) / 64;
    if (r.stream == "fast") tpot_f += t, ++nf;
    else tpot_h += t, ++nh;
  }
  REQUIRE(nf >= 4);
  REQUIRE(nh >= 4);
  tpot_f /= nf;
  tpot_h /= nh;
  CHECK(tpot_f == near(tpot).epsilon(0.02));
  CHECK(tpot_h == near(tpot).epsilon(0.02));
  // Halving the clock changes the decode rate by under 1 %: the arithmetic hides under
  // the memory time.
  CHECK(tpot_h / tpot_f == near(1.0).epsilon(0.01));
  // Tokens per second: 4 sequences per step.
  const double tokens_per_s = 4 / tpot_f;
  CHECK(tokens_per_s == near(4 * bw / (bytes_per_step + 132 * launch * bw)).epsilon(0.02));
  // The GPUs report their decode time as memory-bound.
  CHECK(plat.units()[0]->memory_bound_s() > 5 * plat.units()[0]->compute_bound_s());
  // Output tokens the engine counts: every request's 65, plus those still running.
  CHECK(plat.workload().throughput_units() == "tokens/s");
  CHECK(plat.workload().throughput_count() >= 65.0 * static_cast<double>(recs.size()));
}
