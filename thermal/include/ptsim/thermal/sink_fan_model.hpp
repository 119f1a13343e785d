#pragma once
// HotSpot 7's package model (-package_model_used 1 with a -package_config_file): the sink's
// convection resistance r_convec computed from the heat sink's fins or pins and the fan,
// instead of given. Forced convection (lateral or impinging airflow from a fan whose air
// volume follows from its size and speed) or natural convection with radiation, whose
// resistance depends on the sink's temperature. Empirical textbook correlations, as HotSpot's
// (package.c); its own caution applies: valid only for reasonable sink and fan parameters.
namespace ptsim::thermal {

/// The package configuration file's values (HotSpot's names and defaults; metres, rpm).
struct sink_fan_config {
  bool natural_convection = false;  ///< natural_convec 1 (else forced by the fan)
  bool impinging_flow = false;      ///< flow_type 1: air from the sink's top (else from a side)
  bool pin_fins = false;            ///< sink_type 1: pin-fin sink (else fin-channel)
  double fin_height = 0.03, fin_width = 0.001, channel_width = 0.002;
  double pin_height = 0.02, pin_diam = 0.002, pin_dist = 0.005;
  double fan_radius = 0.03, motor_radius = 0.01, rpm = 1000;
};

/// Forced convection: r_convec (K/W) of a sink of base side s_sink (m) and conductivity k_sink.
double forced_convection_r(const sink_fan_config& c, double s_sink, double k_sink);

/// Natural convection in parallel with radiation, for the sink's mean temperature (K) above
/// ambient (K).
double natural_convection_r(const sink_fan_config& c, double s_sink, double sink_K, double ambient_K);

}  // namespace ptsim::thermal
