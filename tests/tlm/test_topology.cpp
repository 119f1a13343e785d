// The platform graph: routes with their latencies, and every kind of bad connection
// found before anything is elaborated.
#include <doctest/doctest.h>

#include "approx.hpp"

#include <algorithm>

#include "ptsim/tlm_config/model_zoo.hpp"
#include "ptsim/tlm_config/operators.hpp"
#include "ptsim/tlm_config/topology.hpp"

using tlm_test::near;
using namespace ptsim::tlm_config;
namespace pu = ptsim::units;

namespace {

compute_unit_config unit(const std::string& n, const std::string& connect, const std::string& fabric,
                         std::vector<std::string> io) {
  compute_unit_config u;
  u.name = n;
  u.kind = "gpu";
  u.direct_memory = true;
  u.domain = n;
  u.connect = connect;
  u.fabric = fabric;
  u.io = std::move(io);
  u.ops_per_cycle[precision::bf16] = 1024;
  return u;
}

interconnect_config link(const std::string& n, const std::string& kind, std::vector<std::string> to, double lat) {
  interconnect_config i;
  i.name = n;
  i.kind = kind;
  if (kind == "switch") i.ports = std::move(to);
  else if (!to.empty()) i.connect = to.front();
  i.bandwidth_Bps = 1e9;
  i.latency = pu::seconds(lat);
  i.point_to_point = i.duplex = kind == "pcie" || kind == "nvlink";
  i.needs_connect = kind == "noc";
  return i;
}

memory_config target(const std::string& n, const std::string& kind, double lat, double capacity = 80e9) {
  memory_config m;
  m.name = n;
  m.kind = kind;
  m.dram = kind == "lpddr" || kind == "lpddr5x" || kind == "ddr5" || kind == "hbm";
  m.bandwidth_Bps = 1e12;
  m.latency = pu::seconds(lat);
  m.capacity_B = capacity;
  return m;
}

// Two GPUs with their HBM, NVLinks into a terminal switch, PCIe links into a switch that
// reaches host DDR and an SSD; a host CPU on the DDR with its own PCIe link.
platform_config server() {
  platform_config p;
  p.units = {unit("gpu0", "hbm0", "nvl0", {"pcie0"}), unit("gpu1", "hbm1", "nvl1", {"pcie1"}),
             unit("cpu", "ddr", "", {"pcie_c"})};
  p.interconnects = {link("nvl0", "nvlink", {"sw"}, 700e-9),     link("nvl1", "nvlink", {"sw"}, 700e-9),
                     link("sw", "switch", {}, 300e-9),           link("pcie0", "pcie", {"psw"}, 1e-6),
                     link("pcie1", "pcie", {"psw"}, 1e-6),       link("pcie_c", "pcie", {"psw"}, 1e-6),
                     link("psw", "switch", {"ddr", "ssd"}, 200e-9)};
  p.memories = {target("hbm0", "hbm", 500e-9), target("hbm1", "hbm", 500e-9), target("ddr", "ddr5", 100e-9),
                target("ssd", "nvme", 80e-6, 4e12)};
  return p;
}

bool has_problem(const std::vector<platform_problem>& v, const std::string& text) {
  return std::any_of(v.begin(), v.end(),
                     [&](const platform_problem& p) { return p.text().find(text) != std::string::npos; });
}

}  // namespace

TEST_CASE("routes and their latencies") {
  const platform_config p = server();
  topology t(p);
  CHECK(t.problems().empty());
  CHECK(t.reach("psw").size() == 2);
  CHECK(t.memory_of("gpu0") == "hbm0");
  CHECK(t.memory_of("cpu") == "ddr");
  CHECK(t.fabric_of("gpu1") == "sw");
  CHECK(t.first_hops("gpu0") == std::vector<std::string>{"hbm0", "nvl0", "pcie0"});
  // NVLink 700 ns + switch 300 ns; PCIe 1 us + switch 200 ns + DDR 100 ns or SSD 80 us.
  CHECK(t.reach("nvl0").at("sw").latency_s == near(1e-6));
  CHECK(t.reach("pcie0").at("ddr").latency_s == near(1.3e-6));
  CHECK(t.reach("pcie0").at("ssd").latency_s == near(81.2e-6));
  CHECK(t.reach("psw").at("ssd").port == 1);  // the switch's second port
  CHECK(check_platform(p, {}).empty());
}

