#pragma once
// A server's air path: several dies, each under its own HotSpot package (TIM, spreader, heat
// sink), with their heat sinks in series in one air stream. The air leaves each sink warmer by
// Q / (m_dot c_p), so every downstream sink sees a preheated inlet; the fans set the air flow,
// hence each sink's convection resistance and the fan power.
//
//  - Fans (affinity laws): volume flow V = V_ref * s, fan power P = P_ref * s^3, for a speed s
//    relative to the reference speed.
//  - Sink convection: r_convec(V) = r_convec_ref * (V_ref / V)^n, n = 0.8 by default (turbulent
//    flow: Nusselt ~ Re^0.8). Each die's package_config gives r_convec at the reference flow.
//    Or, for a die with a sink (stream_die::sink), HotSpot's package model: r_convec from the
//    sink's fins or pins and its fan (sink_fan_model.hpp) at rpm * speed, the fan's rpm given
//    for speed 1; the package's r_convec is then not used.
//  - Preheat: the air reaching die k is T_in + sum_{j<k} Q_j / (rho V c_p), Q_j the heat die
//    j's sink gives the air. The air's own heat capacity is neglected (it crosses a server in
//    milliseconds), so the coupling is instantaneous and one-way: dies are solved upstream
//    first, each with the inlet its upstream neighbours set in the same step. This makes the
//    steady state exact and the transient exactly as accurate as each die's integrator.
//
// A die's inlet enters its network as extra power g_amb,i (T_air,k - T_in) on its ambient-linked
// nodes, which is exactly a change of that die's ambient. Fan power is returned for the power
// side to account; it does not heat the air here. The co-simulation uses it through
// thermal::plant (thermal.model: datacenter); a fan zone changes the speed with set_fan_speed().
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "ptsim/thermal/compact_model.hpp"
#include "ptsim/thermal/floorplan.hpp"
#include "ptsim/thermal/package.hpp"
#include "ptsim/thermal/sink_fan_model.hpp"
#include "ptsim/thermal/solver.hpp"

namespace ptsim::thermal {

struct fan_model {
  double flow_ref_m3_per_s = 0.02;  ///< volume flow at speed 1 (about 42 CFM)
  double power_ref_W = 15.0;        ///< electrical power at speed 1
  /// Volume flow (m^3/s) and electrical power (W) at a relative speed s > 0.
  double flow_m3_per_s(double s) const { return flow_ref_m3_per_s * s; }
  double power_W(double s) const { return power_ref_W * s * s * s; }
};

/// One die in the stream: its floorplan and package (r_convec at the fan's reference flow).
struct stream_die {
  std::string name;
  floorplan fp;
  package_config package;
  double flow_exponent = 0.8;  ///< n in r_convec ~ V^-n
  /// Forced convection over this sink (its rpm at fan speed 1) instead of r_convec and n.
  std::optional<sink_fan_config> sink;
};

struct air_stream_config {
  std::vector<stream_die> dies;  ///< upstream first
  fan_model fan;
  double fan_speed = 1.0;        ///< relative to the fan's reference speed
  double inlet_K = 298.15;
  double air_density_kg_per_m3 = 1.16;
  double air_cp_J_per_kgK = 1007.0;
};

/// Convection resistance (K/W) of a sink at relative fan speed s: r_ref * s^-n.
double convection_resistance(double r_convec_ref_K_per_W, double fan_speed, double flow_exponent = 0.8);
/// Die d's convection resistance at relative fan speed s: HotSpot's forced convection over
/// d.sink with its fan at rpm * s when d has a sink, else convection_resistance(). Throws
/// std::invalid_argument when the sink gives no finite positive resistance.
double convection_resistance(const stream_die& d, double fan_speed);

/// The dies of one air stream, each a HotSpot block model, coupled through the air.
class air_stream {
 public:
  /// Builds every die's block model with r_convec at cfg.fan_speed. Throws
  /// std::invalid_argument for no dies, a non-positive speed, flow, density or c_p.
  explicit air_stream(const air_stream_config& cfg);
  ~air_stream();

  std::size_t dies() const { return models().size(); }
  const compact_model& model(std::size_t k) const { return models().at(k); }
  const std::string& die_name(std::size_t k) const { return cfg_.dies.at(k).name; }
  double fan_speed() const { return speeds_[cur_].speed; }
  /// Changes the fan speed (> 0): the sinks' convection resistances follow. Node temperatures
  /// carry over. The models and solvers of a speed are built on its first use and kept, so
  /// switching between a few speeds (a fan zone's levels) allocates only the first time.
  void set_fan_speed(double s);
  /// Air mass flow times c_p (W/K): the air warms by Q / this.
  double air_capacity_rate_W_per_K() const;
  double fan_power_W() const;
  /// Die k's sink-to-ambient convection resistance at the current speed (K/W).
  double r_convec(std::size_t k) const { return models_r_.at(cur_).at(k); }

  /// Steady node temperatures of every die for block powers (W, per die, in floorplan order).
  /// inlets_K, if given, receives the air temperature reaching each die.
  std::vector<std::vector<double>> steady(const std::vector<std::vector<double>>& block_W,
                                          std::vector<double>* inlets_K = nullptr) const;

  /// Transient: every die starts at the inlet temperature; step() advances all dies by dt_s,
  /// upstream first (exponential integrator per die). Throws divergence_error naming the die's
  /// node.
  void start_transient(double dt_s);
  void step(const std::vector<std::vector<double>>& block_W);
  const std::vector<double>& temperatures(std::size_t die) const;
  /// Sets die k's node temperatures (K) after start_transient (initial state).
  void set_temperatures(std::size_t die, const std::vector<double>& T_K);
  /// Air temperature that reached each die in the last step (K).
  const std::vector<double>& inlets_K() const { return inlets_; }
  /// Heat each die's sink gave the air in the last step (W, mean over the step).
  const std::vector<double>& heat_to_air_W() const { return heat_; }

 private:
  struct at_speed {
    double speed;
    std::vector<compact_model> models;
    std::vector<std::unique_ptr<transient_solver>> solvers;  // empty before start_transient
  };
  const std::vector<compact_model>& models() const { return speeds_[cur_].models; }
  at_speed build(double s);
  air_stream_config cfg_;
  std::vector<at_speed> speeds_;
  std::vector<std::vector<double>> models_r_;  // r_convec per die, per entry of speeds_
  std::size_t cur_ = 0;
  double dt_s_ = 0;  // 0 before start_transient
  std::vector<double> inlets_, heat_;
  std::vector<double> node_p_;
};

}  // namespace ptsim::thermal
