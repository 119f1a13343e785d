#include "ptsim/thermal/leakage.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>

namespace ptsim::thermal {

double exponential_leakage::power_W(double area_m2, double T_K) const {
  return alpha_W_per_m2 * area_m2 * std::exp(beta_per_K * (T_K - base_K));
}

input_power_fn make_leakage_fn(const compact_model& m, exponential_leakage model) {
  std::vector<double> areas;
  for (const power_input& in : m.inputs) areas.push_back(in.area_m2);
  return [areas = std::move(areas), model](const double* T, double* extra) {
    for (std::size_t i = 0; i < areas.size(); ++i) extra[i] = model.power_W(areas[i], T[i]);
  };
}

std::vector<double> steady_state(const compact_model& m, const steady_solver& solver,
                                 const std::vector<double>& input_W, const input_power_fn& extra,
                                 double ambient_K, const leakage_iteration& it) {
  const std::size_t n = m.inputs.size();
  std::vector<double> node_p, total(n), t_in(n), extra_W(n, 0.0), prev(n);
  m.node_power(input_W.data(), node_p);
  std::vector<double> T = solver.solve(node_p, ambient_K);
  for (int k = 0;; ++k) {
    for (std::size_t i = 0; i < n; ++i) prev[i] = m.probe_temperature(m.inputs[i].probe, T);
    extra(prev.data(), extra_W.data());
    for (std::size_t i = 0; i < n; ++i) total[i] = input_W[i] + extra_W[i];
    m.node_power(total.data(), node_p);
    T = solver.solve(node_p, ambient_K, &T);
    double change = 0, hottest = -1e300;
    std::size_t at = 0;
    for (std::size_t i = 0; i < n; ++i) {
      t_in[i] = m.probe_temperature(m.inputs[i].probe, T);
      change = std::max(change, std::abs(t_in[i] - prev[i]));
      if (!(t_in[i] <= hottest)) {
        hottest = t_in[i];
        at = i;
      }
    }
    const bool runaway = !std::isfinite(hottest) || hottest > it.max_temperature_K;
    if (!runaway && change <= it.tolerance_K) return T;
    if (runaway || k + 1 >= it.max_iterations) {
      std::ostringstream msg;
      msg << "thermal runaway in the steady state with leakage: block '" << m.inputs[at].name << "' ";
      if (runaway)
        msg << "reached " << hottest << " K (limit " << it.max_temperature_K << " K)";
      else
        msg << "still changed by " << change << " K after " << it.max_iterations << " iterations";
      throw divergence_error(msg.str(), m.inputs[at].probe, 0.0);
    }
  }
}

coupled_transient::coupled_transient(const compact_model& m, transient_solver& solver,
                                     input_power_fn extra, leakage_coupling coupling)
    : m_(m), solver_(solver), extra_(std::move(extra)), coupling_(coupling) {
  const std::size_t n = m.inputs.size();
  t_in_.resize(n);
  p0_.resize(n);
  p1_.resize(n);
  applied_.assign(n, 0.0);
  total_.resize(n);
  node_p_.resize(m.net.size());
}

void coupled_transient::input_temperatures(std::vector<double>& out) const {
  const auto& T = solver_.temperatures();
  for (std::size_t i = 0; i < m_.inputs.size(); ++i) out[i] = m_.probe_temperature(m_.inputs[i].probe, T);
}

void coupled_transient::step(const double* input_W) {
  const std::size_t n = m_.inputs.size();
  auto advance = [&](const std::vector<double>& extra_W) {
    for (std::size_t i = 0; i < n; ++i) total_[i] = input_W[i] + extra_W[i];
    std::fill(node_p_.begin(), node_p_.end(), 0.0);
    for (std::size_t i = 0; i < n; ++i)
      for (const node_weight& s : m_.inputs[i].spread) node_p_[s.node] += s.weight * total_[i];
    solver_.step(node_p_.data());
  };
  input_temperatures(t_in_);
  extra_(t_in_.data(), p0_.data());
  if (coupling_ == leakage_coupling::explicit_start) {
    advance(p0_);
    applied_ = p0_;
    return;
  }
  advance(p0_);
  input_temperatures(t_in_);
  extra_(t_in_.data(), p1_.data());
  for (std::size_t i = 0; i < n; ++i) applied_[i] = 0.5 * (p0_[i] + p1_[i]);
  // The corrector replaces the predictor's step: redo it from the start with the
  // trapezoidal feedback.
  solver_.undo_step();
  advance(applied_);
}

}  // namespace ptsim::thermal
