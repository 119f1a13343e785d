#pragma once
// Private: the conductance matrix of an rc_network in Eigen form, shared by the solvers.
#include <Eigen/SparseCore>

#include "ptsim/thermal/rc_network.hpp"

namespace ptsim::thermal::detail {

/// G (W/K): off-diagonal -g_ab per link (summed), diagonal = sum of the node's link
/// conductances plus its ambient conductance. Symmetric; compressed storage.
Eigen::SparseMatrix<double> conductance_matrix(const rc_network& net);

/// The system matrix: G plus the network's advection terms (not symmetric when it has any).
Eigen::SparseMatrix<double> system_matrix(const rc_network& net);

/// What the inflows add to the rise over ambient's right-hand side: per node, the inflow's
/// c_v Q T_in minus T_amb times the row sum of the advection terms (the two cancel when the
/// coolant enters at ambient). Zero without advection.
Eigen::VectorXd advection_drive(const rc_network& net, double ambient_K);

/// Throws std::invalid_argument naming a node that has no conductive path to ambient,
/// which would make G singular.
void require_path_to_ambient(const rc_network& net);

}  // namespace ptsim::thermal::detail
