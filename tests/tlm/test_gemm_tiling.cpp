// A GEMM's cycles from its shape (gemm_tiling.hpp): tiles, waves, split-K, the fastest of
// the tile shapes; every expectation worked out by hand from the formula in the header.
#include <doctest/doctest.h>

#include <stdexcept>

#include "ptsim/tlm_config/gemm_tiling.hpp"

using namespace ptsim::tlm_config;

namespace {
gemm_tiling one_tile(int m, int n, double feed, double wave) {
  gemm_tiling t;
  t.tiles = {{m, n}};
  t.operand_bytes_per_cycle = feed;
  t.wave_cycles = wave;
  return t;
}
}  // namespace

TEST_CASE("split-K fills the SMs a few tiles leave idle, and stops where a split gets too shallow") {
  // 128x128 tiles, 64 B/cycle, 1000 cycles a wave, 4096 ops/cycle/SM, 100 SMs, share 0.5,
  // 2-byte elements: a K step is max(2*128*128/4096, 256*2/64) = 8 cycles, 16 at share 0.5.
  const gemm_tiling t = one_tile(128, 128, 64, 1000);
  // 256 x 256 x 1024: 4 tiles, one wave either way.
  //   s = 1: 16*1024 + 1000                     = 17384
  //   s = 2: 16*512  + 1000 + 1*8*128*128/64    = 11240
  //   s = 4: 16*256  + 1000 + 3*2048            = 11240 (a tie: the first found stays)
  //   s = 8: K/8 = 128 below min_split_depth (256): not tried
  const gemm_launch l = fastest_tiling(t, 256, 256, 1024, 1, 100, 4096, 2, 0.5);
  CHECK(l.split_k == 2);
  CHECK(l.waves == 1);
  CHECK(l.cycles == doctest::Approx(11240));
  // A GEMM that fills the SMs on its own gains nothing from splitting: 1280 x 1280 x 1024
  // is 100 tiles, one wave at s = 1 (17384); s = 2 doubles the waves.
  const gemm_launch full = fastest_tiling(t, 1280, 1280, 1024, 1, 100, 4096, 2, 0.5);
  CHECK(full.split_k == 1);
  CHECK(full.cycles == doctest::Approx(17384));
  // A batch of 3 such GEMMs in one call: 300 tiles, 3 waves.
  const gemm_launch batch = fastest_tiling(t, 1280, 1280, 1024, 3, 100, 4096, 2, 0.5);
  CHECK(batch.waves == 3);
  CHECK(batch.cycles == doctest::Approx(3 * 17384));
  // Partial tiles are whole tiles: 129 rows take two tile rows (200 tiles, 2 waves).
  const gemm_launch ragged = fastest_tiling(t, 129, 12800, 1024, 1, 100, 4096, 2, 0.5);
  CHECK(ragged.waves == 2);
  CHECK(ragged.split_k == 1);
  CHECK(ragged.cycles == doctest::Approx(2 * 17384));
}

TEST_CASE("of the tile shapes the fastest: large tiles where their reuse pays, small ones where waves do") {
  gemm_tiling t;
  t.tiles = {{128, 256}, {64, 64}};
  t.operand_bytes_per_cycle = 50;
  t.wave_cycles = 0;
  t.max_split_k = 1;
  // 4096^3 on 132 SMs at 4096 ops/cycle/SM, share 1, 2-byte elements.
  //   128x256: 32*16 = 512 tiles, 4 waves; a K step max(16, 384*2/50 = 15.36) = 16: 4*16*4096 = 262144
  //   64x64: 4096 tiles, 32 waves; a K step max(2, 128*2/50 = 5.12) = 5.12: 32*5.12*4096 = 671088.64
  const gemm_launch big = fastest_tiling(t, 4096, 4096, 4096, 1, 132, 4096, 2, 1.0);
  CHECK(big.tile.m == 128);
  CHECK(big.tile.n == 256);
  CHECK(big.cycles == doctest::Approx(262144));
  // 64 x 64 x 4096: the large tile wastes 7/8 of its one tile, the small one fits it.
  //   128x256: 1 wave of 16*4096 = 65536; 64x64: 1 wave of 5.12*4096 = 20971.52
  const gemm_launch small = fastest_tiling(t, 64, 64, 4096, 1, 132, 4096, 2, 1.0);
  CHECK(small.tile.m == 64);
  CHECK(small.cycles == doctest::Approx(20971.52));
  // FP8 operands (1 byte) halve the feed's part: 64x64 then takes max(2, 2.56) per step.
  CHECK(fastest_tiling(t, 64, 64, 4096, 1, 132, 4096, 1, 1.0).cycles == doctest::Approx(2.56 * 4096));
}

TEST_CASE("tile shapes parse as ROWSxCOLUMNS and nothing else") {
  CHECK(parse_gemm_tile("128x256").m == 128);
  CHECK(parse_gemm_tile("128x256").n == 256);
  CHECK(to_string(parse_gemm_tile("64x128")) == "64x128");
  CHECK_THROWS_AS(parse_gemm_tile("128"), std::invalid_argument);
  CHECK_THROWS_AS(parse_gemm_tile("128X256"), std::invalid_argument);
  CHECK_THROWS_AS(parse_gemm_tile("x256"), std::invalid_argument);
  CHECK_THROWS_AS(parse_gemm_tile("0x256"), std::invalid_argument);
  CHECK_THROWS_AS(parse_gemm_tile("128x8192"), std::invalid_argument);
  CHECK_THROWS_AS(parse_gemm_tile("-1x64"), std::invalid_argument);
  CHECK(default_gemm_tiles().size() == 6);
  CHECK(to_string(default_gemm_tiles().front()) == "128x256");
}
