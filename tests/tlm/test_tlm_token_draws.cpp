// Request lengths drawn from a histogram (token_range's bins and counts) by the workload
// engine of a real SystemC run: which counts occur and how often (one simulation per process).
#include <cmath>

#include "sc_test.hpp"

#include "ptsim/tlm_config/model_zoo.hpp"

using namespace sc_test;

TEST_CASE("output lengths drawn from a histogram: only the bins' integers, each bin at its share") {
  // Bins [8, 9), [9, 12), [12, 17] with weights 3, 0, 1: three requests in four end at 8 tokens,
  // none at 9-11, the rest uniformly at 12-17 (mean 14.5).
  const decoder_shape shape = decoder_model("llama3_2_1b", {});
  platform_config pc;
  pc.quantum = pu::seconds(200e-6);
  pc.memories = {hbm("hbm0", 1e12, 0)};
  pc.units = {gpu("gpu0", "d0", "hbm0", 132, 4096, 0.75, 2e-6)};
  workload_config wc;
  wc.streams.push_back(llm_stream("chat", shape, {"gpu0"}, 1, 16, 16, 8, 10e9));
  token_range& out = wc.streams.back().llm.output_tokens;
  out.edges = {8, 9, 12, 17};
  out.cumulative = {0.75, 0.75, 1.0};
  out.min = 8;
  out.max = 17;
  platform plat(pc, wc, {{"d0", {1.98e9, 1.0}}}, 1e-3, 1);
  sc_core::sc_start(sc_core::sc_time(1.0, sc_core::SC_SEC));

  const auto& recs = plat.workload().finished();
  REQUIRE(recs.size() >= 400);
  double at8 = 0, long_sum = 0, long_n = 0;
  for (const auto& r : recs) {
    CHECK((r.tokens_out == 8 || (r.tokens_out >= 12 && r.tokens_out <= 17)));
    if (r.tokens_out == 8) ++at8;
    else long_sum += r.tokens_out, ++long_n;
  }
  const double n = static_cast<double>(recs.size());
  // Binomial: 0.75 +- 4 standard deviations of the share over n requests.
  CHECK(std::fabs(at8 / n - 0.75) < 4 * std::sqrt(0.75 * 0.25 / n));
  // The long bin's mean, 14.5, within 4 standard deviations (a uniform over 6 integers: sd 1.71).
  CHECK(std::fabs(long_sum / long_n - 14.5) < 4 * 1.71 / std::sqrt(long_n));
}
