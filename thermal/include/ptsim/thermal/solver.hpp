#pragma once
// Steady-state and transient solvers for an rc_network. Sparse (Eigen), factorised once.
#include <memory>
#include <string>
#include <vector>

#include "ptsim/thermal/rc_network.hpp"

namespace ptsim::thermal {

/// Solves G T = P + g_amb * T_amb. power_W has one entry per node (zero for nodes
/// without a source). Returns node temperatures in kelvin.
std::vector<double> steady_state(const rc_network& net, const std::vector<double>& power_W,
                                 double ambient_K);

/// Thermal runaway or a non-finite temperature: names the node and the time.
struct divergence_error : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// Implicit transient integration of C dT/dt = P - G (T - T_amb) with a fixed step
/// dt split into `substeps` backward-Euler sub-steps; the sparse LU factorisation of
/// (C/h + G) is computed once in the constructor and reused for every step.
/// step() does not allocate.
class transient_solver {
 public:
  transient_solver(const rc_network& net, double dt_s, int substeps, double ambient_K);
  ~transient_solver();
  transient_solver(transient_solver&&) noexcept;
  transient_solver& operator=(transient_solver&&) noexcept;

  void set_temperatures(const std::vector<double>& T_K);
  /// Advances by dt with node powers (W, one per node, held constant over the step).
  /// Throws divergence_error when a temperature becomes non-finite or exceeds max_temperature_K.
  void step(const double* power_W);
  const std::vector<double>& temperatures() const;  ///< kelvin, one per node
  double time() const;                              ///< seconds advanced so far
  double dt() const;
  double max_temperature_K = 1000.0;  ///< beyond this the run is considered divergent

 private:
  struct impl;
  std::unique_ptr<impl> p_;
};

}  // namespace ptsim::thermal
