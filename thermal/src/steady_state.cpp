#include <Eigen/IterativeLinearSolvers>
#include <Eigen/SparseCholesky>
#include <Eigen/SparseLU>
#include <cmath>
#include <stdexcept>

#include "conductance_matrix.hpp"
#include "layered_grid_solver.hpp"
#include "ptsim/thermal/solver.hpp"

namespace ptsim::thermal {

namespace {

// Networks from this size on are solved by Jacobi-preconditioned conjugate gradients instead
// of a sparse LDL^T factorisation (grid models of uniform layers by detail::layered_grid_solver,
// exactly, when they have that form: 128 x 128 cells, 9 layers, 2.7 s -> 1.0 s). On grid
// models the factor's fill grows much faster than
// the nodes once layers are stacked (HotSpot's secondary path: 9 layers, 164k -> 790k
// entries of L at 32x32), while CG's cost is a few hundred sparse products: measured on the
// grid model (bench/RESULTS.md, "Secondary path: cost"), 4-13x faster than the factorisation
// from 4,000 to 37,000 nodes, within 2e-11 K of it. Below it (block models) the factor is
// cheap and exact.
constexpr Eigen::Index iterative_min_nodes = 2000;
// ||G theta - P|| <= this * ||P||: measured 1e-12 to 2e-11 K from the factorised solution.
constexpr double cg_relative_residual = 1e-13;
// Measured: 144-718 iterations from 4,000 to 37,000 nodes. Beyond this CG gives up and G is
// factorised (a badly conditioned network, e.g. wildly different per-block materials).
constexpr Eigen::Index cg_max_iterations = 5000;

using sparse = Eigen::SparseMatrix<double>;
using cg_solver = Eigen::ConjugateGradient<sparse, Eigen::Lower | Eigen::Upper, Eigen::DiagonalPreconditioner<double>>;

}  // namespace

struct steady_solver::impl {
  std::vector<double> g_amb;
  sparse g;
  // G is symmetric positive definite once every node reaches ambient (checked first), so a
  // Cholesky factorisation suffices; it is about 4x faster than SparseLU on the same G.
  Eigen::SimplicialLDLT<sparse> ldlt;
  bool factorised = false;
  cg_solver cg;
  // Networks with coolant advection (microchannels): G + A is not symmetric, so LU, solved
  // for the rise over ambient with the inflows' drive.
  Eigen::SparseLU<sparse> lu;
  bool lu_done = false;
  // From iterative_min_nodes on, BiCGSTAB preconditioned by an incomplete LU first.
  Eigen::BiCGSTAB<sparse, Eigen::IncompleteLUT<double>> bicg;
  bool iterative = false;
  bool advective = false;
  // Grid models of uniform layers: one exact solve by separation of variables (CG if its
  // residual check ever fails).
  std::unique_ptr<detail::layered_grid_solver> layered;
  Eigen::VectorXd inflow_heat, advection_sum;  // the drive is inflow_heat - T_amb advection_sum

  void factorise_lu() {
    lu.compute(g);
    if (lu.info() != Eigen::Success)
      throw std::runtime_error("steady_state: LU factorisation of the network with coolant flow failed (" +
                               lu.lastErrorMessage() + ")");
    lu_done = true;
  }

  void start_cg() {
    cg.setTolerance(cg_relative_residual);
    cg.setMaxIterations(cg_max_iterations);
    cg.compute(g);
  }

