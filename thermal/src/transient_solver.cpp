// transient_solver: backward Euler (sparse LDL^T), exact exponential integration, and
// extrapolated implicit Euler.
#include <Eigen/Dense>
#include <Eigen/SparseCholesky>
#include <Eigen/IterativeLinearSolvers>
#include <Eigen/SparseLU>
#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <map>
#include <memory>
#include <sstream>

#include "conductance_matrix.hpp"
#include "layered_grid_solver.hpp"
#include "ptsim/thermal/solver.hpp"

namespace ptsim::thermal {

namespace {

using vec = Eigen::VectorXd;

// (1 - e^{-x}) / x and (x - 1 + e^{-x}) / x^2 for x = lambda*dt >= 0: the exponential
// integrator's weights divided by dt and dt^2, with series where the closed forms cancel.
double phi1(double x) { return x < 1e-8 ? 1.0 - x / 2.0 : -std::expm1(-x) / x; }
double phi2(double x) {
  if (x < 1e-3) return 0.5 - x / 6.0 + x * x / 24.0 - x * x * x / 120.0;
  return (x + std::expm1(-x)) / (x * x);
}

// Extrapolation of backward Euler with 1, 2 and 3 sub-steps to zero step size (Lagrange
// weights at h = 0 through h, h/2, h/3), and the second-order result through h/2, h/3.
constexpr double w3[3] = {0.5, -4.0, 4.5};
constexpr double w2[3] = {0.0, -2.0, 3.0};
// Sub-step counts never exceed this; a step that still misses the tolerance is accepted.
constexpr int max_substeps = 1 << 14;
// With a tolerance, a single backward-Euler step is kept when its local error estimate is below
// this fraction of the tolerance. Local errors of a first-order method add up over a response
// (~ tau/h steps), so the fraction is small; at 0.05 K it keeps one-solve rows only where
// rows are short against the network's time constants (HotSpot's default 3.33 us rows),
// where the global error measured against a converged reference stays under 0.002 K.
constexpr double be_fraction = 1e-2;
// Conjugate gradients replace the factorisation when no row of C/h + G has off-diagonal
// entries summing to more than this fraction of its diagonal: Jacobi-preconditioned CG then
// gains more than a digit per iteration.
constexpr double iterative_dominance = 0.3;
constexpr int transient_cg_max_iterations = 60;
// Non-symmetric (coolant) networks from this size: BiCGSTAB/ILUT instead of sparse LU, whose
// factorisations cost most of a short run (measured on HotSpot's example 5, 10,647 nodes).
constexpr Eigen::Index bicg_min_nodes = 2000;
constexpr double bicg_tolerance = 1e-13;
constexpr int bitransient_cg_max_iterations = 1000;
constexpr double cg_tolerance_K = 1e-9;

// One backward-Euler step size h: solves (C/h + G) T' = C/h T + drive. Normally by a sparse
// Cholesky factorisation P^T L D L^T P computed once. When C/h dominates G (rows short
// against the network's fastest time constants, e.g. HotSpot's 3.33 us rows on a fine grid),
// the matrix is nearly diagonal and Jacobi-preconditioned conjugate gradients, started from
// the current temperatures, converge in a handful of sparse products: cheaper than two
// triangular solves with the factor's fill-in, and no factorisation at all.
struct be_factor {
  double h = 0;
  vec c_over_h, inv_d;
  Eigen::SimplicialLDLT<Eigen::SparseMatrix<double>> ldlt;
  // Coolant advection makes C/h + G non-symmetric: LU instead (its solve allocates).
  Eigen::SparseLU<Eigen::SparseMatrix<double>> lu;
  bool use_lu = false;
  // Large non-symmetric networks: BiCGSTAB with an incomplete LU, started from the current
  // temperatures; LU (made then) when it does not converge.
  Eigen::SparseMatrix<double> a_lu;
  Eigen::BiCGSTAB<Eigen::SparseMatrix<double>, Eigen::IncompleteLUT<double>> bicg;
  bool use_bicg = false;
  // Grid models of uniform layers: exact solves by separation of variables, factorised
  // (made then) only if its residual check ever fails.
  std::unique_ptr<detail::layered_grid_solver> layered;
  Eigen::SparseMatrix<double> a_kept;
  // Iterative mode: A = C/h + G applied through G; its inverse diagonal; CG work vectors.
  const Eigen::SparseMatrix<double>* g = nullptr;
  vec inv_diag;
  mutable vec r, z, pdir, q;