TEST_CASE("bad connections are found before elaboration") {
  {  // a link bound by two upstream components
    platform_config p = server();
    p.units[1].fabric = "nvl0";
    const auto v = check_platform(p, {});
    CHECK(has_problem(v, "nvl0: a nvlink link has one upstream end but is bound by gpu0, gpu1"));
    CHECK(has_problem(v, "nvl1: nothing connects to it"));  // now unbound
  }
  {  // a name that is nothing, and a connection to a unit
    platform_config p = server();
    p.units[0].connect = "hbm9";
    p.interconnects[3].connect = "cpu";
    const auto v = check_platform(p, {});
    CHECK(has_problem(v, "gpu0: 'hbm9' is not an interconnect or a target of the platform"));
    CHECK(has_problem(v, "pcie0: 'cpu' is a compute unit"));
  }
  {  // a cycle
    platform_config p = server();
    p.interconnects.push_back(link("a", "noc", {"b"}, 0));
    p.interconnects.push_back(link("b", "noc", {"a"}, 0));
    p.units[2].io.push_back("a");
    CHECK(has_problem(check_platform(p, {}), "connections form a cycle"));
  }
  {  // a memory path that reaches two memories
    platform_config p = server();
    p.units[2].connect = "psw";
    p.interconnects[6].ports = {"ddr", "ssd", "hbm0"};
    CHECK(has_problem(check_platform(p, {}), "cpu: its connect path reaches several memories (ddr, hbm"));
  }
  {  // a CPU cluster straight on a memory (only a GPU sits next to its memory)
    platform_config p = server();
    p.units[2].kind = "cpu_cluster";
    p.units[2].direct_memory = false;
    const auto v = check_platform(p, {});
    CHECK(has_problem(v, "cpu: 'ddr' is not an interconnect (a cpu_cluster reaches memory through a noc"));
    REQUIRE_FALSE(v.empty());
    CHECK(v.front().key == "connect");
  }
}

TEST_CASE("a model that does not fit, and the KV cache that is left") {
  const platform_config p = server();
  workload_config w;
  stream_config s;
  s.name = "chat";
  s.is_llm = true;
  s.llm.shape = decoder_model("llama2_70b", {});
  s.llm.weights = precision::bf16;
  s.llm.kv = precision::bf16;
  s.llm.units = {"gpu0", "gpu1"};
  s.llm.tensor_parallel = 1;  // 138 GB of bf16 weights per GPU: cannot fit in 80 GB
  w.streams.push_back(s);
  CHECK(default_kv_cache_bytes(p, w, w.streams[0]) < 0);
  w.streams[0].llm.kv_cache_bytes = 1e9;
  CHECK(has_problem(check_platform(p, w), "hbm0: the models placed on units using it need"));
  // TP2: 69 GB per rank; 0.9 x 80 GB - weights is what the KV cache gets.
  w.streams[0].llm.tensor_parallel = 2;
  decoder_options o;
  o.tensor_parallel = 2;
  o.weights = precision::bf16;
  const double kv = default_kv_cache_bytes(p, w, w.streams[0]);
  CHECK(kv == near(0.9 * 80e9 - decoder_weight_bytes_per_rank(s.llm.shape, o)));
  // TensorRT-LLM's rule: 0.9 of the 80 GB less the weights.
  w.streams[0].llm.kv_share_of_free = true;
  CHECK(default_kv_cache_bytes(p, w, w.streams[0]) ==
        near(0.9 * (80e9 - decoder_weight_bytes_per_rank(s.llm.shape, o))));
  w.streams[0].llm.kv_share_of_free = false;
  w.streams[0].llm.kv_cache_bytes = kv;
  CHECK(check_platform(p, w).empty());
  // Listing a unit twice would put two ranks on it.
  w.streams[0].llm.units = {"gpu0", "gpu0"};
  CHECK(has_problem(check_platform(p, w), "'gpu0' is listed twice"));
}

