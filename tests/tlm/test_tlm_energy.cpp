// Energy physics with the power model of ptsim::power:
//
// (a) Energy per unit of compute-bound work is U-shaped in frequency when static power
//     matters. Six GPUs run the same GEMM (1e12 ops, compute-bound) at the six points of
//     a V-f table; with P = C V^2 f + P_s (C = 200 nF, P_s = 100 W constant) and time
//     W / (r f), E(f) = W/r * (C V^2 + P_s / f). Per unit W/r (x 1e-7):
//       0.6 GHz, 0.60 V: 0.720 + 1.667 = 2.387    1.5 GHz, 0.82 V: 1.345 + 0.667 = 2.011
//       0.9 GHz, 0.65 V: 0.845 + 1.111 = 1.956    1.8 GHz, 0.95 V: 1.805 + 0.556 = 2.361
//       1.2 GHz, 0.72 V: 1.037 + 0.833 = 1.870    2.0 GHz, 1.05 V: 2.205 + 0.500 = 2.705
//     so the minimum is at 1.2 GHz, inside the table.
// (b) Decode latency grows with the batch while energy per token falls: three GPUs at
//     1.98 GHz serve Llama 3.2 1B to 1, 8 and 64 closed-loop users. The weights (2.47 GB)
//     are read once per step whatever the batch, so a step takes ~2.7 ms at batch 1 and a
//     little more at 64 (KV cache and activations grow), while the tokens per step grow
//     64x: energy per token falls roughly as 1/batch.
#include "sc_test.hpp"

#include "ptsim/power/compute_power.hpp"
#include "ptsim/tlm_config/model_zoo.hpp"

using namespace sc_test;

TEST_CASE("energy per operation is U-shaped in frequency; per token it falls with batch") {
  struct point {
    double hz, v;
  };
  const std::vector<point> table = {{0.6e9, 0.60}, {0.9e9, 0.65}, {1.2e9, 0.72}, {1.5e9, 0.82}, {1.8e9, 0.95}, {2.0e9, 1.05}};
  const double W = 1e12, rate_per_hz = 132 * 4096 * 0.75, C = 200e-9, Ps = 100;
  ptsim::power::compute_power_params pp;
  pp.c_eff = ptsim::units::farads(C);
  pp.stall_activity = 0.5;
  pp.leakage.power_ref = ptsim::units::watts(Ps);
  pp.leakage.v_exponent = 0;  // constant static power, for the closed form
  const ptsim::power::compute_power_model pm(pp);
  const double t_ref_K = pp.leakage.t_ref.value();

  platform_config pc;
  pc.quantum = pu::seconds(200e-6);
  workload_config wc;
  std::map<std::string, operating_point> init;
  for (std::size_t i = 0; i < table.size(); ++i) {
    const std::string n = "u" + std::to_string(i);
    pc.memories.push_back(hbm("m" + n, 1e12, 0));
    pc.units.push_back(gpu(n, "d" + n, "m" + n, 132, 4096, 0.75, 0));
    op_graph g = one_op("gemm", op_class::tensor, W, 8192, 8192);
    g.prec = g.ops[0].prec = precision::bf16;
    wc.streams.push_back(stream("s" + n, n, g, 1.0, 0.0));
    init["d" + n] = {table[i].hz, table[i].v};
  }
  const decoder_shape shape = decoder_model("llama3_2_1b", {});
  const int batches[] = {1, 8, 64};
  for (int b : batches) {
    const std::string n = "b" + std::to_string(b);
    pc.memories.push_back(hbm("m" + n, 1e12, 0));
    pc.units.push_back(gpu(n, "d" + n, "m" + n, 132, 4096, 0.75, 2e-6));
    wc.streams.push_back(llm_stream(n, shape, {n}, 1, b, 16, 33, 20e9));
    init["d" + n] = {1.98e9, 1.0};
  }
  const double period = 1e-3, end = 0.25;
  platform plat(pc, wc, init, period, 1);

  sc_core::sc_start(sc_core::sc_time(end, sc_core::SC_SEC));
  const auto& recs = plat.workload().finished();

  // (a) time ~ 1/f, energy minimum inside the table at 1.2 GHz.
  std::vector<double> energy;
  for (std::size_t i = 0; i < table.size(); ++i) {
    const request_record* r = record_of(recs, "su" + std::to_string(i));
    REQUIRE(r);
    const double t = r->finish_s - r->start_s;
    CHECK(t == near(W / (rate_per_hz * table[i].hz)).epsilon(0.005));
    // Busy the whole time at full activity: P = C V^2 f + P_s.
    energy.push_back((pm.dynamic_W(table[i].v, table[i].hz, 1.0) + pm.leakage_W(table[i].v, t_ref_K)) * t);
  }
  const auto best = std::min_element(energy.begin(), energy.end()) - energy.begin();
  CHECK(best == 2);
  CHECK(energy.front() > energy[2] * 1.2);
  CHECK(energy.back() > energy[2] * 1.4);

  // (b) per batch: time per output token from the records; power from the unit's
  // activity ledger period by period, through the same power model.
  std::vector<double> tpot, joules_per_token;
  for (int b : batches) {
    const std::string n = "b" + std::to_string(b);
    double sum = 0;
    int k = 0;
    for (const auto& r : recs)
      if (r.stream == n) sum += (r.finish_s - r.first_token_s) / (r.tokens_out - 1), ++k;
    REQUIRE(k >= b);
    tpot.push_back(sum / k);
    compute_unit* u = nullptr;
    for (const auto& cu : plat.units())
      if (cu->basename() == n) u = cu.get();
    double joules = 0;
    for (std::int64_t p = 0; p < static_cast<std::int64_t>(end / period); ++p) {
      const auto a = u->ledger().take(p);
      const double act = pm.activity(a.compute_s / period, (a.stall_s + a.overhead_s) / period);
      joules += (pm.dynamic_W(1.0, 1.98e9, act) + pm.leakage_W(1.0, t_ref_K)) * period;
    }
    const double power = joules / end;
    joules_per_token.push_back(power * tpot.back() / b);
  }
  CAPTURE(tpot[0]);
  CAPTURE(tpot[2]);
  // Batch 1 reads the weights for one token per step: ~2.47 GB / 1 TB/s + 132 launches.
  CHECK(tpot[0] == near(shape.parameters() * 2 / 1e12 + 132 * 2e-6).epsilon(0.02));
  CHECK(tpot[0] < tpot[1]);
  CHECK(tpot[1] < tpot[2]);
  CHECK(tpot[2] < 1.2 * tpot[0]);  // still memory-bound at 64
  CHECK(joules_per_token[0] > joules_per_token[1]);
  CHECK(joules_per_token[1] > joules_per_token[2]);
  CHECK(joules_per_token[0] > 30 * joules_per_token[2]);
}