  // Largest ratio, over the rows of C/h + G, of the off-diagonal sum to the diagonal.
  static double dominance(const vec& c_over_h, const Eigen::SparseMatrix<double>& g) {
    vec off = vec::Zero(g.rows()), diag = c_over_h;
    for (Eigen::Index k = 0; k < g.outerSize(); ++k)
      for (Eigen::SparseMatrix<double>::InnerIterator it(g, k); it; ++it)
        (it.row() == it.col() ? diag[it.row()] : off[it.row()]) += it.row() == it.col() ? it.value() : std::abs(it.value());
    return off.cwiseQuotient(diag).maxCoeff();
  }

  be_factor(const vec& cap, const Eigen::SparseMatrix<double>& gm, double step, bool allow_iterative,
            bool asymmetric = false, detail::grid_shape shape = {})
      : h(step), use_lu(asymmetric) {
    c_over_h = cap / h;
    if (asymmetric) {
      a_lu = gm;
      a_lu.diagonal() += c_over_h;
      if (a_lu.rows() >= bicg_min_nodes) {
        use_bicg = true;
        use_lu = false;
        bicg.setTolerance(bicg_tolerance);
        bicg.setMaxIterations(bitransient_cg_max_iterations);
        bicg.compute(a_lu);
        return;
      }
      factorise_lu();
      return;
    }
    if (allow_iterative && dominance(c_over_h, gm) <= iterative_dominance) {
      g = &gm;
      inv_diag = (c_over_h + gm.diagonal()).cwiseInverse();
      for (vec* v : {&r, &z, &pdir, &q}) v->resize(cap.size());
      return;
    }
    Eigen::SparseMatrix<double> a = gm;
    a.diagonal() += c_over_h;
    if (a.rows() >= detail::layered_min_nodes && shape.layers > 0) {
      layered = detail::layered_grid_solver::make(a, shape);
      if (layered) {
        a_kept = std::move(a);
        return;
      }
    }
    factorise_ldlt(a);
  }

  void factorise_ldlt(const Eigen::SparseMatrix<double>& a) {
    // C/h + G is symmetric and strictly diagonally dominant with a positive diagonal, hence
    // positive definite: Cholesky needs no pivoting and its solve phase is allocation free
    // when driven step by step (SparseLU's solve allocates a work array every call).
    ldlt.compute(a);
    if (ldlt.info() != Eigen::Success)
      throw std::runtime_error("transient_solver: factorisation of C/h + G failed");
    inv_d = ldlt.vectorD().cwiseInverse();  // vectorD() returns a copy: take it once
  }

  void factorise_lu() {
    lu.compute(a_lu);
    if (lu.info() != Eigen::Success)
      throw std::runtime_error("transient_solver: LU factorisation of C/h + G (with coolant flow) failed");
    use_lu = true;
    use_bicg = false;
  }

  // temp <- (C/h + G)^-1 (C/h temp + drive), through preallocated rhs and work vectors.
  template <class V>
  void solve(V& temp, const vec& drive, vec& rhs, vec& work) const {
    rhs = c_over_h.cwiseProduct(temp) + drive;
    if (use_bicg) {
      work = bicg.solveWithGuess(rhs, temp);
      if (bicg.info() == Eigen::Success) {
        temp = work;
        return;
      }
      const_cast<be_factor*>(this)->factorise_lu();
    }
    if (use_lu) {
      work = lu.solve(rhs);
      temp = work;
      return;
    }
    if (g != nullptr) {
      solve_cg(temp, rhs);
      return;
    }
    if (layered) {
      if (layered->solve(rhs, work)) {
        temp = work;
        return;
      }
      auto& self = const_cast<be_factor&>(*this);
      self.factorise_ldlt(a_kept);
      self.layered.reset();
    }
    const auto& perm = ldlt.permutationP().indices();
    const auto& perm_inv = ldlt.permutationPinv().indices();
    // As SimplicialLDLT::solve, but into preallocated vectors (its own solve permutes in
    // place, which allocates).
    for (Eigen::Index i = 0; i < rhs.size(); ++i) work[perm[i]] = rhs[i];
    ldlt.matrixL().solveInPlace(work);
    work.array() *= inv_d.array();
    ldlt.matrixU().solveInPlace(work);
    for (Eigen::Index i = 0; i < work.size(); ++i) temp[perm_inv[i]] = work[i];
  }

