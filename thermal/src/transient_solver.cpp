// transient_solver: backward Euler (sparse LDL^T) and exact exponential integration.
#include <Eigen/Dense>
#include <Eigen/SparseCholesky>
#include <algorithm>
#include <cmath>
#include <sstream>

#include "conductance_matrix.hpp"
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

}  // namespace

struct transient_solver::impl {
  integration_method method;
  double dt = 0, ambient = 0;
  int substeps = 1;
  long long steps = 0;
  double ambient_energy = 0;
  double max_temperature = 1000.0;  // copied from the public member at each step
  std::vector<std::string> names;
  std::vector<double> t;  // the public view of the temperatures (K)
  vec g_amb;              // ambient conductance per node (W/K)
  double g_amb_total = 0;
  vec drive;              // P + g_amb T_amb for the current step (W)
  vec t_start;            // temperatures before the step, restored when it diverges

  // Backward Euler: (C/h + G) = P^T L D L^T P, factorised once.
  vec c_over_h, inv_d, rhs, work;
  Eigen::SimplicialLDLT<Eigen::SparseMatrix<double>> ldlt;

  // Exponential: T' = phi T + m drive; ambient heat over the step = a.T + b.drive - const.
  Eigen::MatrixXd phi, m;
  vec a_row, b_row, next;

  // Throws divergence_error naming the first node that is non-finite or too hot.
  void check(double at_time) const {
    for (std::size_t i = 0; i < t.size(); ++i) {
      const double v = t[i];
      if (std::isfinite(v) && v <= max_temperature) continue;
      std::ostringstream msg;
      msg << "thermal runaway: node '" << names[i] << "' ";
      if (std::isfinite(v))
        msg << "reached " << v << " K (limit " << max_temperature << " K)";
      else
        msg << "temperature is not finite (" << v << ")";
      msg.precision(9);  // long runs need more than 6 digits of time
      msg << " at t = " << at_time << " s";
      throw divergence_error(msg.str());
    }
  }

  void setup_backward_euler(const rc_network& net, const Eigen::SparseMatrix<double>& g) {
    const double h = dt / substeps;
    const auto n = g.rows();
    c_over_h.resize(n);
    for (Eigen::Index i = 0; i < n; ++i) c_over_h[i] = net.capacitance(static_cast<std::size_t>(i)) / h;
    Eigen::SparseMatrix<double> a = g;
    a.diagonal() += c_over_h;
    // C/h + G is symmetric and strictly diagonally dominant with a positive diagonal, hence
    // positive definite: Cholesky needs no pivoting and its solve phase is allocation free
    // when driven step by step (SparseLU's solve allocates a work array every call).
    ldlt.compute(a);
    if (ldlt.info() != Eigen::Success)
      throw std::runtime_error("transient_solver: factorisation of C/h + G failed");
    inv_d = ldlt.vectorD().cwiseInverse();  // vectorD() returns a copy: take it once
    rhs.resize(n);
    work.resize(n);
  }

  void setup_exponential(const rc_network& net, const Eigen::SparseMatrix<double>& g) {
    const auto n = g.rows();
    vec sqrt_c(n);
    for (Eigen::Index i = 0; i < n; ++i) sqrt_c[i] = std::sqrt(net.capacitance(static_cast<std::size_t>(i)));
    // S = C^-1/2 G C^-1/2 is symmetric positive semi-definite: S = Q diag(lambda) Q^T.
    const vec inv_sqrt_c = sqrt_c.cwiseInverse();
    const Eigen::MatrixXd s = inv_sqrt_c.asDiagonal() * Eigen::MatrixXd(g) * inv_sqrt_c.asDiagonal();
    Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> eig(s);
    if (eig.info() != Eigen::Success)
      throw std::runtime_error("transient_solver: eigen-decomposition of the network failed");
    const Eigen::MatrixXd& q = eig.eigenvectors();
    vec decay(n), w1(n), w2(n);
    for (Eigen::Index k = 0; k < n; ++k) {
      const double x = std::max(eig.eigenvalues()[k], 0.0) * dt;  // rounding can give -1e-17
      decay[k] = std::exp(-x);
      w1[k] = dt * phi1(x);       // int_0^dt e^{-lambda s} ds = (1 - e^{-lambda dt}) / lambda
      w2[k] = dt * dt * phi2(x);  // int_0^dt (1 - e^{-lambda s}) / lambda ds
    }
    // phi = C^-1/2 Q e^{-Lambda dt} Q^T C^1/2;  m = (I - phi) G^-1 = C^-1/2 Q W1 Q^T C^-1/2.
    const Eigen::MatrixXd left = inv_sqrt_c.asDiagonal() * q;
    phi = left * decay.asDiagonal() * q.transpose() * sqrt_c.asDiagonal();
    m = left * w1.asDiagonal() * left.transpose();
    // Heat to ambient over a step: g^T int T ds - g_tot T_amb dt, with
    // int T ds = (C^-1/2 Q W1 Q^T C^1/2) T0 + (C^-1/2 Q W2 Q^T C^-1/2) drive.
    const vec gq = left.transpose() * g_amb;  // Q^T C^-1/2 g
    a_row = sqrt_c.asDiagonal() * (q * w1.asDiagonal() * gq);
    b_row = left * (w2.asDiagonal() * gq);
    next.resize(n);
  }

