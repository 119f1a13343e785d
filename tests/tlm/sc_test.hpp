#pragma once
// Shared by the SystemC test sources, which build one executable, test_tlm_sc (its main() is
// in sc_test_main.cpp). The SystemC kernel cannot be restarted within a process, so each file
// holds ONE doctest test case that elaborates one platform, calls sc_start once and then
// checks what happened; ctest runs the executable once per file.
#include "ptsim/tlm_models/platform.hpp"

#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <string>
#include <vector>
#include <systemc>

#include <doctest/doctest.h>  // implemented in ptsim_doctest_impl

#include "approx.hpp"

namespace sc_test {

using namespace ptsim::tlm_config;
using namespace ptsim::tlm_models;
using tlm_test::near;
namespace pu = ptsim::units;

/// A compute unit: `cores` x `opc` int8 ops per cycle, tensor efficiency `eff`.
inline compute_unit_config unit(const std::string& name, const std::string& domain, int cores, double opc,
                                double eff) {
  compute_unit_config u;
  u.name = name;
  u.kind = "npu";
  u.domain = domain;
  u.connect = "noc";
  u.cores = cores;
  u.ops_per_cycle[precision::int8] = opc;
  u.efficiency = eff;
  u.vector_efficiency = 0.25;
  u.launch_overhead = pu::seconds(5e-6);
  u.tile_bytes = 256 * 1024;
  return u;
}

/// The FP8 GEMM tests' unit: 4 cores x 256 int8 and fp8 ops per cycle, share 0.75, its FP8
/// GEMMs at 0.4 of peak (op_efficiency gemm_fp8).
inline compute_unit_config fp8_gemm_unit(const std::string& name) {
  compute_unit_config u = unit(name, "d0", 4, 256, 0.75);
  u.ops_per_cycle[precision::fp8] = 256;
  u.op_precision_efficiency[{op_kind::gemm, precision::fp8}] = 0.4;
  return u;
}

/// One NoC ("noc": `noc_Bps`, `noc_latency_s`) in front of one DRAM ("dram": peak
/// `mem_Bps`, efficiency `mem_eff`, latency `mem_latency_s`).
inline platform_config memory_system(double noc_Bps, double noc_latency_s, double mem_Bps, double mem_eff,
                                     double mem_latency_s) {
  platform_config p;
  p.quantum = pu::seconds(50e-6);
  interconnect_config ic;
  ic.name = "noc";
  ic.kind = "noc";
  ic.needs_connect = true;
  ic.connect = "dram";
  ic.bandwidth_Bps = noc_Bps;
  ic.latency = pu::seconds(noc_latency_s);
  p.interconnects.push_back(ic);
  memory_config m;
  m.name = "dram";
  m.kind = "lpddr";
  m.dram = true;
  m.bandwidth_Bps = mem_Bps;
  m.efficiency = mem_eff;
  m.latency = pu::seconds(mem_latency_s);
  m.capacity_B = 8e9;
  p.memories.push_back(m);
  return p;
}

/// A graph of one operator.
inline op_graph one_op(const std::string& name, op_class cls, double ops, double read_B, double written_B) {
  op_graph g;
  g.name = name;
  g.prec = precision::int8;
  op o;
  o.name = name;
  o.cls = cls;
  o.ops = ops;
  o.bytes_read = read_B;
  o.bytes_written = written_B;
  g.ops.push_back(o);
  return g;
}

/// A stream with one stage; at `rate_hz` = 1 Hz and a run under 1 s it issues exactly
/// one request, at `start_s`.
inline stream_config stream(const std::string& name, const std::string& unit, const op_graph& g, double rate_hz,
                            double start_s, int queue_limit = 64) {
  stream_config s;
  s.name = name;
  s.arrival = arrival_kind::fixed_rate;
  s.rate = pu::hertz(rate_hz);
  s.start = pu::seconds(start_s);
  stage_config st;
  st.unit = unit;
  st.graph = g;
  s.stages.push_back(st);
  s.queue_limit = queue_limit;
  return s;
}

/// The record of stream `name`'s request number `k` (in finishing order), or nullptr.
inline const request_record* record_of(const std::deque<request_record>& recs, const std::string& name,
                                       std::size_t k = 0) {
  for (const auto& r : recs)
    if (r.stream == name && k-- == 0) return &r;
  return nullptr;
}

/// A platform that ran one stream, and the records of its operators.
struct single_stream_run {
  std::unique_ptr<platform> plat;
  std::vector<op_record> ops;
};

/// Runs `g` as one job a second from time 0 on unit `unit` (the platform's first unit),
/// domain d0 at 1 GHz and 0.8 V, for 0.5 s of simulated time. The kernel runs once per
/// process: call this once per executable.
inline single_stream_run run_single_stream(const platform_config& pc, const op_graph& g, const std::string& unit) {
  workload_config wc;
  wc.streams.push_back(stream("s", unit, g, 1.0, 0.0));
  single_stream_run r;
  r.plat = std::make_unique<platform>(pc, wc, std::map<std::string, operating_point>{{"d0", {1e9, 0.8}}}, 1e-3, 1);
  std::vector<op_record> ops;
  r.plat->units()[0]->on_op = [&ops](const op_record& rec) { ops.push_back(rec); };
  sc_core::sc_start(sc_core::sc_time(0.5, sc_core::SC_SEC));
  r.plat->units()[0]->on_op = nullptr;
  r.ops = std::move(ops);
  return r;
}

/// Sum of a ledger's periods 0 .. n-1 (taking them).
inline period_activity total(activity_ledger& l, std::int64_t n) {
  period_activity s;
  for (std::int64_t i = 0; i < n; ++i) {
    const auto p = l.take(i);
    s.compute_s += p.compute_s;
    s.stall_s += p.stall_s;
    s.overhead_s += p.overhead_s;
    s.quiet_s += p.quiet_s;
    s.ops += p.ops;
    s.bytes_read += p.bytes_read;
    s.bytes_written += p.bytes_written;
  }
  return s;
}

}  // namespace sc_test