  template <class V>
  void solve_cg(V& x, const vec& b) const {
    q.noalias() = *g * x;
    r = b - c_over_h.cwiseProduct(x) - q;
    z = inv_diag.cwiseProduct(r);
    pdir = z;
    double rz = r.dot(z);
    for (int it = 0; it < transient_cg_max_iterations; ++it) {
      q.noalias() = *g * pdir;
      q += c_over_h.cwiseProduct(pdir);
      const double pq = pdir.dot(q);
      if (!(pq > 0)) return;  // converged to rounding
      const double alpha = rz / pq;
      x += alpha * pdir;
      r -= alpha * q;
      // Converged when the last correction moved no temperature by more than cg_tolerance_K.
      if (std::abs(alpha) * pdir.cwiseAbs().maxCoeff() < cg_tolerance_K) return;
      z = inv_diag.cwiseProduct(r);
      const double rz_next = r.dot(z);
      pdir = z + (rz_next / rz) * pdir;
      rz = rz_next;
    }
  }
};

}  // namespace

struct transient_solver::impl {
  integration_method method;
  double dt = 0, ambient = 0;
  int substeps = 1;
  long long steps = 0;
  double ambient_energy = 0;
  double max_temperature = 1000.0;  // copied from the public member at each step
  double tolerance = 0.0;           // likewise
  std::vector<std::string> names;
  std::vector<double> t;  // the public view of the temperatures (K)
  vec cap;                // heat capacities (J/K)
  vec g_amb;              // ambient conductance per node (W/K)
  vec drive;              // P for the current step (W)
  vec advect;             // coolant inflows' drive (W; empty without advection)
  bool asymmetric = false;
  vec theta;              // temperature rise over ambient (K): solving for it keeps rounding
                          // relative to the rise rather than to ~300 K
  vec t_start;            // temperatures before the step, restored when it diverges
  double energy_before = 0;  // ambient energy before the last step
  int substeps_before = 1;   // and the sub-step count it started with
  bool can_undo = false;
  vec rhs, work;
  Eigen::SparseMatrix<double> g;
  detail::grid_shape shape;  // of a grid model's cells (zeros otherwise)

  // Backward Euler: one factor.
  std::unique_ptr<be_factor> be;

  // Exponential: T' = phi T + m drive; ambient heat over the step = a.T + b.drive - const.
  Eigen::MatrixXd phi, m;
  vec a_row, b_row, next;

  // Extrapolated Euler: factors for H/1, H/2, H/3 per macro sub-step count, and work vectors.
  std::map<int, std::array<std::unique_ptr<be_factor>, 3>> factors;
  vec level[3], macro_start, theta_start, slope, coarse;
  int calm_steps = 0;  // consecutive steps far below the tolerance

  // Throws divergence_error naming the first node that is non-finite or too hot.
  template <class V>
  void check(const V& rise, double at_time) const {
    for (Eigen::Index i = 0; i < rise.size(); ++i) {
      const double v = rise[i] + ambient;
      if (std::isfinite(v) && v <= max_temperature) continue;
      std::ostringstream msg;
      msg << "thermal runaway: node '" << names[static_cast<std::size_t>(i)] << "' ";
      if (std::isfinite(v))
        msg << "reached " << v << " K (limit " << max_temperature << " K)";
      else
        msg << "temperature is not finite (" << v << ")";
      msg.precision(9);  // long runs need more than 6 digits of time
      msg << " at t = " << at_time << " s";
      divergence_error err(msg.str(), static_cast<std::size_t>(i), at_time,
                           std::isfinite(v) ? v : std::numeric_limits<double>::quiet_NaN(), max_temperature);
      err.node_name = names[static_cast<std::size_t>(i)];
      throw err;
    }
  }