TEST_CASE("operators without throughput or a route are found") {
  const platform_config p = server();
  workload_config w;
  stream_config s;
  s.name = "s";
  stage_config st;
  st.units = {"cpu"};
  st.graph = build_model("resnet50", {}, precision::int8);  // the test units only do bf16
  st.graph.ops.push_back(op{});
  st.graph.ops.back().name = "to_gpu_memory";
  st.graph.ops.back().kind = op_kind::transfer;
  st.graph.ops.back().target = "hbm0";  // the CPU's PCIe does not reach it
  s.stages.push_back(st);
  w.streams.push_back(s);
  const auto v = check_platform(p, w);
  CHECK(has_problem(v, "'cpu' cannot reach 'hbm0'"));
  // int8 falls back to fp16, bf16...: bf16 exists, so the convolutions can run.
  CHECK_FALSE(has_problem(v, "no throughput"));
}

TEST_CASE("peak per cycle: the widest-first ladder, and the vector path for what the tensor path lacks") {
  // A V100-like SM array: tensor cores for FP16 only, CUDA cores for FP32 and FP16; 80 SMs.
  compute_unit_config u = unit("gpu0", "", "", {});
  u.ops_per_cycle = {{precision::fp16, 1024}};
  u.vector_ops_per_cycle = {{precision::fp32, 128}, {precision::fp16, 256}};
  u.cores = 80;
  const op fp16_gemm = gemm_op("g16", 64, 64, 64, precision::fp16);
  const op int8_gemm = gemm_op("g8", 64, 64, 64, precision::int8);
  const op fp32_gemm = gemm_op("g32", 64, 64, 64, precision::fp32);
  const op fp32_add = elementwise_op("add", 64, 1, 2, precision::fp32);
  CHECK(unit_peak_per_cycle(u, fp16_gemm) == 1024 * 80);  // tensor cores
  CHECK(unit_peak_per_cycle(u, int8_gemm) == 1024 * 80);  // INT8 dequantised onto the FP16 tensor path
  CHECK(unit_peak_per_cycle(u, fp32_gemm) == 128 * 80);   // no FP32 tensor rate: the CUDA cores' FMA
  CHECK(unit_peak_per_cycle(u, fp32_add) == 128 * 80);
  // Given an FP32 tensor rate (TF32, an A100), the tensor path runs it.
  u.ops_per_cycle[precision::fp32] = 512;
  CHECK(unit_peak_per_cycle(u, fp32_gemm) == 512 * 80);
  // An A100-like array (INT8 at twice the FP16 rate, no FP8): an FP8 GEMM runs at the FP16 rate
  // (dequantised), never at the same-width INT8 one; INT8 keeps its own.
  u.ops_per_cycle[precision::int8] = 2048;
  const op fp8_gemm = gemm_op("g8f", 64, 64, 64, precision::fp8);
  CHECK(unit_peak_per_cycle(u, fp8_gemm) == 1024 * 80);
  CHECK(on_tensor_path(u, fp8_gemm));
  CHECK(unit_peak_per_cycle(u, int8_gemm) == 2048 * 80);
  // No vector table and no tensor rate for the precision: nothing can run it.
  compute_unit_config npu = unit("npu", "", "", {});
  npu.ops_per_cycle = {{precision::int8, 4096}};
  npu.cores = 1;
  CHECK(unit_peak_per_cycle(npu, fp32_gemm) == 0);
  CHECK(unit_peak_per_cycle(npu, int8_gemm) == 4096);
}