namespace sc_test {

/// A GPU-like unit with its own memory: `sms` x `per_sm` bf16 tensor ops/cycle at
/// efficiency `eff`, launch overhead `launch_s`, 64 MiB tiles, connected straight to
/// memory `mem`.
inline compute_unit_config gpu(const std::string& name, const std::string& domain, const std::string& mem, int sms,
                               double per_sm, double eff, double launch_s) {
  compute_unit_config u;
  u.name = name;
  u.kind = "gpu";
  u.direct_memory = true;
  u.domain = domain;
  u.connect = mem;
  u.cores = sms;
  u.ops_per_cycle[precision::bf16] = per_sm;
  u.ops_per_cycle[precision::fp32] = per_sm / 2;
  u.vector_ops_per_cycle[precision::fp32] = per_sm / 8;
  u.vector_ops_per_cycle[precision::bf16] = per_sm / 4;
  u.efficiency = eff;
  u.vector_efficiency = eff;
  u.launch_overhead = pu::seconds(launch_s);
  u.tile_bytes = 64.0 * 1024 * 1024;
  return u;
}

/// A memory of `Bps` (efficiency 1) with `latency_s`.
inline memory_config hbm(const std::string& name, double Bps, double latency_s) {
  memory_config m;
  m.name = name;
  m.kind = "hbm";
  m.dram = true;
  m.bandwidth_Bps = Bps;
  m.efficiency = 1.0;
  m.latency = pu::seconds(latency_s);
  m.capacity_B = 80e9;
  return m;
}

/// An interconnect of `kind` to `to` (none: a terminal).
inline interconnect_config link(const std::string& name, const std::string& kind, std::vector<std::string> to,
                                double Bps, double latency_s) {
  interconnect_config i;
  i.name = name;
  i.kind = kind;
  if (kind == "switch") i.ports = std::move(to);
  else if (!to.empty()) i.connect = to.front();
  i.bandwidth_Bps = Bps;
  i.latency = pu::seconds(latency_s);
  i.point_to_point = i.duplex = kind == "pcie" || kind == "nvlink";
  i.needs_connect = kind == "noc";
  return i;
}

/// An LLM stream of `users` closed-loop users on `units` (tensor_parallel each).
inline stream_config llm_stream(const std::string& name, const decoder_shape& shape, std::vector<std::string> units,
                                int tp, int users, int prompt, int output, double kv_bytes) {
  stream_config s;
  s.name = name;
  s.arrival = arrival_kind::closed_loop;
  s.users = users;
  s.is_llm = true;
  s.batching.kind = batching_kind::continuous;
  s.batching.max_batch = users;
  s.llm.shape = shape;
  s.llm.units = std::move(units);
  s.llm.tensor_parallel = tp;
  s.llm.weights = precision::bf16;
  s.llm.kv = precision::bf16;
  s.llm.max_batch = users;
  s.llm.max_batched_tokens = 8192;
  s.llm.kv_cache_bytes = kv_bytes;
  s.llm.prompt_tokens = {prompt, prompt};
  s.llm.output_tokens = {output, output};
  return s;
}

}  // namespace sc_test
