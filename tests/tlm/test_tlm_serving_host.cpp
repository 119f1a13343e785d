// A serving engine's host work (tlm/host_work.hpp) and CUDA-graph launches, by hand.
//
// Four identical GPUs, each with its own 1 TB/s memory, serve Llama 3.2 1B (bf16) to one
// request at a time: three requests (16 prompt tokens, 9 output tokens) arrive at 0, 50
// and 100 ms, each done in ~25 ms, so they never overlap. A request takes 9 iterations:
// the prefill of 16 tokens (which gives the first token) and 8 decode steps of one
// sequence. The streams differ only in their host software:
//   base:  none.
//   sync:  synchronous on host_s (4 cores, 1 used): per iteration 1 ms + 50 us per
//          sequence + 10 us per token. Per request: 9 x (1 ms + 50 us) + (16 + 8) x 10 us
//          = 9.45 + 0.24 = 9.69 ms of host time, and the GPUs wait for all of it:
//          latency(sync) = latency(base) + 9.69 ms.
//   async: asynchronous on host_a: 1 ms + 10 us per token per iteration (at most
//          1.16 ms) overlaps the previous GPU iteration of ~2.7 ms. Each request finds
//          the engine idle, so its first iteration (the prefill: 1 ms + 16 x 10 us =
//          1.16 ms) has nothing to overlap and waits; the other 8 hide:
//          latency(async) = latency(base) + 1.16 ms, and so is its first token.
//          Host time per request: 9 x 1 ms + 24 x 10 us = 9.24 ms.
//   graph: no host time; CUDA graphs with a 5 us graph launch: each decode step's 132
//          kernels (embedding, 16 layers x 8, final norm, LM head, sampling; see
//          test_tlm_llm_decode) launch as one graph instead of 132 x 2 us each; the
//          prefill iteration is launched kernel by kernel. latency(graph) =
//          latency(base) - 8 x (132 x 2 us - 5 us) = latency(base) - 2.072 ms.
// Host busy time: 3 requests x 9.69 ms = 29.07 ms (sync), 3 x 9.24 = 27.72 ms (async),
// in the unit's compute-bound seconds. Its activity ledger books one core of four: a
// quarter of that as compute seconds (what its power model turns into C V^2 f a).
#include "sc_test.hpp"

#include "ptsim/tlm_config/model_zoo.hpp"

using namespace sc_test;

