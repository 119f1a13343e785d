#include "fit.hpp"

#include <nlopt.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

namespace ptsim::cosim::calibration {

namespace {

constexpr double failed_run_error = 10;

struct fit_state {
  const study* s = nullptr;
  const batch_options* opts = nullptr;
  fit_result* r = nullptr;
  std::string stage;
  nlopt_opt opt = nullptr;  // the pass running
  double best_error = std::numeric_limits<double>::infinity();
  bool stopped = false;
};

std::vector<double> to_values(const study& s, const double* u) {
  std::vector<double> x;
  for (std::size_t i = 0; i < s.parameters.size(); ++i) {
    const auto& p = s.parameters[i];
    x.push_back(p.lo + std::clamp(u[i], 0.0, 1.0) * (p.hi - p.lo));
  }
  return x;
}

double evaluate(fit_state& st, const std::vector<double>& x) {
  batch_result b;
  const auto rows = evaluate_rows(*st.s, st.r->fitted_rows, {}, parameter_values(*st.s, x), *st.opts, &b);
  if (b.status != 0 && b.status != 1) {
    st.stopped = true;
    st.r->status = b.status;
    return std::numeric_limits<double>::max();
  }
  const double e = study_error(*st.s, rows);
  st.r->runs_simulated += b.simulated;
  st.r->runs_total += rows.size();
  st.r->evaluations.push_back({x, e, b.simulated, st.stage});
  if (e < st.best_error) {
    st.best_error = e;
    st.r->best = x;
  }
  std::string at;
  for (std::size_t i = 0; i < x.size(); ++i) at += (i ? ", " : " at ") + st.s->parameters[i].value_text(x[i]);
  std::fprintf(stderr, "ptsim calibrate: evaluation %zu (%s, %zu new runs): error %.4g, best %.4g%s\n",
               st.r->evaluations.size(), st.stage.c_str(), b.simulated, e, st.best_error, at.c_str());
  std::fflush(stderr);
  return e;
}

double objective(unsigned n, const double* u, double* grad, void* data) {
  (void)grad;  // derivative-free algorithms only
  auto& st = *static_cast<fit_state*>(data);
  if (st.stopped) return std::numeric_limits<double>::max();
  const double e = evaluate(st, to_values(*st.s, u));
  (void)n;
  if (st.stopped && st.opt) nlopt_force_stop(st.opt);
  return e;
}

// One optimiser pass from u (updated with its best point); false when NLopt refused it.
bool pass(fit_state& st, nlopt_algorithm alg, unsigned evals, std::vector<double>& u) {
  const auto n = static_cast<unsigned>(u.size());
  nlopt_opt o = nlopt_create(alg, n);
  if (!o) return false;
  const std::vector<double> lo(n, 0.0), hi(n, 1.0);
  nlopt_set_lower_bounds(o, lo.data());
  nlopt_set_upper_bounds(o, hi.data());
  nlopt_set_min_objective(o, objective, &st);
  nlopt_set_maxeval(o, static_cast<int>(evals));
  nlopt_set_xtol_abs1(o, 1e-4);  // a ten-thousandth of each range
  nlopt_set_ftol_abs(o, 1e-6);
  const std::vector<double> step(n, 0.1);
  nlopt_set_initial_step(o, step.data());
  double f = 0;
  std::vector<double> x = u;
  st.opt = o;
  const nlopt_result rc = nlopt_optimize(o, x.data(), &f);
  st.opt = nullptr;
  nlopt_destroy(o);
  if (rc == NLOPT_INVALID_ARGS) return false;
  return true;
}

std::vector<double> to_unit(const study& s, const std::vector<double>& x) {
  std::vector<double> u;
  for (std::size_t i = 0; i < s.parameters.size(); ++i)
    u.push_back((x[i] - s.parameters[i].lo) / (s.parameters[i].hi - s.parameters[i].lo));
  return u;
}

}  // namespace

double study_error(const study& s, const std::vector<row_outcome>& rows) {
  double sum = 0, weights = 0;
  for (const auto& o : rows)
    for (std::size_t k = 0; k < s.targets.size(); ++k) {
      if (!s.rows[o.row - 1].measured[k]) continue;
      const double w = s.targets[k].weight;
      const double e = o.failure.empty() && std::isfinite(o.error[k]) ? o.error[k] : failed_run_error;
      sum += w * e * e;
      weights += w;
    }
  return weights > 0 ? std::sqrt(sum / weights) : 0;
}

std::vector<scenarios::sweep_value> parameter_values(const study& s, const std::vector<double>& x) {
  std::vector<scenarios::sweep_value> out;
  for (std::size_t i = 0; i < s.parameters.size(); ++i)
    for (const auto& path : s.parameters[i].paths) {
      scenarios::sweep_value v;
      v.path = path;
      v.text = s.parameters[i].value_text(x[i]);
      YAML::Emitter em;
      em << v.text;
      v.yaml = em.c_str();
      out.push_back(v);
    }
  return out;
}

std::size_t fit_result::distinct_errors() const {
  std::vector<double> e;
  for (const auto& ev : evaluations) e.push_back(ev.error);
  std::sort(e.begin(), e.end());
  std::size_t n = 0;
  for (std::size_t i = 0; i < e.size(); ++i)
    if (i == 0 || !(std::abs(e[i] - e[i - 1]) <= 1e-9 * std::max(std::abs(e[i]), std::abs(e[i - 1])))) ++n;
  return n;
}

fit_result fit_study(const study& s, const batch_options& opts) {
  fit_result r;
  for (const auto& row : s.rows) {
    if (std::find(s.holdout_rows.begin(), s.holdout_rows.end(), row.number) != s.holdout_rows.end())
      r.held_out_rows.push_back(row.number);
    else
      r.fitted_rows.push_back(row.number);
  }
  fit_state st{&s, &opts, &r, "start"};
  const auto n = static_cast<unsigned>(s.parameters.size());
  std::vector<double> start;
  for (const auto& p : s.parameters) start.push_back(p.start);
  evaluate(st, start);

  const unsigned global = s.global_evals ? s.global_evals : 8 * n;
  const unsigned local = s.local_evals ? s.local_evals : 20 * n;
  if (!st.stopped && global > 0) {
    st.stage = "global";
    std::vector<double> u = to_unit(s, start);
    pass(st, NLOPT_GN_DIRECT_L, global, u);
  }
  if (!st.stopped && local > 0) {
    st.stage = "local";
    std::vector<double> u = to_unit(s, r.best);
    r.local_algorithm = s.local_algorithm;
    // BOBYQA's quadratic model needs two dimensions at least in some NLopt versions: a
    // one-parameter fit that it refuses runs Nelder-Mead instead.
    if (s.local_algorithm == "neldermead" || !pass(st, NLOPT_LN_BOBYQA, local, u)) {
      r.local_algorithm = "neldermead";
      if (!st.stopped) pass(st, NLOPT_LN_NELDERMEAD, local, u);
    }
  }
  if (st.stopped) return r;
  // The rows at the best point: the fitted ones are cached; the held-out ones run now.
  batch_result b;
  r.fitted = evaluate_rows(s, r.fitted_rows, {}, parameter_values(s, r.best), opts, &b);
  r.fitted_error = study_error(s, r.fitted);
  r.held_out_error = std::numeric_limits<double>::quiet_NaN();
  if (!r.held_out_rows.empty()) {
    r.held_out = evaluate_rows(s, r.held_out_rows, {}, parameter_values(s, r.best), opts, &b);
    if (b.status != 0 && b.status != 1) {
      r.status = b.status;
      return r;
    }
    r.runs_simulated += b.simulated;
    r.runs_total += r.held_out_rows.size();
    r.held_out_error = study_error(s, r.held_out);
  }
  return r;
}

}  // namespace ptsim::cosim::calibration
