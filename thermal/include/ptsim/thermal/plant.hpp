#pragma once
// The co-simulation's thermal model: the floorplan of a scenario inside whichever package
// it chose (thermal_config::kind), advanced one control period at a time.
//
//  - hotspot:    one HotSpot block model (build_block_model), one transient_solver.
//  - phone:      build_phone_network with the floorplan as the SoC: block nodes, then
//                "frame", "battery", "skin_front", "skin_back" (reported as nodes).
//  - datacenter: one air_stream per stream of dies; each die a HotSpot block model of its
//                blocks under its own package, integrated exactly (exponential) per die;
//                reported nodes "<die>.inlet" are the air temperatures reaching each sink.
//                Fan speed sets every sink's convection resistance and the fan power.
//
// Power enters per floorplan block (W, floorplan order); temperatures come back per block
// and per reported node (K). step() does not allocate (a datacenter plant allocates only
// the first time it runs at a new fan speed). Plain C++.
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "ptsim/thermal/thermal_config.hpp"

namespace ptsim::thermal {

class plant {
 public:
  /// Builds the networks (no solver yet). Throws std::invalid_argument for a package the
  /// floorplan does not fit, or a datacenter configuration that does not cover the
  /// floorplan (each block in exactly one die, each die in exactly one stream).
  explicit plant(const thermal_config& cfg);
  ~plant();
  plant(plant&&) noexcept;

  const std::vector<std::string>& block_names() const { return blocks_; }
  /// Non-block temperatures reported alongside the blocks (may be empty).
  const std::vector<std::string>& node_names() const { return nodes_; }
  /// Every node of the model, as an initial-temperature file names them (datacenter:
  /// "<die>.<node>"), in the order of state vectors.
  const std::vector<std::string>& state_names() const { return state_names_; }
  /// Node temperatures (state order) from the lines of a .steady / init file: every node
  /// exactly once. Throws std::invalid_argument "source:line: ..." otherwise.
  std::vector<double> state_from(const std::vector<named_temperature>& lines, const std::string& source) const;

  /// Builds the solvers for steps of dt_s; every node starts at the ambient.
  void start(double dt_s);
  void set_state(const std::vector<double>& T_K);
  /// Sets every node to the steady state of constant block powers (W, floorplan order).
  void set_steady(const double* block_W);
  /// Advances by dt with block powers (W) held over the step. Throws divergence_error.
  void step(const double* block_W);
  const std::vector<double>& block_temperatures_K() const { return block_T_; }
  const std::vector<double>& node_temperatures_K() const { return node_T_; }

  /// Datacenter models have fans; the others report false and 0 W.
  bool has_fans() const { return !streams_.empty(); }
  void set_fan_speed(double relative_speed);
  double fan_speed() const;
  /// Electrical power of every stream's fans (W): P_ref s^3 each.
  double fan_power_W() const;

 private:
  void refresh();
  thermal_config cfg_;
  std::vector<std::string> blocks_, nodes_, state_names_;
  std::vector<double> block_T_, node_T_;
  // hotspot and phone: one network
  rc_network net_;
  std::vector<std::size_t> node_index_;  // reported nodes in net_
  std::unique_ptr<transient_solver> solver_;
  std::vector<double> node_power_;
  // datacenter
  struct place { std::size_t stream, die, local; };
  std::vector<std::unique_ptr<air_stream>> streams_;
  std::vector<place> block_place_;                        // per floorplan block
  std::vector<std::vector<std::vector<double>>> die_W_;   // [stream][die][local block]
  std::vector<std::size_t> state_offset_;                 // first state index of each (stream, die), flattened
};

}  // namespace ptsim::thermal