TEST_CASE("serving-engine host work: synchronous adds it, asynchronous hides it, graphs save launches") {
  const double bw = 1e12, launch = 2e-6;
  const decoder_shape shape = decoder_model("llama3_2_1b", {});

  platform_config pc;
  pc.quantum = pu::seconds(200e-6);
  pc.memories = {hbm("m_base", bw, 0), hbm("m_sync", bw, 0), hbm("m_async", bw, 0), hbm("m_graph", bw, 0),
                 hbm("m_host", bw, 0)};
  pc.units = {gpu("g_base", "d", "m_base", 132, 4096, 0.75, launch),
              gpu("g_sync", "d", "m_sync", 132, 4096, 0.75, launch),
              gpu("g_async", "d", "m_async", 132, 4096, 0.75, launch),
              gpu("g_graph", "d", "m_graph", 132, 4096, 0.75, launch)};
  for (const char* h : {"host_s", "host_a"}) {
    compute_unit_config c = gpu(h, "h", "m_host", 4, 64, 1.0, 0);
    c.kind = "cpu_cluster";
    pc.units.push_back(c);
  }
  workload_config wc;
  for (const char* n : {"base", "sync", "async", "graph"}) {
    stream_config s = llm_stream(n, shape, {std::string("g_") + n}, 1, 1, 16, 9, 10e9);
    s.arrival = arrival_kind::trace;
    s.trace = {{0.0, 16, 9}, {0.05, 16, 9}, {0.1, 16, 9}};
    wc.streams.push_back(s);
  }
  host_work_config& hs = wc.streams[1].llm.host;
  hs.unit = "host_s";
  hs.per_iteration_s = 1e-3;
  hs.per_sequence_s = 50e-6;
  hs.per_token_s = 10e-6;
  host_work_config& ha = wc.streams[2].llm.host;
  ha.unit = "host_a";
  ha.scheduling = host_scheduling::asynchronous;
  ha.per_iteration_s = 1e-3;
  ha.per_token_s = 10e-6;
  host_work_config& hg = wc.streams[3].llm.host;
  hg.unit = "host_a";  // no host time: only the graph launches
  hg.cuda_graphs = true;
  hg.graph_launch_s = 5e-6;
  platform plat(pc, wc, {{"d", {1.98e9, 1.0}}, {"h", {3e9, 1.0}}}, 1e-3, 1);

  sc_core::sc_start(sc_core::sc_time(0.3, sc_core::SC_SEC));

  const auto& recs = plat.workload().finished();
  for (std::size_t k = 0; k < 3; ++k) {
    const request_record* b = record_of(recs, "base", k);
    const request_record* s = record_of(recs, "sync", k);
    const request_record* a = record_of(recs, "async", k);
    const request_record* g = record_of(recs, "graph", k);
    REQUIRE(b);
    REQUIRE(s);
    REQUIRE(a);
    REQUIRE(g);
    const double base = b->finish_s - b->arrival_s;
    CHECK(base > 9 * 2.4e-3);  // 9 memory-bound iterations of ~2.7 ms
    CHECK(s->finish_s - s->arrival_s == near(base + 9.69e-3).epsilon(1e-9));
    CHECK(a->finish_s - a->arrival_s == near(base + 1.16e-3).epsilon(1e-9));
    CHECK(a->first_token_s - a->arrival_s == near(b->first_token_s - b->arrival_s + 1.16e-3).epsilon(1e-9));
    CHECK(g->finish_s - g->arrival_s == near(base - 8 * (132 * launch - 5e-6)).epsilon(1e-9));
    // Each request is alone in its iterations: all their host time is its own (the basis
    // of its share of the host's energy).
    const auto busy_on = [](const request_record* r, const std::string& unit) {
      double sum = 0;
      for (const auto& [u, sec] : r->busy_s)
        if (u == unit) sum += sec;
      return sum;
    };
    CHECK(busy_on(s, "host_s") == near(9.69e-3).epsilon(1e-12));
    CHECK(busy_on(a, "host_a") == near(9.24e-3).epsilon(1e-12));
    CHECK(busy_on(g, "host_a") == 0.0);
    CHECK(busy_on(b, "host_s") == 0.0);
    // The first token waits for the prefill iteration's host work (1 ms + 50 us + 160 us).
    CHECK(s->first_token_s - s->arrival_s == near(b->first_token_s - b->arrival_s + 1.21e-3).epsilon(1e-9));
  }
  CHECK(plat.workload().iterations() == 4u * 3u * 9u);

  compute_unit* host_s = nullptr;
  compute_unit* host_a = nullptr;
  for (const auto& u : plat.units()) {
    if (std::string(u->basename()) == "host_s") host_s = u.get();
    if (std::string(u->basename()) == "host_a") host_a = u.get();
  }
  REQUIRE(host_s);
  REQUIRE(host_a);
  CHECK(host_s->compute_bound_s() == near(3 * 9.69e-3).epsilon(1e-12));
  CHECK(host_a->compute_bound_s() == near(3 * 9.24e-3).epsilon(1e-12));
  CHECK(host_s->memory_bound_s() == 0.0);
  CHECK(host_s->transactions() == 0u);  // host work moves no bytes through the model
  const period_activity act = total(host_s->ledger(), 300);
  CHECK(act.compute_s == near(3 * 9.69e-3 / 4).epsilon(1e-9));
  CHECK(act.stall_s == 0.0);
  CHECK(act.overhead_s == 0.0);
}
