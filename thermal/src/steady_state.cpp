#include "ptsim/thermal/solver.hpp"

#include <Eigen/SparseLU>
#include <cmath>
#include <stdexcept>

#include "conductance_matrix.hpp"

namespace ptsim::thermal {

std::vector<double> steady_state(const rc_network& net, const std::vector<double>& power_W,
                                 double ambient_K) {
  if (power_W.size() != net.size()) {
    throw std::invalid_argument("steady_state: " + std::to_string(power_W.size()) +
                                " powers given for " + std::to_string(net.size()) + " nodes");
  }
  if (!std::isfinite(ambient_K)) throw std::invalid_argument("steady_state: ambient is not finite");
  if (net.size() == 0) return {};
  detail::require_path_to_ambient(net);

  const Eigen::SparseMatrix<double> g = detail::conductance_matrix(net);
  Eigen::SparseLU<Eigen::SparseMatrix<double>> lu;
  lu.compute(g);
  if (lu.info() != Eigen::Success)
    throw std::runtime_error("steady_state: sparse LU failed: " + lu.lastErrorMessage());

  // Ambient enters as g_amb * T_amb on the right-hand side.
  Eigen::VectorXd rhs(g.rows());
  for (std::size_t i = 0; i < net.size(); ++i)
    rhs[static_cast<Eigen::Index>(i)] = power_W[i] + net.ambient_conductance(i) * ambient_K;
  const Eigen::VectorXd t = lu.solve(rhs);
  return std::vector<double>(t.data(), t.data() + t.size());
}

}  // namespace ptsim::thermal