  void setup_exponential() {
    const auto n = g.rows();
    const vec sqrt_c = cap.cwiseSqrt();
    // S = C^-1/2 G C^-1/2 is symmetric positive semi-definite: S = Q diag(lambda) Q^T.
    const vec inv_sqrt_c = sqrt_c.cwiseInverse();
    const Eigen::MatrixXd s = inv_sqrt_c.asDiagonal() * Eigen::MatrixXd(g) * inv_sqrt_c.asDiagonal();
    Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> eig(s);
    if (eig.info() != Eigen::Success)
      throw std::runtime_error("transient_solver: eigen-decomposition of the network failed");
    const Eigen::MatrixXd& q = eig.eigenvectors();
    vec decay(n), w1(n), w2v(n);
    for (Eigen::Index k = 0; k < n; ++k) {
      const double x = std::max(eig.eigenvalues()[k], 0.0) * dt;  // rounding can give -1e-17
      decay[k] = std::exp(-x);
      w1[k] = dt * phi1(x);        // int_0^dt e^{-lambda s} ds = (1 - e^{-lambda dt}) / lambda
      w2v[k] = dt * dt * phi2(x);  // int_0^dt (1 - e^{-lambda s}) / lambda ds
    }
    // phi = C^-1/2 Q e^{-Lambda dt} Q^T C^1/2;  m = (I - phi) G^-1 = C^-1/2 Q W1 Q^T C^-1/2.
    const Eigen::MatrixXd left = inv_sqrt_c.asDiagonal() * q;
    phi = left * decay.asDiagonal() * q.transpose() * sqrt_c.asDiagonal();
    m = left * w1.asDiagonal() * left.transpose();
    // Heat to ambient over a step: g^T int T ds - g_tot T_amb dt, with
    // int T ds = (C^-1/2 Q W1 Q^T C^1/2) T0 + (C^-1/2 Q W2 Q^T C^-1/2) drive.
    const vec gq = left.transpose() * g_amb;  // Q^T C^-1/2 g
    a_row = sqrt_c.asDiagonal() * (q * w1.asDiagonal() * gq);
    b_row = left * (w2v.asDiagonal() * gq);
    next.resize(n);
  }

  // The factorisations for H/1, H/2, H/3 with H = dt/macro; with a tolerance the last two are
  // made when a step first needs them (short rows may never).
  std::array<std::unique_ptr<be_factor>, 3>& factors_for(int macro, bool all) {
    auto& f = factors[macro];
    for (int j = 0; j < (all ? 3 : 1); ++j)
      if (!f[static_cast<std::size_t>(j)])
        f[static_cast<std::size_t>(j)] =
            std::make_unique<be_factor>(cap, g, dt / macro / (j + 1), tolerance > 0, asymmetric, shape);
    return f;
  }

  void step_backward_euler(Eigen::Map<vec>& temp) {
    const double h = dt / substeps;
    for (int k = 0; k < substeps; ++k) {
      be->solve(temp, drive, rhs, work);
      // End-of-sub-step temperatures make the discrete energy balance exact.
      ambient_energy += h * g_amb.dot(temp);
      check(temp, (static_cast<double>(steps) + static_cast<double>(k + 1) / substeps) * dt);
    }
  }

  void step_exponential(Eigen::Map<vec>& temp) {
    ambient_energy += a_row.dot(temp) + b_row.dot(drive);
    next.noalias() = phi * temp;
    next.noalias() += m * drive;
    temp = next;
    check(temp, static_cast<double>(steps + 1) * dt);
  }

  // One dt with `macro` macro steps; returns the largest error estimate (K).
  double extrapolate(Eigen::Map<vec>& temp, int macro, double& energy) {
    auto& f = factors_for(macro, tolerance <= 0);
    const double big_h = dt / macro;
    double err = 0;
    for (int k = 0; k < macro; ++k) {
      macro_start = temp;
      double e[3] = {0, 0, 0};
      if (tolerance > 0) {
        // One backward-Euler step first. Its local error is about half the difference from
        // a forward-Euler step, (H/2) |C^-1 (P - G T_end) - C^-1 (P - G T_start)|; the end
        // slope is (T_end - T_start)/H for free, the start slope costs one sparse product.
        // Small enough (short rows, slow changes): keep it, 1 solve instead of 6.
        level[0] = macro_start;
        f[0]->solve(level[0], drive, rhs, work);
        slope.noalias() = g * macro_start;
        slope = (drive - slope).cwiseQuotient(cap);
        double lte = 0;
        for (Eigen::Index i = 0; i < temp.size(); ++i)
          lte = std::max(lte, std::abs(level[0][i] - macro_start[i] - big_h * slope[i]) / 2);
        if (lte <= tolerance * be_fraction) {
          temp = level[0];
          energy += big_h * g_amb.dot(level[0]);
          err = std::max(err, lte);
          check(temp, (static_cast<double>(steps) + static_cast<double>(k + 1) / macro) * dt);
          continue;
        }
        e[0] = big_h * g_amb.dot(level[0]);
        factors_for(macro, true);
      }
      for (int j = (tolerance > 0 ? 1 : 0); j < 3; ++j) {
        level[j] = macro_start;
        const double h = big_h / (j + 1);
        for (int s = 0; s <= j; ++s) {
          f[static_cast<std::size_t>(j)]->solve(level[j], drive, rhs, work);
          e[j] += h * g_amb.dot(level[j]);
        }
      }
      temp = w3[0] * level[0] + w3[1] * level[1] + w3[2] * level[2];
      // Weights sum to 1, so the same combination keeps sum C dT = int P dt - E exact.
      energy += w3[0] * e[0] + w3[1] * e[1] + w3[2] * e[2];
      for (Eigen::Index i = 0; i < temp.size(); ++i) {
        const double low = w2[1] * level[1][i] + w2[2] * level[2][i];
        err = std::max(err, std::abs(temp[i] - low));
      }
      check(temp, (static_cast<double>(steps) + static_cast<double>(k + 1) / macro) * dt);
    }
    return err;
  }