  void step_backward_euler(Eigen::Map<vec>& temp) {
    const double h = dt / substeps;
    const auto& perm = ldlt.permutationP().indices();
    const auto& perm_inv = ldlt.permutationPinv().indices();
    for (int k = 0; k < substeps; ++k) {
      rhs = c_over_h.cwiseProduct(temp) + drive;
      // Solve P^T L D L^T P x = rhs in place, as SimplicialLDLT::solve does, but into
      // preallocated vectors (its own solve permutes in place, which allocates).
      for (Eigen::Index i = 0; i < rhs.size(); ++i) work[perm[i]] = rhs[i];
      ldlt.matrixL().solveInPlace(work);
      work.array() *= inv_d.array();
      ldlt.matrixU().solveInPlace(work);
      for (Eigen::Index i = 0; i < work.size(); ++i) temp[perm_inv[i]] = work[i];
      // End-of-sub-step temperatures make the discrete energy balance exact.
      ambient_energy += h * (g_amb.dot(temp) - g_amb_total * ambient);
      check((static_cast<double>(steps) + static_cast<double>(k + 1) / substeps) * dt);
    }
  }

  void step_exponential(Eigen::Map<vec>& temp) {
    ambient_energy += a_row.dot(temp) + b_row.dot(drive) - g_amb_total * ambient * dt;
    next.noalias() = phi * temp;
    next.noalias() += m * drive;
    temp = next;
    check(static_cast<double>(steps + 1) * dt);
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
  s.g_amb.resize(n);
  for (Eigen::Index i = 0; i < n; ++i) s.g_amb[i] = net.ambient_conductance(static_cast<std::size_t>(i));
  s.g_amb_total = s.g_amb.sum();
  s.drive.resize(n);
  s.t_start.resize(n);
  const Eigen::SparseMatrix<double> g = detail::conductance_matrix(net);
  if (method == integration_method::exponential)
    s.setup_exponential(net, g);
  else
    s.setup_backward_euler(net, g);
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
  const auto n = static_cast<Eigen::Index>(s.t.size());
  Eigen::Map<vec> temp(s.t.data(), n);
  // Ambient enters as g_amb * T_amb on the right-hand side.
  s.drive = Eigen::Map<const vec>(power_W, n) + s.g_amb * s.ambient;
  s.t_start = temp;
  const double energy_start = s.ambient_energy;
  try {
    if (s.method == integration_method::exponential)
      s.step_exponential(temp);
    else
      s.step_backward_euler(temp);
  } catch (const divergence_error&) {
    // Leave the solver as it was before the step, so that time() and the state agree.
    temp = s.t_start;
    s.ambient_energy = energy_start;
    throw;
  }
  ++s.steps;
}

const std::vector<double>& transient_solver::temperatures() const { return p_->t; }
double transient_solver::time() const { return static_cast<double>(p_->steps) * p_->dt; }
double transient_solver::dt() const { return p_->dt; }
integration_method transient_solver::method() const { return p_->method; }
double transient_solver::ambient_energy_J() const { return p_->ambient_energy; }

}  // namespace ptsim::thermal
