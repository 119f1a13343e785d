#include "conductance_matrix.hpp"

#include <numeric>
#include <stdexcept>
#include <vector>

namespace ptsim::thermal::detail {

Eigen::SparseMatrix<double> conductance_matrix(const rc_network& net) {
  const auto n = static_cast<Eigen::Index>(net.size());
  std::vector<Eigen::Triplet<double>> entries;
  entries.reserve(4 * net.links().size() + net.size());
  for (const auto& l : net.links()) {
    const auto a = static_cast<Eigen::Index>(l.a), b = static_cast<Eigen::Index>(l.b);
    entries.emplace_back(a, a, l.g);
    entries.emplace_back(b, b, l.g);
    entries.emplace_back(a, b, -l.g);
    entries.emplace_back(b, a, -l.g);
  }
  for (Eigen::Index i = 0; i < n; ++i)
    entries.emplace_back(i, i, net.ambient_conductance(static_cast<std::size_t>(i)));
  Eigen::SparseMatrix<double> g(n, n);
  g.setFromTriplets(entries.begin(), entries.end());  // sums duplicates
  g.makeCompressed();
  return g;
}

Eigen::SparseMatrix<double> system_matrix(const rc_network& net) {
  Eigen::SparseMatrix<double> g = conductance_matrix(net);
  if (!net.has_advection()) return g;
  const auto n = static_cast<Eigen::Index>(net.size());
  std::vector<Eigen::Triplet<double>> entries;
  entries.reserve(net.advections().size());
  for (const auto& a : net.advections())
    entries.emplace_back(static_cast<Eigen::Index>(a.row), static_cast<Eigen::Index>(a.col), a.g);
  Eigen::SparseMatrix<double> adv(n, n);
  adv.setFromTriplets(entries.begin(), entries.end());
  g += adv;
  g.makeCompressed();
  return g;
}

Eigen::VectorXd advection_drive(const rc_network& net, double ambient_K) {
  Eigen::VectorXd d = Eigen::VectorXd::Zero(static_cast<Eigen::Index>(net.size()));
  for (const auto& a : net.advections()) d[static_cast<Eigen::Index>(a.row)] -= a.g * ambient_K;
  for (const auto& f : net.inflows()) d[static_cast<Eigen::Index>(f.node)] += f.rate * f.inlet_K;
  return d;
}

void require_path_to_ambient(const rc_network& net) {
  // Union-find over the links; a component is grounded if any member has g_amb > 0.
  std::vector<std::size_t> parent(net.size());
  std::iota(parent.begin(), parent.end(), std::size_t{0});
  auto find = [&](std::size_t i) {
    while (parent[i] != i) i = parent[i] = parent[parent[i]];
    return i;
  };
  for (const auto& l : net.links()) parent[find(l.a)] = find(l.b);
  std::vector<bool> grounded(net.size(), false);
  for (std::size_t i = 0; i < net.size(); ++i)
    if (net.ambient_conductance(i) > 0) grounded[find(i)] = true;
  for (std::size_t i = 0; i < net.size(); ++i) {
    if (!grounded[find(i)]) {
      throw std::invalid_argument("thermal network: node '" + net.name(i) +
                                  "' has no conductive path to ambient, so it has no steady state");
    }
  }
}

}  // namespace ptsim::thermal::detail
