#include "ptsim/thermal/rc_network.hpp"

#include <cmath>
#include <sstream>
#include <stdexcept>

namespace ptsim::thermal {

namespace {

void require_positive(double v, const char* what, const std::string& where) {
  if (!std::isfinite(v) || !(v > 0)) {
    std::ostringstream msg;
    msg << "rc_network: " << what << " of " << where << " must be positive and finite, got " << v;
    throw std::invalid_argument(msg.str());
  }
}

}  // namespace

std::size_t rc_network::add_node(std::string name, double capacitance_J_per_K) {
  require_positive(capacitance_J_per_K, "capacitance", "node '" + name + "'");
  names_.push_back(std::move(name));
  cap_.push_back(capacitance_J_per_K);
  g_amb_.push_back(0.0);
  return names_.size() - 1;
}

void rc_network::connect(std::size_t a, std::size_t b, double conductance_W_per_K) {
  if (a >= size() || b >= size()) {
    throw std::invalid_argument("rc_network: link " + std::to_string(a) + " - " +
                                std::to_string(b) + " names a node beyond the " +
                                std::to_string(size()) + " nodes");
  }
  if (a == b) throw std::invalid_argument("rc_network: node '" + names_[a] + "' linked to itself");
  require_positive(conductance_W_per_K, "conductance",
                   "link '" + names_[a] + "' - '" + names_[b] + "'");
  links_.push_back({a, b, conductance_W_per_K});
}

void rc_network::connect_ambient(std::size_t a, double conductance_W_per_K) {
  if (a >= size()) {
    throw std::invalid_argument("rc_network: ambient link to node " + std::to_string(a) +
                                " beyond the " + std::to_string(size()) + " nodes");
  }
  require_positive(conductance_W_per_K, "ambient conductance", "node '" + names_[a] + "'");
  g_amb_[a] += conductance_W_per_K;
}

void rc_network::add_advection(std::size_t row, std::size_t col, double coefficient_W_per_K) {
  if (row >= size() || col >= size())
    throw std::invalid_argument("rc_network: advection " + std::to_string(row) + " <- " + std::to_string(col) +
                                " names a node beyond the " + std::to_string(size()) + " nodes");
  if (!std::isfinite(coefficient_W_per_K))
    throw std::invalid_argument("rc_network: advection coefficient at node '" + names_[row] + "' is not finite");
  if (coefficient_W_per_K != 0) advection_.push_back({row, col, coefficient_W_per_K});
}

void rc_network::add_inflow(std::size_t a, double capacity_rate_W_per_K, double inlet_K) {
  if (a >= size())
    throw std::invalid_argument("rc_network: inflow at node " + std::to_string(a) + " beyond the " +
                                std::to_string(size()) + " nodes");
  if (!std::isfinite(capacity_rate_W_per_K) || !std::isfinite(inlet_K))
    throw std::invalid_argument("rc_network: inflow at node '" + names_[a] + "' needs a finite rate and temperature");
  if (capacity_rate_W_per_K != 0) inflow_.push_back({a, capacity_rate_W_per_K, inlet_K});
}

double rc_network::total_ambient_conductance() const {
  double sum = 0.0;
  for (double g : g_amb_) sum += g;
  return sum;
}

}  // namespace ptsim::thermal
