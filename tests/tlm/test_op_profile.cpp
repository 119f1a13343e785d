// The measured-profile table (op_profile.hpp): its key, interpolation and CSV forms.
#include "ptsim/tlm_config/op_profile.hpp"

#include <doctest/doctest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "approx.hpp"
#include "ptsim/tlm_config/operators.hpp"
#include "ptsim/tlm_config/training.hpp"

using namespace ptsim::tlm_config;
using tlm_test::near;
namespace fs = std::filesystem;

namespace {

profile_row row(op_kind k, double m, double n, double kk, double t_s, double hz = 1980e6, double c = -1) {
  profile_row r;
  r.kind = k;
  r.prec = precision::bf16;
  r.m = m;
  r.n = n;
  r.k = kk;
  r.time_s = t_s;
  r.clock_hz = hz;
  r.compute_fraction = c;
  return r;
}

// A scratch file that removes itself.
struct scratch {
  fs::path path;
  explicit scratch(const std::string& text) {
    path = fs::temp_directory_path() / ("ptsim-profile-" + std::to_string(::getpid()) + "-" +
                                        std::to_string(reinterpret_cast<std::uintptr_t>(this)) + ".csv");
    std::ofstream(path) << text;
  }
  ~scratch() { fs::remove(path); }
};

std::string error_of(const std::string& text) {
  scratch f(text);
  try {
    read_op_profile(f.path, {1980e6, precision::bf16, -1});
  } catch (const profile_error& e) {
    const std::string s = e.what();
    return s.substr(f.path.string().size());  // from the ':' after the file name
  }
  return "no error";
}

}  // namespace

TEST_CASE("gemm rows: exact n and k, linear in m between rows, proportional above, flat below") {
  const op_profile p({row(op_kind::gemm, 256, 4096, 4096, 100e-6), row(op_kind::gemm, 512, 4096, 4096, 160e-6)});
  // Midpoint m = 384: (100 + 160) / 2 = 130 us.
  auto at = p.lookup(gemm_op("g", 384, 4096, 4096, precision::bf16), 1980e6);
  REQUIRE(at);
  CHECK(at->time_s == near(130e-6));
  CHECK(at->ref_hz == 1980e6);
  CHECK(at->compute_fraction < 0);  // not given
  // Above the largest, in proportion: m = 1024 -> 160 us x 2.
  CHECK(p.lookup(gemm_op("g", 1024, 4096, 4096, precision::bf16), 1e9)->time_s == near(320e-6));
  // Below the smallest, its time: m = 1 -> 100 us.
  CHECK(p.lookup(gemm_op("g", 1, 4096, 4096, precision::bf16), 1e9)->time_s == near(100e-6));
  // Another n, another precision, another kind, no shape: no row.
  CHECK(!p.lookup(gemm_op("g", 384, 1024, 4096, precision::bf16), 1e9));
  CHECK(!p.lookup(gemm_op("g", 384, 4096, 4096, precision::fp8), 1e9));
  op conv = gemm_op("c", 384, 4096, 4096, precision::bf16);
  conv.kind = op_kind::conv;
  CHECK(!p.lookup(conv, 1e9));
  op unshaped = gemm_op("g", 384, 4096, 4096, precision::bf16);
  unshaped.shape_m = unshaped.shape_n = unshaped.shape_k = 0;
  CHECK(!p.lookup(unshaped, 1e9));
}

TEST_CASE("batched operators carry their shape; attention interpolates in keys attended") {
  // Decoder attention of 1 query over 1000 keys, batched x8: n = 8000 keys attended.
  const op one = attention_op("a", 1, 1000, 1000, 32, 8, 128, precision::bf16, precision::bf16);
  op_graph g;
  g.ops.push_back(one);
  const op b = batched(g, 8).ops[0];
  CHECK(b.shape_m == 8);
  CHECK(b.shape_n == 8000);
  CHECK(b.shape_k == 32 * 128);
  const op_profile p({row(op_kind::attention, 0, 4000, 4096, 20e-6), row(op_kind::attention, 0, 16000, 4096, 50e-6)});
  // 8000 is a third of the way from 4000 to 16000: 20 + (50 - 20) / 3 = 30 us.
  CHECK(p.lookup(b, 1980e6)->time_s == near(30e-6));
}

