#pragma once
// Measured operator times (a profile): a table of kernels timed on real hardware, looked
// up by operator kind, precision and shape, and interpolated in the operator's size. A
// compute unit with a profile times the operators it finds here from the table instead
// of the roofline (compute_unit.cpp). Plain C++.
//
// Key, per kind (the shape fields of `op`, one kernel, not all repeats):
//   gemm, conv:  exact n and k (the weight's shape), interpolated in m (rows, tokens)
//   attention:   exact k (heads x head_dim on the unit), interpolated in n (keys attended
//                summed over the queries: proportional to its FLOPs, and in decode to the
//                KV cache it reads)
//   others:      exact k (row width), interpolated in m (rows)
// A row that leaves an exact field empty matches any value of it. Between the two
// neighbouring rows the time is linear in the size; above the largest it grows in
// proportion (a large kernel runs at the throughput of the largest measured); below the
// smallest it stays at the smallest's time (small kernels are latency-bound: measured
// times flatten out towards one wave of the machine, they do not go to zero).
#include <filesystem>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "ptsim/tlm_config/op.hpp"

namespace ptsim::tlm_config {

/// One measured kernel.
struct profile_row {
  op_kind kind = op_kind::other;
  precision prec = precision::bf16;
  double m = 0, n = 0, k = 0;  ///< shape; 0 in an exact field: any
  double time_s = 0;           ///< one kernel's time at clock_hz
  double clock_hz = 0;         ///< the unit's clock when measured
  /// Share of time_s that scales with the clock (the rest is memory time); < 0: not given.
  double compute_fraction = -1;
};

/// What the table says about one kernel: time_s at ref_hz, of which compute_fraction
/// (< 0: not given, the unit derives it) scales with 1/f.
struct profile_point {
  double time_s = 0;
  double ref_hz = 0;
  double compute_fraction = -1;
};

class op_profile {
 public:
  op_profile() = default;
  explicit op_profile(std::vector<profile_row> rows, std::string source = "");
  /// The table's time for one kernel of `o` measured at the clock nearest `hz`; nothing
  /// when no row has its kind, precision and exact fields, or `o` has no shape.
  std::optional<profile_point> lookup(const op& o, double hz) const;
  std::size_t rows() const { return rows_; }
  const std::string& source() const { return source_; }

 private:
  // Rows of one key and clock, sorted by size (rows of equal size averaged).
  struct group {
    op_kind kind;
    precision prec;
    double exact1, exact2;  // n, k (gemm, conv) or k and 0 (others); 0: any
    double clock_hz;
    std::vector<double> size;
    std::vector<double> time_s;
    std::vector<double> compute_s;  // time_s x compute_fraction; < 0: not given
  };
  std::vector<group> groups_;
  std::size_t rows_ = 0;
  std::string source_;
};

/// A bad profile file: `what()` is "file:line:column: message".
struct profile_error : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// Defaults for what a file's rows do not say.
struct profile_defaults {
  double clock_hz = 0;            ///< clock of rows without clock_mhz
  precision prec = precision::bf16;  ///< precision of rows without one (Vidur files say none)
  double compute_fraction = -1;   ///< of rows without one (< 0: derived by the unit)
};

/// Reads a profile CSV: ptsim's own form (README, "Operators and their time"), or a
/// Vidur operator profile (microsoft/vidur data/profiling/compute/<gpu>/<model>/mlp.csv),
/// told apart by its time_stats.* columns. Throws profile_error.
op_profile read_op_profile(const std::filesystem::path& file, const profile_defaults& d);

/// The size a profile interpolates `o` in, per its kind (see above).
double profile_size(op_kind k, double m, double n);

}  // namespace ptsim::tlm_config