  void factorise() {
    ldlt.compute(g);
    if (ldlt.info() != Eigen::Success)
      throw std::runtime_error("steady_state: sparse Cholesky factorisation of G failed");
    factorised = true;
  }
};

steady_solver::steady_solver(const rc_network& net) : p_(std::make_unique<impl>()) {
  detail::require_path_to_ambient(net);
  p_->g_amb.resize(net.size());
  for (std::size_t i = 0; i < net.size(); ++i) p_->g_amb[i] = net.ambient_conductance(i);
  if (net.size() == 0) return;
  if (net.has_advection()) {
    p_->advective = true;
    p_->inflow_heat = detail::advection_drive(net, 0.0);
    p_->advection_sum = p_->inflow_heat - detail::advection_drive(net, 1.0);
    p_->g = detail::system_matrix(net);
    if (p_->g.rows() < iterative_min_nodes) {
      p_->factorise_lu();
      return;
    }
    p_->iterative = true;
    p_->bicg.setTolerance(cg_relative_residual);
    p_->bicg.setMaxIterations(cg_max_iterations);
    p_->bicg.compute(p_->g);
    return;
  }
  p_->g = detail::conductance_matrix(net);
  if (p_->g.rows() < iterative_min_nodes) {
    p_->factorise();
    return;
  }
  const auto shape = detail::grid_shape_of(net.names());
  if (shape.layers > 0 && p_->g.rows() >= detail::layered_min_nodes) {
    p_->layered = detail::layered_grid_solver::make(p_->g, shape);
    if (p_->layered) return;
  }
  p_->start_cg();
}

steady_solver::~steady_solver() = default;
steady_solver::steady_solver(steady_solver&&) noexcept = default;
steady_solver& steady_solver::operator=(steady_solver&&) noexcept = default;

std::vector<double> steady_solver::solve(const std::vector<double>& power_W, double ambient_K,
                                         const std::vector<double>* guess_K) const {
  const std::size_t n = p_->g_amb.size();
  if (power_W.size() != n) {
    throw std::invalid_argument("steady_state: " + std::to_string(power_W.size()) +
                                " powers given for " + std::to_string(n) + " nodes");
  }
  if (!std::isfinite(ambient_K)) throw std::invalid_argument("steady_state: ambient is not finite");
  if (n == 0) return {};
  const auto N = static_cast<Eigen::Index>(n);
  if (p_->advective) {
    const Eigen::VectorXd rhs = Eigen::Map<const Eigen::VectorXd>(power_W.data(), N) +
                                p_->inflow_heat - ambient_K * p_->advection_sum;
    Eigen::VectorXd rise;
    bool done = false;
    if (p_->iterative && !p_->lu_done) {
      if (guess_K != nullptr && guess_K->size() == n)
        rise = p_->bicg.solveWithGuess(rhs, Eigen::Map<const Eigen::VectorXd>(guess_K->data(), N).array() - ambient_K);
      else
        rise = p_->bicg.solve(rhs);
      done = p_->bicg.info() == Eigen::Success;
    }
    if (!done) {
      if (!p_->lu_done) p_->factorise_lu();
      rise = p_->lu.solve(rhs);
    }
    std::vector<double> t(n);
    for (std::size_t i = 0; i < n; ++i) t[i] = rise[static_cast<Eigen::Index>(i)] + ambient_K;
    return t;
  }
  if (p_->factorised) {
    // Ambient enters as g_amb * T_amb on the right-hand side.
    Eigen::VectorXd rhs(N);
    for (std::size_t i = 0; i < n; ++i)
      rhs[static_cast<Eigen::Index>(i)] = power_W[i] + p_->g_amb[i] * ambient_K;
    const Eigen::VectorXd t = p_->ldlt.solve(rhs);
    return std::vector<double>(t.data(), t.data() + t.size());
  }
  // For the rise over ambient: G's rows sum to g_amb, so G (T - T_amb) = P.
  const Eigen::Map<const Eigen::VectorXd> p(power_W.data(), N);
  Eigen::VectorXd rise;
  bool solved = false;
  if (p_->layered) {
    rise.resize(N);
    solved = p_->layered->solve(p, rise);
    if (!solved) {
      p_->layered.reset();
      p_->start_cg();
    }
  }
  if (!solved) {
    if (guess_K != nullptr && guess_K->size() == n)
      rise = p_->cg.solveWithGuess(p, Eigen::Map<const Eigen::VectorXd>(guess_K->data(), N).array() - ambient_K);
    else
      rise = p_->cg.solve(p);
    if (p_->cg.info() != Eigen::Success) {
      // Not converged within CG's iteration limit (2n): factorise after all.
      p_->factorise();
      return solve(power_W, ambient_K);
    }
  }
  std::vector<double> t(n);
  for (std::size_t i = 0; i < n; ++i) t[i] = rise[static_cast<Eigen::Index>(i)] + ambient_K;
  return t;
}

std::string steady_solver::linear_solver() const {
  if (p_->advective) return p_->lu_done ? "lu" : "bicgstab";
  if (p_->factorised) return "ldlt";
  return p_->layered ? "layered" : "cg";
}

std::vector<double> steady_state(const rc_network& net, const std::vector<double>& power_W,
                                 double ambient_K) {
  if (power_W.size() != net.size()) {
    throw std::invalid_argument("steady_state: " + std::to_string(power_W.size()) +
                                " powers given for " + std::to_string(net.size()) + " nodes");
  }
  if (!std::isfinite(ambient_K)) throw std::invalid_argument("steady_state: ambient is not finite");
  if (net.size() == 0) return {};
  return steady_solver(net).solve(power_W, ambient_K);
}

}  // namespace ptsim::thermal