TEST_CASE("an empty exact field matches any; the more specific row wins; the nearest clock wins") {
  const op_profile p({row(op_kind::norm, 1000, 0, 0, 10e-6), row(op_kind::norm, 1000, 0, 4096, 20e-6),
                      row(op_kind::norm, 1000, 0, 4096, 40e-6, 990e6)});
  op n = elementwise_op("n", 1000 * 4096, 4, 2, precision::bf16, op_kind::norm);
  n.shape_m = 1000;
  n.shape_k = 4096;
  CHECK(p.lookup(n, 1900e6)->time_s == near(20e-6));  // k = 4096 rows, measured at 1980 MHz
  CHECK(p.lookup(n, 1000e6)->time_s == near(40e-6));  // k = 4096 rows, measured at 990 MHz
  CHECK(p.lookup(n, 1000e6)->ref_hz == 990e6);
  n.shape_k = 2048;
  CHECK(p.lookup(n, 1900e6)->time_s == near(10e-6));  // only the row with any k
}

TEST_CASE("the compute fraction interpolates as a time; repeated rows average") {
  const op_profile p({row(op_kind::gemm, 100, 64, 64, 10e-6, 1e9, 0.5), row(op_kind::gemm, 200, 64, 64, 30e-6, 1e9, 1.0),
                      row(op_kind::gemm, 200, 64, 64, 10e-6, 1e9, 1.0)});
  // m = 200 twice: mean 20 us, all compute. Midpoint m = 150: time (10 + 20) / 2 = 15 us,
  // compute (5 + 20) / 2 = 12.5 us: fraction 12.5 / 15.
  const auto at = p.lookup(gemm_op("g", 150, 64, 64, precision::bf16), 1e9);
  CHECK(at->time_s == near(15e-6));
  CHECK(at->compute_fraction == near(12.5 / 15));
}

TEST_CASE("ptsim's CSV form") {
  scratch f(
      "# H100 SXM, illustrative\n"
      "kind, precision, m, n, k, time_us, clock_mhz, compute_fraction, source\n"
      "gemm, bf16, 256, 4096, 4096, 100, , 0.9, by hand\n"
      "gemm, bf16, 512, 4096, 4096, 160, 1980, , by hand\n"
      "\n"
      "norm, , 512, , 4096, 8, 1410, 0.1, by hand   # a comment\n");
  const op_profile p = read_op_profile(f.path, {1980e6, precision::bf16, 0.7});
  CHECK(p.rows() == 3);
  const auto g = p.lookup(gemm_op("g", 384, 4096, 4096, precision::bf16), 1980e6);
  CHECK(g->time_s == near(130e-6));
  // Compute parts: 0.9 x 100 = 90 us and the default 0.7 x 160 = 112 us: 101 of 130 us.
  CHECK(g->compute_fraction == near(101.0 / 130));
  op n = elementwise_op("n", 512 * 4096, 4, 2, precision::bf16, op_kind::norm);
  n.shape_m = 512;
  n.shape_k = 4096;
  CHECK(p.lookup(n, 1e9)->time_s == near(8e-6));
  CHECK(p.lookup(n, 1e9)->ref_hz == 1410e6);
}

