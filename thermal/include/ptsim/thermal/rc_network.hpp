#pragma once
// A lumped thermal RC network: nodes with heat capacity, conductances between
// nodes and to ambient. Temperatures are kelvin, powers watts, all SI doubles.
#include <string>
#include <vector>

namespace ptsim::thermal {

class rc_network {
 public:
  /// Adds a node with heat capacity C (J/K, > 0) and returns its index.
  std::size_t add_node(std::string name, double capacitance_J_per_K);
  /// Adds a conductance g (W/K, > 0) between nodes a and b (added to any existing one).
  void connect(std::size_t a, std::size_t b, double conductance_W_per_K);
  /// Adds a conductance g (W/K, > 0) from node a to the ambient.
  void connect_ambient(std::size_t a, double conductance_W_per_K);

  std::size_t size() const { return names_.size(); }
  const std::string& name(std::size_t i) const { return names_.at(i); }
  const std::vector<std::string>& names() const { return names_; }
  double capacitance(std::size_t i) const { return cap_.at(i); }
  double ambient_conductance(std::size_t i) const { return g_amb_.at(i); }
  struct link { std::size_t a, b; double g; };
  const std::vector<link>& links() const { return links_; }
  /// Total conductance from the network to ambient (W/K).
  double total_ambient_conductance() const;

  /// Heat carried by a moving coolant (microchannels): node `row`'s balance loses
  /// coefficient * T_col (W; the coefficient may have either sign). Unlike links these are
  /// not symmetric: the solvers then factorise with LU, and the exponential method refuses.
  void add_advection(std::size_t row, std::size_t col, double coefficient_W_per_K);
  /// Coolant entering at node a: its balance gains capacity_rate * inlet_K (W). The
  /// advection terms of a conserving flow sum, per row, to the rate entering there.
  void add_inflow(std::size_t a, double capacity_rate_W_per_K, double inlet_K);
  struct advection { std::size_t row, col; double g; };
  struct inflow { std::size_t node; double rate; double inlet_K; };
  const std::vector<advection>& advections() const { return advection_; }
  const std::vector<inflow>& inflows() const { return inflow_; }
  bool has_advection() const { return !advection_.empty(); }

 private:
  std::vector<std::string> names_;
  std::vector<double> cap_;
  std::vector<double> g_amb_;
  std::vector<link> links_;
  std::vector<advection> advection_;
  std::vector<inflow> inflow_;
};

}  // namespace ptsim::thermal
