#pragma once
// Steady-state and transient solvers for an rc_network. Sparse (Eigen), factorised once.
#include <limits>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "ptsim/thermal/rc_network.hpp"

namespace ptsim::thermal {

/// Solves G T = P + g_amb * T_amb (with coolant advection A, (G + A) T = P + g_amb T_amb +
/// inflow heat, by sparse LU). power_W has one entry per node (zero for nodes
/// without a source). Returns node temperatures in kelvin. Solved as steady_solver does
/// (sparse LDL^T, or CG on large networks): G is symmetric positive definite once every
/// node reaches ambient.
/// Throws std::invalid_argument when power_W has the wrong size or some node has no
/// conductive path to ambient (G would be singular); the message names such a node.
std::vector<double> steady_state(const rc_network& net, const std::vector<double>& power_W,
                                 double ambient_K);

/// Solves G T = P + g_amb T_amb for many power vectors (leakage iterations, sweeps): G
/// factorised once (LDL^T) below 2000 nodes; from 2000 nodes (grid models) by Jacobi-
/// preconditioned conjugate gradients to a relative residual of 1e-13 (measured within
/// 2e-11 K of the factorisation, 4-13x faster), factorising after all if CG does not
/// converge. Same preconditions as steady_state().
class steady_solver {
 public:
  explicit steady_solver(const rc_network& net);
  ~steady_solver();
  steady_solver(steady_solver&&) noexcept;
  steady_solver& operator=(steady_solver&&) noexcept;
  /// Node temperatures (K) for node powers power_W (W) and the ambient (K).
  /// guess_K: temperatures to start the iteration from (the last solve of a leakage
  /// iteration); ignored by the factorised solve.
  std::vector<double> solve(const std::vector<double>& power_W, double ambient_K,
                            const std::vector<double>* guess_K = nullptr) const;
  /// How the systems are solved (tests, diagnostics): "ldlt" (sparse factorisation),
  /// "layered" (grid of uniform layers, separation of variables), "cg", "lu", "bicgstab".
  std::string linear_solver() const;