  void step_extrapolated(Eigen::Map<vec>& temp) {
    double energy = 0;
    double err = extrapolate(temp, substeps, energy);
    // The embedded estimate is that of the second-order combination. On stiff networks (thin
    // dies, stacked layers) it overstates the third-order result's error many times over
    // while the silicon's fast modes are under-resolved (measured: 0.18 K estimated, 0.009 K
    // actual). So when it fails, check instead: redo dt with twice the macro steps; their
    // difference measures the coarser result's error (the finer one is the more accurate),
    // and the finer result is kept once that difference is within the tolerance.
    while (tolerance > 0 && err > tolerance && substeps < max_substeps) {
      coarse = temp;
      temp = theta_start;
      double finer_energy = 0;
      extrapolate(temp, 2 * substeps, finer_energy);
      energy = finer_energy;
      err = (temp - coarse).cwiseAbs().maxCoeff();
      if (err > tolerance) substeps *= 2;  // the coarser count is not enough: build on the finer
    }
    ambient_energy += energy;
    // Well below the tolerance for a few steps: try fewer macro steps (factorisations are
    // cached per count, so going back and forth costs nothing after the first time).
    if (tolerance > 0 && substeps > 1 && err < tolerance / 8) {
      if (++calm_steps >= 4) {
        substeps /= 2;
        calm_steps = 0;
      }
    } else {
      calm_steps = 0;
    }
  }
};

transient_solver::transient_solver(const rc_network& net, double dt_s, int substeps,
                                   double ambient_K)
    : transient_solver(net, dt_s, substeps, ambient_K, integration_method::backward_euler) {}

transient_solver::transient_solver(const rc_network& net, double dt_s, int substeps,
                                   double ambient_K, integration_method method)
    : p_(std::make_unique<impl>()) {
  if (!std::isfinite(dt_s) || !(dt_s > 0))
    throw std::invalid_argument("transient_solver: dt must be positive and finite");
  if (substeps < 1) throw std::invalid_argument("transient_solver: substeps must be >= 1");
  if (!std::isfinite(ambient_K)) throw std::invalid_argument("transient_solver: ambient is not finite");
  if (net.size() == 0) throw std::invalid_argument("transient_solver: the network has no nodes");
  impl& s = *p_;
  s.method = method;
  s.dt = dt_s;
  s.substeps = substeps;
  s.ambient = ambient_K;
  s.names = net.names();
  s.t.assign(net.size(), ambient_K);
  const auto n = static_cast<Eigen::Index>(net.size());
  s.cap.resize(n);
  s.g_amb.resize(n);
  for (Eigen::Index i = 0; i < n; ++i) {
    s.cap[i] = net.capacitance(static_cast<std::size_t>(i));
    s.g_amb[i] = net.ambient_conductance(static_cast<std::size_t>(i));
  }
  s.drive.resize(n);
  s.theta.resize(n);
  s.t_start.resize(n);
  s.rhs.resize(n);
  s.work.resize(n);
  s.g = detail::system_matrix(net);
  s.asymmetric = net.has_advection();
  if (!s.asymmetric) s.shape = detail::grid_shape_of(s.names);
  if (s.asymmetric) {
    if (method == integration_method::exponential)
      throw std::invalid_argument(
          "transient_solver: the exponential method needs a symmetric network; coolant advection "
          "(microchannels) is not: use backward or extrapolated Euler");
    s.advect = detail::advection_drive(net, ambient_K);
  }
  switch (method) {
    case integration_method::exponential:
      s.setup_exponential();
      s.g.resize(0, 0);  // not needed any more
      break;
    case integration_method::backward_euler:
      s.be = std::make_unique<be_factor>(s.cap, s.g, dt_s / substeps, false, s.asymmetric, s.shape);
      s.g.resize(0, 0);
      break;
    case integration_method::extrapolated_euler:
      // Factorised at the first step, once error_tolerance_K (which decides between a
      // factorisation and conjugate gradients) is known. G is kept for that.
      for (auto& l : s.level) l.resize(n);
      s.macro_start.resize(n);
      s.theta_start.resize(n);
      s.coarse.resize(n);
      s.slope.resize(n);
      break;
  }
}

transient_solver::~transient_solver() = default;
transient_solver::transient_solver(transient_solver&&) noexcept = default;
transient_solver& transient_solver::operator=(transient_solver&&) noexcept = default;

void transient_solver::set_temperatures(const std::vector<double>& T_K) {
  if (T_K.size() != p_->t.size()) {
    throw std::invalid_argument("transient_solver: " + std::to_string(T_K.size()) +
                                " temperatures given for " + std::to_string(p_->t.size()) +
                                " nodes");
  }
  for (std::size_t i = 0; i < T_K.size(); ++i) {
    if (!std::isfinite(T_K[i]))
      throw std::invalid_argument("transient_solver: initial temperature of node '" +
                                  p_->names[i] + "' is not finite");
  }
  std::copy(T_K.begin(), T_K.end(), p_->t.begin());
}

void transient_solver::step(const double* power_W) {
  impl& s = *p_;
  s.max_temperature = max_temperature_K;
  s.tolerance = error_tolerance_K;
  const auto n = static_cast<Eigen::Index>(s.t.size());
  Eigen::Map<vec> temp(s.t.data(), n);
  // The network is linear in the rise over ambient: C dθ/dt = P - G θ, θ = T - T_amb.
  s.drive = Eigen::Map<const vec>(power_W, n);
  if (s.asymmetric) s.drive += s.advect;
  s.t_start = temp;
  s.theta = temp.array() - s.ambient;
  const double energy_start = s.ambient_energy;
  s.energy_before = energy_start;
  s.substeps_before = s.substeps;
  s.can_undo = false;
  Eigen::Map<vec> theta(s.theta.data(), n);
  try {
    switch (s.method) {
      case integration_method::exponential: s.step_exponential(theta); break;
      case integration_method::backward_euler: s.step_backward_euler(theta); break;
      case integration_method::extrapolated_euler:
        s.theta_start = s.theta;
        s.step_extrapolated(theta);
        break;
    }
  } catch (const divergence_error&) {
    // Leave the solver as it was before the step, so that time() and the state agree.
    s.ambient_energy = energy_start;
    throw;
  }
  temp = s.theta.array() + s.ambient;
  ++s.steps;
  s.can_undo = true;
}

void transient_solver::undo_step() {
  impl& s = *p_;
  if (!s.can_undo) throw std::logic_error("transient_solver::undo_step: no step to undo");
  Eigen::Map<vec>(s.t.data(), static_cast<Eigen::Index>(s.t.size())) = s.t_start;
  s.ambient_energy = s.energy_before;
  s.substeps = s.substeps_before;
  --s.steps;
  s.can_undo = false;
}

const std::vector<double>& transient_solver::temperatures() const { return p_->t; }
double transient_solver::time() const { return static_cast<double>(p_->steps) * p_->dt; }
double transient_solver::dt() const { return p_->dt; }
integration_method transient_solver::method() const { return p_->method; }
double transient_solver::ambient_energy_J() const { return p_->ambient_energy; }
int transient_solver::substeps() const { return p_->substeps; }

std::string transient_solver::linear_solver() const {
  const impl& s = *p_;
  if (s.method == integration_method::exponential) return "exponential";
  const be_factor* f = s.be.get();
  if (f == nullptr && !s.factors.empty()) f = s.factors.begin()->second[0].get();
  if (f == nullptr) return "none yet";
  if (f->use_bicg) return "bicgstab";
  if (f->use_lu) return "lu";
  if (f->g != nullptr) return "cg";
  return f->layered ? "layered" : "ldlt";
}

}  // namespace ptsim::thermal
