#pragma once
// Temperature-dependent power (leakage) on a compact_model, in the steady state and in
// transient runs.
//
// Coupling scheme of the transient (coupled_transient::step, one step of dt with the dynamic
// power held constant over it):
//  1. predictor: the extra power is evaluated at the blocks' temperatures at the start of the
//     step, P0 = f(T(t)), and the network is advanced by dt with P_dyn + P0;
//  2. corrector (leakage_coupling::heun, the default): the extra power is re-evaluated at the
//     predicted end temperatures, P1 = f(T_pred(t+dt)), and the step is redone from T(t) with
//     P_dyn + (P0 + P1)/2 (the trapezoidal rule on the feedback).
// Conduction and storage are integrated by the transient_solver (exactly or implicitly, so any
// dt is stable); only the feedback is explicit: first order in dt with
// leakage_coupling::explicit_start, second order with heun. The explicit feedback stays
// accurate while dt * (dP/dT) * R_block << 1, i.e. while a step's leakage change is small;
// beyond that, shorten dt. A genuine runaway (temperature without bound) ends in the solver's
// divergence_error, which names the node and the time.
#include <functional>
#include <vector>

#include "ptsim/thermal/compact_model.hpp"
#include "ptsim/thermal/solver.hpp"

namespace ptsim::thermal {

/// Extra power of every power input as a function of the inputs' temperatures: given
/// input_T_K[i] (K) for every input of the model, writes extra_W[i] (W). It is called several
/// times per step and must not depend on anything but its arguments.
using input_power_fn = std::function<void(const double* input_T_K, double* extra_W)>;

/// HotSpot's built-in leakage model (temperature.c): P = alpha * A * exp(beta * (T - T_base)),
/// A the block area.
struct exponential_leakage {
  double alpha_W_per_m2 = 1.5e4;
  double beta_per_K = 0.036;
  double base_K = 383.15;
  double power_W(double area_m2, double T_K) const;
};

/// An input_power_fn that applies `model` to every input of `m` with its area.
input_power_fn make_leakage_fn(const compact_model& m, exponential_leakage model = {});

struct leakage_iteration {
  double tolerance_K = 1e-6;  ///< stop when no block temperature changes more than this
  int max_iterations = 1000;
  double max_temperature_K = 1000.0;  ///< beyond this: runaway
};

/// Steady state with temperature-dependent power, by fixed-point iteration (HotSpot's
/// leakage loop): evaluate the extra power at the current block temperatures, solve, repeat,
/// starting from the solution without extra power. Returns node temperatures (K). Throws
/// divergence_error naming the hottest block when the iteration passes max_temperature_K or
/// does not converge (thermal runaway: leakage grows faster than the package removes it).
std::vector<double> steady_state(const compact_model& m, const steady_solver& solver,
                                 const std::vector<double>& input_W, const input_power_fn& extra,
                                 double ambient_K, const leakage_iteration& it = {});

enum class leakage_coupling { explicit_start, heun };

/// A transient_solver whose block power includes a temperature-dependent part (see the
/// coupling scheme at the top of this header). step() does not allocate.
class coupled_transient {
 public:
  /// `solver` must be built on m.net and outlive this object.
  coupled_transient(const compact_model& m, transient_solver& solver, input_power_fn extra,
                    leakage_coupling coupling = leakage_coupling::heun);
  /// Advances by solver.dt() with the inputs' dynamic power (W, one per input).
  void step(const double* input_W);
  /// The extra power (W) per input applied in the last step.
  const std::vector<double>& extra_W() const { return applied_; }

 private:
  void input_temperatures(std::vector<double>& out) const;
  const compact_model& m_;
  transient_solver& solver_;
  input_power_fn extra_;
  leakage_coupling coupling_;
  std::vector<double> t_in_, p0_, p1_, applied_, total_, node_p_;
};

}  // namespace ptsim::thermal