 private:
  struct impl;
  std::unique_ptr<impl> p_;
};

/// Thermal runaway or a non-finite temperature: names the node and the time.
struct divergence_error : std::runtime_error {
  using std::runtime_error::runtime_error;
  divergence_error(const std::string& what, std::size_t node_index, double at_time_s,
                   double temperature = std::numeric_limits<double>::quiet_NaN(),
                   double limit = std::numeric_limits<double>::quiet_NaN())
      : std::runtime_error(what), node(node_index), time_s(at_time_s), temperature_K(temperature),
        limit_K(limit) {}
  std::size_t node = static_cast<std::size_t>(-1);  ///< the offending node, when known
  double time_s = 0;                                 ///< simulated time of the failure (s)
  /// The node's temperature (K) when it passed the limit; NaN when it is not finite or unknown.
  double temperature_K = std::numeric_limits<double>::quiet_NaN();
  double limit_K = std::numeric_limits<double>::quiet_NaN();  ///< the limit passed (K), when known
  std::string node_name;  ///< the offending node's name in its network, when known
};

/// How transient_solver advances one step of C dT/dt = P - G (T - T_amb).
enum class integration_method {
  /// Implicit, L-stable, first order: `substeps` sub-steps of h = dt/substeps, each solving
  /// (C/h + G) T' = C/h T + P + g_amb T_amb with a sparse Cholesky (LDL^T) factorisation
  /// computed once. Cost per sub-step ~ nnz(L); suits any network size. Error O(h).
  backward_euler,
  /// Exact for power held constant over dt: T(t+dt) = Phi T(t) + M (P + g_amb T_amb),
  /// Phi = exp(-C^-1 G dt), M = (I - Phi) G^-1, both dense and precomputed once from the
  /// eigen-decomposition of C^-1/2 G C^-1/2. Cost per step: two dense n x n mat-vecs and
  /// O(n^3) set-up, so meant for networks up to a few hundred nodes. `substeps` is ignored
  /// (accepted for symmetry); temperatures are checked for divergence once per dt.
  exponential,
  /// Extrapolated implicit Euler, for networks too large for `exponential` (grid models):
  /// each of `substeps` macro steps H = dt/substeps is integrated three times by backward
  /// Euler with 1, 2 and 3 sub-steps, and the results are extrapolated to zero step size,
  /// T = T1/2 - 4 T2 + 9 T3/2 (third order). Its stability function is bounded by 1 on the
  /// whole negative real axis and vanishes at infinity, so stiff networks stay stable. Cost:
  /// 6 sparse back-substitutions per macro step, three LDL^T factorisations computed once.
  /// With error_tolerance_K > 0 the solver adapts:
  ///  - it first takes one backward-Euler step and keeps it when its local error estimate
  ///    (half the gap to a forward-Euler step) is below 1 % of the tolerance, which happens
  ///    when rows are short against the network's time constants (1 solve instead of 6);
  ///  - it doubles `substeps` (and redoes the step) when the embedded estimate
  ///    |T - (3 T3 - 2 T2)| exceeds the tolerance, and halves them after 4 steps under 1/8 of
  ///    it; factorisations are cached per sub-step count;
  ///  - when C/h dominates G (no row's off-diagonal sum above 0.3 of its diagonal), it solves
  ///    by Jacobi-preconditioned conjugate gradients instead of factorising.
  /// With error_tolerance_K = 0 every step takes the same 6 factorised solves, allocation free.
  extrapolated_euler,
};

/// Transient integration of C dT/dt = P - G (T - T_amb) with a fixed step dt. Everything
/// that depends only on the network and dt is factorised or precomputed in the
/// constructor; step() does not allocate. Initial temperatures are the ambient.
class transient_solver {
 public:
  /// Backward Euler with `substeps` (>= 1) sub-steps per dt (see integration_method).
  transient_solver(const rc_network& net, double dt_s, int substeps, double ambient_K);
  /// Chooses the integration method. Throws std::invalid_argument for dt <= 0,
  /// substeps < 1, a non-finite ambient, an empty network, or `exponential` on a network with
  /// advection (microchannels; those solve by sparse LU, or BiCGSTAB/ILUT from 2000 nodes).
  transient_solver(const rc_network& net, double dt_s, int substeps, double ambient_K,
                   integration_method method);
  ~transient_solver();
  transient_solver(transient_solver&&) noexcept;
  transient_solver& operator=(transient_solver&&) noexcept;

  void set_temperatures(const std::vector<double>& T_K);
  /// Advances by dt with node powers (W, one per node, held constant over the step).
  /// Throws divergence_error when a temperature becomes non-finite or exceeds max_temperature_K
  /// (checked after every sub-step for backward Euler, at the end of the step for the
  /// exponential method); the solver is then left as it was before the call.
  void step(const double* power_W);
  /// Restores the temperatures, time and ambient energy from before the last step() (a
  /// predictor-corrector redoes a step this way). Throws std::logic_error if there is no step
  /// to undo. Does not allocate.
  void undo_step();
  const std::vector<double>& temperatures() const;  ///< kelvin, one per node
  double time() const;                              ///< seconds advanced so far
  double dt() const;
  integration_method method() const;
  /// Heat that has left the network to ambient since construction (J), i.e. the integral
  /// (not counting what a coolant carries away: networks with advection, microchannels)
  /// of sum_i g_amb,i (T_i - T_amb) dt. Backward Euler evaluates it with the end-of-sub-step
  /// temperatures, which makes sum_i C_i dT_i = int P dt - this hold exactly (to rounding);
  /// the exponential method integrates it exactly for its piecewise-constant power.
  double ambient_energy_J() const;
  double max_temperature_K = 1000.0;  ///< beyond this the run is considered divergent
  /// extrapolated_euler only: largest estimated error per step (K) before `substeps` doubles;
  /// 0 keeps `substeps` fixed (and step() allocation free).
  double error_tolerance_K = 0.0;
  /// Current macro sub-steps per dt (extrapolated_euler may change it; others: as built).
  int substeps() const;
  /// How the first factor's systems are solved (tests, diagnostics): "exponential", "ldlt"
  /// (sparse factorisation), "layered" (grid of uniform layers, separation of variables),
  /// "cg", "lu", "bicgstab", or "none yet" before extrapolated Euler's first step.
  std::string linear_solver() const;

 private:
  struct impl;
  std::unique_ptr<impl> p_;
};

}  // namespace ptsim::thermal
