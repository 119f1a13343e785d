#pragma once
// `ptsim thermal`: HotSpot 7's `hotspot` program on ptsim's models and solvers. It takes the
// same -name value options (command line over -c file), reads the same files and writes the
// same outputs, so that a HotSpot script works by changing the program name. Plain C++, no
// simulation kernel.
#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

#include "ptsim/thermal/grid_model.hpp"
#include "ptsim/thermal/hotspot_options.hpp"
#include "ptsim/thermal/materials.hpp"
#include "ptsim/thermal/package.hpp"
#include "ptsim/thermal/sink_fan_model.hpp"

namespace ptsim::thermal {

/// The transient integrator `ptsim thermal` uses (-solver). `superlu` reproduces HotSpot's
/// SuperLU build: grid transients by one backward-Euler step per row (first order, as that
/// build does), block transients as `automatic`.
enum class hotspot_solver { automatic, exponential, backward_euler, extrapolated_euler, superlu };

/// Everything a run needs, resolved from HotSpot options with HotSpot 7's defaults (SI units,
/// kelvin). File names are empty when absent.
struct hotspot_settings {
  std::string flp_file, ptrace_file, ttrace_file, dump_file, steady_file, init_file;
  std::string grid_layer_file, grid_steady_file, grid_transient_file;
  package_config package;
  material_list materials;
  double ambient_K = 45 + 273.15;
  double init_temp_K = 60 + 273.15;
  double sampling_intvl_s = 3.333e-6;
  double thermal_threshold_K = 81.8 + 273.15;
  bool grid = false;  ///< -model_type grid
  std::size_t grid_rows = 64, grid_cols = 64;
  grid_map_mode map_mode = grid_map_mode::center;  ///< HotSpot's default
  bool leakage = false;    ///< -leakage_used 1 (steady state)
  bool dtm = false;        ///< -dtm_used 1: clip -init_file to thermal_threshold
  bool detailed_3d = false;
  /// -model_secondary 1 (grid model): the secondary heat path with these values.
  std::optional<secondary_path_config> secondary;
  /// -package_model_used 1: the sink and fan of -package_config_file. Forced convection sets
  /// package.r_convec once; natural convection recomputes it from the sink's temperature.
  std::optional<sink_fan_config> sink_fan;
  /// -use_microchannels 1: layer-file layers whose floorplan is a .csv network are
  /// microfluidic cooling layers with these parameters (-pumping_pressure, -coolant_material, ...).
  std::optional<microchannel_config> microchannels;
  // ptsim's own options
  int decimals = 6;
  hotspot_solver solver = hotspot_solver::automatic;
  int substeps = 0;                 ///< 0: automatic
  double solver_tolerance_K = 0.05;
  bool transient_leakage = false;
  double max_temp_K = 1000.0;
};

/// Resolves options (HotSpot's checks included). Options that change HotSpot's results but
/// that ptsim does not model are described, once each, in `notes`. Throws std::runtime_error
/// "origin: ..." for invalid values.
hotspot_settings resolve_hotspot_settings(const hotspot_options& opts, std::vector<std::string>& notes);

/// Writes the resolved configuration as HotSpot's -d does (`-name<TAB>value` lines).
void dump_hotspot_config(std::ostream& out, const hotspot_options& opts, const hotspot_settings& s);

/// Runs `ptsim thermal` with the arguments after the subcommand. Temperatures go to the files
/// the options name; diagnostics to `err`; --help to `out`. Returns 0 on success, 2 for bad
/// input (options, files, floorplans), 1 when the run fails (thermal runaway).
int run_hotspot_cli(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

/// The text of `ptsim thermal --help`.
std::string hotspot_cli_help();

}  // namespace ptsim::thermal
