#pragma once
// HotSpot 7's secondary heat path (its -model_secondary 1, grid model only): below the die,
// heat also flows through the metal layers and the C4 bumps / underfill into the package
// substrate, the solder balls and the PCB, which convects to ambient through r_convec_sec.
// In the grid these are layers of die-sized cells (the substrate, solder and PCB with
// periphery nodes out to their own sizes, like the spreader and the sink).
namespace ptsim::thermal {

/// Geometry and convection of the secondary path (SI; defaults are HotSpot 7's).
struct secondary_path_config {
  double r_convec_sec = 1.0;    ///< K/W, PCB to ambient, whole PCB
  double c_convec_sec = 140.4;  ///< J/K
  double t_metal = 10e-6;       ///< on-chip metal layers (without a layer file)
  double t_c4 = 0.0001;         ///< C4 bumps and underfill (without a layer file)
  double s_sub = 0.021, t_sub = 0.001;         ///< package substrate, square side and thickness
  double s_solder = 0.021, t_solder = 0.00094; ///< solder balls
  double s_pcb = 0.1, t_pcb = 0.002;           ///< printed circuit board
};

/// The secondary path's materials: HotSpot 7's "typical thermal properties for secondary path
/// layers" (temperature.h): conductivity W/(m K) from its resistivities, volumetric heat
/// capacity J/(m^3 K).
struct secondary_material {
  double k, p;
};
inline constexpr secondary_material metal_layers{1.0 / 0.0025, 3.55e6};
inline constexpr secondary_material c4_underfill{1.0 / 0.8, 1.65e6};
inline constexpr secondary_material substrate{1.0 / 0.5, 1.6e6};
inline constexpr secondary_material solder_balls{1.0 / 0.06, 2.1e6};
inline constexpr secondary_material pcb{1.0 / 0.333, 1.32e6};

}  // namespace ptsim::thermal