TEST_CASE("a Vidur MLP profile maps onto the decoder's operators") {
  // Hand-written in the column layout of microsoft/vidur data/profiling/compute/<gpu>/
  // <model>/mlp.csv (times in ms, the median used); a Llama-2-7B-like layer on 2 ranks.
  scratch f(
      "time_stats.attn_pre_proj.median,time_stats.mlp_up_proj.median,time_stats.input_layernorm.median,"
      "time_stats.post_attention_layernorm.median,time_stats.add.median,n_head,n_kv_head,n_embd,n_expanded_embd,"
      "vocab_size,use_gated_mlp,num_tokens,num_tensor_parallel_workers\n"
      "0.10,0.30,0.010,0.014,0.005,32,32,4096,11008,32768,True,128,2\n"
      "0.20,0.50,0.020,0.024,0.005,32,32,4096,11008,32768,True,256,2\n");
  const op_profile p = read_op_profile(f.path, {1755e6, precision::fp16, -1});
  // qkv on 2 ranks: (16 + 2 x 16) heads x 128 = 6144 columns; at m = 192: (0.1 + 0.2) / 2 ms.
  const auto qkv = p.lookup(gemm_op("qkv", 192, 6144, 4096, precision::fp16), 1755e6);
  REQUIRE(qkv);
  CHECK(qkv->time_s == near(0.15e-3));
  CHECK(qkv->ref_hz == 1755e6);
  // Gated up projection: 2 x 11008 / 2 = 11008 columns.
  CHECK(p.lookup(gemm_op("up", 256, 11008, 4096, precision::fp16), 1755e6)->time_s == near(0.5e-3));
  // Both layer norms are norms of 4096 wide rows: averaged, (0.010 + 0.014) / 2 at m = 128.
  op n = elementwise_op("n", 128 * 4096, 4, 2, precision::fp16, op_kind::norm);
  n.shape_m = 128;
  n.shape_k = 4096;
  CHECK(p.lookup(n, 1755e6)->time_s == near(0.012e-3));
}

TEST_CASE("bad profile files are refused at their line and column") {
  CHECK(error_of("kind,m,n,k,time_us\ngemm,1,2,3,abc\n") == ":2:12: column 'time_us': expected a time > 0, found 'abc'");
  CHECK(error_of("kind,m,n,k,time_us\ngemm,1,2,3,-4\n") == ":2:12: column 'time_us': expected a time > 0, found '-4'");
  CHECK(error_of("kind,m,n,k,time_us\ngemn,1,2,3,4\n").rfind(":2:1: column 'kind': unknown operator kind 'gemn'", 0) == 0);
  CHECK(error_of("kind,m,n,k,time_us\ngemm,,2,3,4\n") ==
        ":2:6: column 'm': a gemm row needs its size m (a number > 0), found an empty field");
  CHECK(error_of("kind,m,n,k,time_us\ngemm,1,2,3\n") == ":2: expected 5 fields (as the header), found 4");
  CHECK(error_of("kind,m,n,k,time_us,colour\n").rfind(":1:20: unknown column 'colour' (expected kind,", 0) == 0);
  CHECK(error_of("kind,m,time_us\ncollective,1,4\n").rfind(":2:1: column 'kind': expected a kind a compute unit", 0) ==
        0);
  CHECK(error_of("kind,m,time_us,compute_fraction\ngemm,1,4,1.5\n") ==
        ":2:10: column 'compute_fraction': expected a share from 0 to 1, found '1.5'");
  CHECK(error_of("kind,m,time_us,time_ms\n") == ":1: expected one time column, time_us or time_ms, found both");
  CHECK(error_of("kind,m,time_us\n") == ": no rows after the header");
  CHECK(error_of("time_stats.mlp_up_proj.median,n_head\n0.1,32\n").rfind(":1: missing column 'n_kv_head'", 0) == 0);
}

TEST_CASE("the example profile in scenarios/profiles parses and covers llama3_8b's GEMMs") {
  const op_profile p = read_op_profile(PTSIM_SOURCE_DIR "/scenarios/profiles/h100-llama3-8b-gemm.csv",
                                       {1980e6, precision::bf16, -1});
  CHECK(p.rows() == 30);
  // o_proj rows m = 1024: 54.6 us, m = 4096: 203.5 us; m = 2560 halfway: 129.05 us.
  const auto at = p.lookup(gemm_op("o_proj", 2560, 4096, 4096, precision::bf16), 1980e6);
  REQUIRE(at);
  CHECK(at->time_s == near(129.05e-6));
}

TEST_CASE("a training step's backward kernels are not the forward's: a profile leaves them to the roofline") {
  const op_profile p({row(op_kind::gemm, 256, 4096, 4096, 100e-6)});
  op_graph fwd;
  fwd.ops.push_back(gemm_op("fc", 256, 4096, 4096, precision::bf16));
  const op_graph step = training_step(fwd, {});
  REQUIRE(step.ops.size() >= 2);
  CHECK(step.ops[0].name == "fc");
  CHECK(p.lookup(step.ops[0], 1980e6));
  CHECK(step.ops[1].name == "bwd_fc");
  CHECK(!p.lookup(step.ops[1], 1980e6));
}
