// decode_attention: per_head through the simulator: a decode step's attention runs on the
// vector units at fp32, at the unit's per_head_attention efficiency, and the grouped kernel
// it replaces was memory-bound.
//
// Two GPUs at 1980 MHz, each with its own 1 TB/s memory (efficiency 1, no latency), serve
// Llama 3.2 1B (bf16: 32 query heads, 8 KV heads, head dim 64, 16 layers) to one
// closed-loop user with 4000-token prompts and 65 output tokens: 64 decode steps at
// contexts 4001..4064 (mean 4032.5). One GPU runs the grouped kernel, the other per_head;
// both have op_efficiency.per_head_attention 0.01.
//   per_head arithmetic per step: 4 x context x 64 x 32 heads x 16 layers = 131,072 x
//   context operations at 132 SMs x 512 fp32 ops/cycle x 0.01 x 1.98 GHz = 1.338 TFLOP/s:
//   ~0.40 ms at the mean context; its KV read (~132 MB, 0.13 ms) hides under it.
//   grouped: the same arithmetic on the tensor cores (~1 us) under the same KV read, which
//   sets its time: 2 x context x 8 x 64 x 2 B x 16 layers = 32,768 x context bytes.
// Every other operator of the step is the same on both, so the steps differ by the
// difference of the two attention times: TPOT(per_head) - TPOT(grouped) = arithmetic /
// rate - KV bytes / bandwidth, at the mean context (both are linear in it).
#include "sc_test.hpp"

#include "ptsim/tlm_config/model_zoo.hpp"

using namespace sc_test;

TEST_CASE("per_head decode attention: fp32 arithmetic at its own efficiency in place of a memory-bound read") {
  const double bw = 1e12, f = 1.98e9, eff = 0.01;
  const decoder_shape shape = decoder_model("llama3_2_1b", {});
  platform_config pc;
  pc.quantum = pu::seconds(200e-6);
  pc.memories = {hbm("hbm_g", bw, 0), hbm("hbm_p", bw, 0)};
  pc.units = {gpu("gpu_g", "d", "hbm_g", 132, 4096, 0.75, 0), gpu("gpu_p", "d", "hbm_p", 132, 4096, 0.75, 0)};
  for (auto& u : pc.units) u.op_efficiency[op_kind::per_head_attention] = eff;
  workload_config wc;
  wc.streams.push_back(llm_stream("grouped", shape, {"gpu_g"}, 1, 1, 4000, 65, 10e9));
  wc.streams.push_back(llm_stream("per_head", shape, {"gpu_p"}, 1, 1, 4000, 65, 10e9));
  wc.streams.back().llm.decode_attention = decode_attention_kernel::per_head;
  platform plat(pc, wc, {{"d", {f, 1.0}}}, 1e-3, 1);

  sc_core::sc_start(sc_core::sc_time(1.0, sc_core::SC_SEC));

  double tpot_g = 0, tpot_p = 0;
  int ng = 0, np = 0;
  for (const auto& r : plat.workload().finished()) {
    REQUIRE(r.tokens_out == 65);
    const double t = (r.finish_s - r.first_token_s) / 64;
    if (r.stream == "grouped") tpot_g += t, ++ng;
    else tpot_p += t, ++np;
  }
  REQUIRE(ng >= 3);
  REQUIRE(np >= 3);
  tpot_g /= ng;
  tpot_p /= np;
  const double context = 4032.5;
  const double arithmetic = 4 * context * 64 * 32 * 16;
  const double rate = 132 * 512 * eff * f;
  const double kv_read = 2 * context * 8 * 64 * 2 * 16;
  CHECK(tpot_p - tpot_g == near(arithmetic / rate - kv_read / bw).epsilon(0.01));
  // The per_head GPU's decode time is mostly compute-bound; the grouped one's is not.
  CHECK(plat.units()[1]->compute_bound_s() > plat.units()[0]->compute_bound_s() + 0.5 * 64 * ng * arithmetic / rate);
}
