#include "ptsim/thermal/hotspot_options.hpp"

#include <algorithm>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "ptsim/text/nearest_name.hpp"
#include "ptsim/text/input_file.hpp"
#include "text_parse.hpp"

namespace ptsim::thermal {

namespace {

using S = option_support;

// HotSpot's name for "no file".
constexpr const char* null_file = "(null)";

}  // namespace

const std::vector<option_info>& option_catalogue() {
  static const std::vector<option_info> catalogue = {
      // hotspot's global options
      {"c", S::modelled, "configuration file of -name value lines"},
      {"f", S::modelled, "floorplan (.flp); overridden by -grid_layer_file"},
      {"p", S::modelled, "power trace (.ptrace), required"},
      {"o", S::modelled, "transient temperature trace to write (.ttrace)"},
      {"d", S::modelled, "write the resolved configuration to this file"},
      {"materials_file", S::modelled, "materials (name, solid|fluid, k, volumetric heat capacity)"},
      {"detailed_3D", S::modelled, "on: per-block materials from the .flp columns (grid model with -grid_layer_file)"},
      {"use_microchannels", S::modelled, "1: layer-file layers whose floorplan is a .csv network are microfluidic cooling layers (needs -detailed_3D on)"},
      // chip
      {"t_chip", S::modelled, "chip thickness (m)"},
      {"k_chip", S::modelled, "chip thermal conductivity (W/(m K))"},
      {"p_chip", S::modelled, "chip volumetric heat capacity (J/(m^3 K))"},
      {"material_chip", S::modelled, "chip material from -materials_file (sets k_chip, p_chip)"},
      {"thermal_threshold", S::modelled, "DTM threshold (K); with -dtm_used 1, -init_file is clipped to it"},
      // heat sink
      {"c_convec", S::modelled, "convection capacitance (J/K)"},
      {"r_convec", S::modelled, "convection resistance (K/W)"},
      {"s_sink", S::modelled, "heat sink side (m)"},
      {"t_sink", S::modelled, "heat sink thickness (m)"},
      {"k_sink", S::modelled, "heat sink thermal conductivity (W/(m K))"},
      {"p_sink", S::modelled, "heat sink volumetric heat capacity (J/(m^3 K))"},
      {"material_sink", S::modelled, "heat sink material from -materials_file"},
      // spreader
      {"s_spreader", S::modelled, "heat spreader side (m)"},
      {"t_spreader", S::modelled, "heat spreader thickness (m)"},
      {"k_spreader", S::modelled, "heat spreader thermal conductivity (W/(m K))"},
      {"p_spreader", S::modelled, "heat spreader volumetric heat capacity (J/(m^3 K))"},
      {"material_spreader", S::modelled, "heat spreader material from -materials_file"},
      // interface material
      {"t_interface", S::modelled, "interface material thickness (m)"},
      {"k_interface", S::modelled, "interface material thermal conductivity (W/(m K))"},
      {"p_interface", S::modelled, "interface material volumetric heat capacity (J/(m^3 K))"},
      {"material_interface", S::modelled, "interface material from -materials_file"},
      // secondary heat path (grid model only)
      {"model_secondary", S::modelled, "1: the secondary heat path (metal, C4/underfill, substrate, solder balls, PCB; grid model)"},
      {"r_convec_sec", S::modelled, "secondary path: PCB convection resistance (K/W)"},
      {"c_convec_sec", S::modelled, "secondary path: PCB convection capacitance (J/K)"},
      {"n_metal", S::no_effect, "secondary path: number of metal layers (checked, not used)"},
      {"t_metal", S::modelled, "secondary path: metal layer thickness (m; without -grid_layer_file)"},
      {"t_c4", S::modelled, "secondary path: C4/underfill thickness (m; without -grid_layer_file)"},
      {"s_c4", S::no_effect, "secondary path: C4 pad side (m; checked, not used)"},
      {"n_c4", S::no_effect, "secondary path: number of C4 pads (checked, not used)"},
      {"s_sub", S::modelled, "secondary path: package substrate side (m)"},
      {"t_sub", S::modelled, "secondary path: package substrate thickness (m)"},
      {"s_solder", S::modelled, "secondary path: solder ball layer side (m)"},
      {"t_solder", S::modelled, "secondary path: solder ball layer thickness (m)"},
      {"s_pcb", S::modelled, "secondary path: PCB side (m)"},
      {"t_pcb", S::modelled, "secondary path: PCB thickness (m)"},
      // simulation
      {"ambient", S::modelled, "ambient temperature (K)"},
      {"init_file", S::modelled, "initial temperatures (.steady format) for the transient"},
      {"init_temp", S::modelled, "initial temperature of every node (K) when there is no -init_file"},
      {"steady_file", S::modelled, "steady-state temperatures to write (every node)"},
      {"sampling_intvl", S::modelled, "duration of one power trace row (s)"},
      {"base_proc_freq", S::no_effect, "processor frequency (Hz); unused by hotspot"},
      {"dtm_used", S::modelled, "1: clip -init_file temperatures to -thermal_threshold"},
      {"model_type", S::modelled, "block | grid"},
      {"leakage_used", S::modelled, "1: temperature-leakage loop in the steady state (HotSpot's leakage model)"},
      {"leakage_mode", S::modelled, "0: HotSpot's built-in leakage model (1, HotLeakage, does not exist)"},
      {"package_model_used", S::modelled, "1: r_convec from the heat sink and fan of -package_config_file"},
      {"package_config_file", S::modelled, "heat sink and fan parameters for -package_model_used (HotSpot's package.config)"},
      // block model
      {"block_omit_lateral", S::modelled, "1: no lateral resistances between silicon blocks"},
      // grid model
      {"grid_rows", S::modelled, "grid rows (any positive number)"},
      {"grid_cols", S::modelled, "grid columns (any positive number)"},
      {"grid_layer_file", S::modelled, "layer configuration file (.lcf)"},
      {"grid_steady_file", S::modelled, "steady-state temperature of every grid cell to write"},
      {"grid_map_mode", S::modelled, "block temperature from its cells: avg | min | max | center"},
      {"grid_transient_file", S::modelled, "every grid cell's temperature after every row, appended"},
      {"detailed_3D_used", S::modelled, "as -detailed_3D (1 = on); the name -d writes"},
      // package model (package.config)
      {"natural_convec", S::modelled, "in -package_config_file: 1 natural convection (with radiation), 0 forced by the fan"},
      {"flow_type", S::modelled, "in -package_config_file: 0 airflow from a side, 1 impinging from the top"},
      {"sink_type", S::modelled, "in -package_config_file: 0 fin-channel sink, 1 pin-fin sink"},
      {"fin_height", S::modelled, "in -package_config_file: fin height (m)"},
      {"fin_width", S::modelled, "in -package_config_file: fin width (m)"},
      {"channel_width", S::modelled, "in -package_config_file: channel width (m)"},
      {"pin_height", S::modelled, "in -package_config_file: pin height (m)"},
      {"pin_diam", S::modelled, "in -package_config_file: pin diameter (m)"},
      {"pin_dist", S::modelled, "in -package_config_file: pin distance (m)"},
      {"fan_radius", S::modelled, "in -package_config_file: fan radius (m)"},
      {"motor_radius", S::modelled, "in -package_config_file: fan motor radius (m)"},
      {"rpm", S::modelled, "in -package_config_file: fan speed (rpm)"},
      // microchannels
      {"network_file", S::no_effect, "microchannels: each layer's network comes from the layer file (HotSpot overwrites this)"},
      {"pumping_pressure", S::modelled, "microchannels: pumping pressure between inlets and outlets (Pa)"},
      {"pump_internal_res", S::modelled, "microchannels: pump internal hydraulic resistance (Pa s/m^3; 0 ideal)"},
      {"inlet_temperature", S::modelled, "microchannels: coolant inlet temperature (K)"},
      {"coolant_material", S::modelled, "microchannels: coolant (a fluid of -materials_file; sets k, capacity, viscosity)"},
      {"coolant_capac", S::modelled, "microchannels: coolant volumetric heat capacity (J/(m^3 K))"},
      {"coolant_res", S::modelled, "microchannels: coolant thermal resistivity (m K/W)"},
      {"coolant_visc", S::modelled, "microchannels: coolant dynamic viscosity (Pa s)"},
      {"wall_material", S::modelled, "microchannels: channel wall material from -materials_file"},
      {"wall_capac", S::modelled, "microchannels: wall volumetric heat capacity (J/(m^3 K))"},
      {"wall_res", S::modelled, "microchannels: wall thermal resistivity (m K/W)"},
      {"htc", S::modelled, "microchannels: coolant-to-wall heat transfer coefficient (W/(m^2 K))"},
      {"cell_width", S::no_effect, "microchannels: written by HotSpot's -d; the grid's cell width"},
      {"cell_height", S::no_effect, "microchannels: written by HotSpot's -d; the grid's cell height"},
      {"cell_thickness", S::no_effect, "microchannels: written by HotSpot's -d; the layer's thickness"},
      {"floorplan_file", S::no_effect, "microchannels: written by HotSpot's -d; the floorplan it derives from the network"},
      {"num_rows", S::no_effect, "microchannels: written by HotSpot's -d; -grid_rows"},
      {"num_columns", S::no_effect, "microchannels: written by HotSpot's -d; -grid_cols"},
      {"n_fluid_cells", S::no_effect, "microchannels: written by HotSpot's -d; counted from the network"},
      {"use_microfluidic_cooling", S::no_effect, "appears in HotSpot's example configuration; read by nothing"},
      // hotfloorplan's options (hotspot reads none of them)
      {"wrap_l2", S::no_effect, "floorplanner"},
      {"l2_label", S::no_effect, "floorplanner"},
      {"model_rim", S::no_effect, "floorplanner"},
      {"rim_thickness", S::no_effect, "floorplanner"},
      {"compact_ratio", S::no_effect, "floorplanner"},
      {"n_orients", S::no_effect, "floorplanner"},
      {"P0", S::no_effect, "floorplanner"},
      {"Davg", S::no_effect, "floorplanner"},
      {"Kmoves", S::no_effect, "floorplanner"},
      {"Rcool", S::no_effect, "floorplanner"},
      {"Rreject", S::no_effect, "floorplanner"},
      {"Nmax", S::no_effect, "floorplanner"},
      {"lambdaA", S::no_effect, "floorplanner"},
      {"lambdaT", S::no_effect, "floorplanner"},
      {"lambdaW", S::no_effect, "floorplanner"},
      // ptsim's own
      {"precision", S::ptsim_only, "decimals in every temperature written (default 6; HotSpot: 2)"},
      {"solver", S::ptsim_only,
       "transient integrator: auto | exponential | backward_euler | extrapolated_euler | "
       "superlu (as HotSpot's SuperLU build)"},
      {"substeps", S::ptsim_only, "sub-steps per row for the Euler integrators (default: chosen from -solver_tolerance)"},
      {"solver_tolerance", S::ptsim_only,
       "extrapolated_euler: largest estimated error per row before sub-steps double (K, default 0.05; 0 fixes them)"},
      {"transient_leakage", S::ptsim_only, "1: HotSpot's leakage model in the transient too (HotSpot: steady only)"},
      {"max_temp", S::ptsim_only, "divergence limit (K, default 1000): beyond it the run stops"},
  };
  return catalogue;
}

const option_info* find_option(const std::string& name) {
  for (const option_info& o : option_catalogue())
    if (name == o.name) return &o;
  return nullptr;
}

std::string nearest_option(const std::string& name) {
  // A suggestion within a third of the name's length (no two-edit floor).
  std::vector<std::string> names;
  for (const option_info& o : option_catalogue()) names.push_back(o.name);
  return text::nearest_name(name, names, name.size() / 3);
}

namespace {

[[noreturn]] void unknown_option(const std::string& name, const std::string& origin) {
  std::string msg = origin + ": unknown option '-" + name + "' (not a HotSpot 7 option";
  const std::string hint = nearest_option(name);
  if (!hint.empty()) msg += "; did you mean '-" + hint + "'?";
  msg += ")";
  throw std::runtime_error(msg);
}

}  // namespace

void hotspot_options::add(const std::string& name, std::string value, std::string origin) {
  if (has(name)) return;  // HotSpot: earlier entries override later ones
  entries_.push_back({name, {std::move(value), std::move(origin)}});
}

void hotspot_options::add_command_line(const std::vector<std::string>& args) {
  for (std::size_t i = 0; i < args.size(); i += 2) {
    const std::string& flag = args[i];
    if (flag.size() < 2 || flag[0] != '-') {
      throw std::runtime_error("command line: expected an option -name, found '" + flag +
                               "' (options come in -name value pairs)");
    }
    const std::string name = flag.substr(1);
    if (find_option(name) == nullptr) unknown_option(name, "command line");
    if (i + 1 >= args.size())
      throw std::runtime_error("command line: option '" + flag + "' has no value");
    add(name, args[i + 1], "command line");
  }
}

void hotspot_options::add_config_text(const std::string& text, const std::string& source) {
  std::istringstream in(text);
  std::size_t line_no = 0;
  for (std::string line; std::getline(in, line);) {
    ++line_no;
    std::istringstream words(line);
    std::string name, value;
    if (!(words >> name) || name[0] == '#') continue;
    const std::string origin = source + ":" + std::to_string(line_no);
    if (name[0] != '-' || name.size() < 2) {
      throw std::runtime_error(origin + ": expected '-name value', found '" + name +
                               "' (names start with '-')");
    }
    if (!(words >> value))
      throw std::runtime_error(origin + ": option '" + name + "' has no value");
    const std::string bare = name.substr(1);
    if (find_option(bare) == nullptr) unknown_option(bare, origin);
    add(bare, value, origin);
  }
}

void hotspot_options::add_config_file(const std::filesystem::path& path) {
  add_config_text(text::read_input_file_or_throw(path, "configuration file"), path.string());
}

void hotspot_options::add_default(const std::string& name, const std::string& value,
                                  const std::string& origin) {
  add(name, value, origin);
}

const option_value* hotspot_options::find(const std::string& name) const {
  for (const entry& e : entries_)
    if (e.name == name) return &e.v;
  return nullptr;
}

bool hotspot_options::has_file(const std::string& name) const { return !get_file(name).empty(); }

double hotspot_options::get_double(const std::string& name, double fallback) const {
  const option_value* v = find(name);
  if (v == nullptr) return fallback;
  double out = 0;
  if (!detail::parse_double(v->value, out)) {
    throw std::runtime_error(v->origin + ": -" + name + " expects a number, found '" + v->value +
                             "'");
  }
  return out;
}

int hotspot_options::get_int(const std::string& name, int fallback) const {
  const option_value* v = find(name);
  if (v == nullptr) return fallback;
  int out = 0;
  if (!detail::parse_int(v->value, out)) {
    throw std::runtime_error(v->origin + ": -" + name + " expects an integer, found '" +
                             v->value + "'");
  }
  return out;
}

std::string hotspot_options::get_string(const std::string& name, const std::string& fallback) const {
  const option_value* v = find(name);
  return v == nullptr ? fallback : v->value;
}

std::string hotspot_options::get_file(const std::string& name) const {
  const option_value* v = find(name);
  if (v == nullptr || v->value == null_file) return {};
  return v->value;
}

}  // namespace ptsim::thermal
