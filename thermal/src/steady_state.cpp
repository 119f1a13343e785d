#include <Eigen/SparseCholesky>
#include <cmath>
#include <stdexcept>

#include "conductance_matrix.hpp"
#include "ptsim/thermal/solver.hpp"

namespace ptsim::thermal {

struct steady_solver::impl {
  std::vector<double> g_amb;
  // G is symmetric positive definite once every node reaches ambient (checked first), so a
  // Cholesky factorisation suffices; it is about 4x faster than SparseLU on the same G.
  Eigen::SimplicialLDLT<Eigen::SparseMatrix<double>> ldlt;
};

steady_solver::steady_solver(const rc_network& net) : p_(std::make_unique<impl>()) {
  detail::require_path_to_ambient(net);
  p_->g_amb.resize(net.size());
  for (std::size_t i = 0; i < net.size(); ++i) p_->g_amb[i] = net.ambient_conductance(i);
  if (net.size() == 0) return;
  p_->ldlt.compute(detail::conductance_matrix(net));
  if (p_->ldlt.info() != Eigen::Success)
    throw std::runtime_error("steady_state: sparse Cholesky factorisation of G failed");
}

steady_solver::~steady_solver() = default;
steady_solver::steady_solver(steady_solver&&) noexcept = default;
steady_solver& steady_solver::operator=(steady_solver&&) noexcept = default;

std::vector<double> steady_solver::solve(const std::vector<double>& power_W, double ambient_K) const {
  const std::size_t n = p_->g_amb.size();
  if (power_W.size() != n) {
    throw std::invalid_argument("steady_state: " + std::to_string(power_W.size()) +
                                " powers given for " + std::to_string(n) + " nodes");
  }
  if (!std::isfinite(ambient_K)) throw std::invalid_argument("steady_state: ambient is not finite");
  if (n == 0) return {};
  // Ambient enters as g_amb * T_amb on the right-hand side.
  Eigen::VectorXd rhs(static_cast<Eigen::Index>(n));
  for (std::size_t i = 0; i < n; ++i)
    rhs[static_cast<Eigen::Index>(i)] = power_W[i] + p_->g_amb[i] * ambient_K;
  const Eigen::VectorXd t = p_->ldlt.solve(rhs);
  return std::vector<double>(t.data(), t.data() + t.size());
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
