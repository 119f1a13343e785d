#pragma once
// A GEMM's time from its shape, as a GPU library runs it: the output cut into tiles, one
// thread block per tile and SM, the tiles run in waves of the SMs, and the reduction
// dimension split (split-K) when too few tiles would fill the SMs. Of a set of tile
// shapes and splits, the fastest is taken, as cuBLAS's heuristics pick a kernel per shape
// (NVIDIA, "Matrix Multiplication Background User's Guide": tile and wave quantization).
// Plain C++; compute_unit.cpp turns the cycles into the operator's arithmetic rate.
//
// Per wave, a tile takes
//   ceil(K / s) x max(2 tm tn / P, (tm + tn) b / F) / share  +  wave_cycles  +  (s - 1) 8 tm tn / F
// cycles: its K loop, each step bound by the tensor cores (P operations per cycle per SM)
// or by the operand feed into the SM (F bytes per cycle, b bytes per element: small tiles
// reuse each operand less); a fixed prologue and epilogue (the first operand stages
// loaded, the output tile written); and with s > 1 splits, the partial tiles' FP32 sums
// read and written once per extra split. share is the kind's share of peak
// (op_efficiency): what the K loop reaches. Waves: ceil(tiles x s x batch / SMs).
#include <string>
#include <vector>

namespace ptsim::tlm_config {

struct gemm_tile {
  int m = 0, n = 0;  ///< output rows and columns one thread block computes
};

/// Parses "128x256" (rows x columns, each 1 .. 4096); throws std::invalid_argument otherwise.
gemm_tile parse_gemm_tile(const std::string& s);
/// "128x256".
std::string to_string(gemm_tile t);
/// The output tile shapes of CUTLASS's and cuBLAS's tensor-core GEMM kernels on Ampere and
/// Hopper, largest first (of two equally fast tilings the first is taken).
std::vector<gemm_tile> default_gemm_tiles();

struct gemm_tiling {
  std::vector<gemm_tile> tiles;        ///< the shapes to choose among; empty: not modelled
  double operand_bytes_per_cycle = 0;  ///< F: operand bytes fed into one SM per cycle
  double wave_cycles = 0;              ///< a tile's prologue and epilogue, per wave
  int max_split_k = 16;                ///< largest split of K (splits are powers of two)
  double min_split_depth = 256;        ///< a split's K is at least this (a split K loop's length)
  bool enabled() const { return !tiles.empty(); }
};

/// The tiling chosen for one GEMM and its time in cycles.
struct gemm_launch {
  gemm_tile tile;
  int split_k = 1;
  double waves = 0;
  double cycles = 0;
};

/// The fastest tiling of `batch` GEMMs of [m x k] x [k x n] on `sms` SMs of `ops_per_cycle`
/// tensor operations each (a MAC = 2), elements of `element_bytes`, the K loop at `share`
/// of peak. Requires t.enabled(), positive shapes, sms, ops_per_cycle, element_bytes and share.
gemm_launch fastest_tiling(const gemm_tiling& t, double m, double n, double k, double batch, int sms,
                           double ops_per_cycle, double element_bytes, double share);

}  // namespace ptsim::tlm_config
