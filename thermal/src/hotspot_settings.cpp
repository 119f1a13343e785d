// Resolving HotSpot options into hotspot_settings, and writing them back (-d).
#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <ostream>
#include <stdexcept>

#include "ptsim/thermal/hotspot_run.hpp"

namespace ptsim::thermal {

namespace {

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return s;
}

[[noreturn]] void bad(const hotspot_options& o, const std::string& name, const std::string& what) {
  const option_value* v = o.find(name);
  throw std::runtime_error((v ? v->origin : std::string("configuration")) + ": -" + name + " " + what);
}

double positive(const hotspot_options& o, const std::string& name, double fallback) {
  const double v = o.get_double(name, fallback);
  if (!(v > 0)) bad(o, name, "must be positive, found " + o.get_string(name, ""));
  return v;
}

double non_negative(const hotspot_options& o, const std::string& name, double fallback) {
  const double v = o.get_double(name, fallback);
  if (v < 0) bad(o, name, "must not be negative, found " + o.get_string(name, ""));
  return v;
}

bool flag(const hotspot_options& o, const std::string& name) { return o.get_int(name, 0) != 0; }

// Names, in HotSpot's -d order (global, then thermal configuration).
const char* const dump_order[] = {
    "f", "p", "o", "c", "d", "detailed_3D", "use_microchannels", "materials_file",
    "t_chip", "k_chip", "p_chip", "thermal_threshold", "c_convec", "r_convec", "s_sink", "t_sink",
    "k_sink", "p_sink", "s_spreader", "t_spreader", "k_spreader", "p_spreader", "t_interface",
    "k_interface", "p_interface", "model_secondary", "r_convec_sec", "c_convec_sec", "n_metal",
    "t_metal", "t_c4", "s_c4", "n_c4", "s_sub", "t_sub", "s_solder", "t_solder", "s_pcb", "t_pcb",
    "ambient", "init_file", "init_temp", "steady_file", "sampling_intvl", "base_proc_freq",
    "dtm_used", "model_type", "leakage_used", "leakage_mode", "package_model_used",
    "package_config_file", "block_omit_lateral", "grid_rows", "grid_cols", "grid_layer_file",
    "grid_steady_file", "grid_map_mode", "grid_transient_file", "detailed_3D_used"};

// HotSpot's defaults for what ptsim does not resolve into settings.
std::string hotspot_default(const std::string& name) {
  static const std::pair<const char*, const char*> defaults[] = {
      {"detailed_3D", "off"}, {"use_microchannels", "0"}, {"model_secondary", "0"},
      {"r_convec_sec", "1"}, {"c_convec_sec", "140.4"}, {"n_metal", "8"}, {"t_metal", "1e-05"},
      {"t_c4", "0.0001"}, {"s_c4", "2e-05"}, {"n_c4", "400"}, {"s_sub", "0.021"},
      {"t_sub", "0.001"}, {"s_solder", "0.021"}, {"t_solder", "0.00094"}, {"s_pcb", "0.1"},
      {"t_pcb", "0.002"}, {"base_proc_freq", "3e+09"}, {"leakage_mode", "0"},
      {"package_model_used", "0"}, {"package_config_file", "(null)"}, {"detailed_3D_used", "0"}};
  for (const auto& [n, v] : defaults)
    if (name == n) return v;
  return "(null)";
}

std::string g(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%g", v);
  return buf;
}

std::string file_or_null(const std::string& f) { return f.empty() ? "(null)" : f; }

}  // namespace

namespace {

void read_files(const hotspot_options& o, hotspot_settings& s) {
  s.flp_file = o.get_file("f");
  s.ptrace_file = o.get_file("p");
  s.ttrace_file = o.get_file("o");
  s.dump_file = o.get_file("d");
  s.steady_file = o.get_file("steady_file");
  s.init_file = o.get_file("init_file");
  s.grid_layer_file = o.get_file("grid_layer_file");
  s.grid_steady_file = o.get_file("grid_steady_file");
  s.grid_transient_file = o.get_file("grid_transient_file");
  if (s.ptrace_file.empty()) throw std::runtime_error("command line: -p (the power trace) is required");
}

// The package's numbers (package_fields), then the materials that override them, as HotSpot.
void read_package(const hotspot_options& o, hotspot_settings& s) {
  package_config& p = s.package;
  const package_config d;
  for (const package_field& f : package_fields()) p.*f.member = o.get_double(f.key, d.*f.member);
  p.omit_lateral = flag(o, "block_omit_lateral");
  // HotSpot checks the dimensions first ("chip and package dimensions should be greater than zero").
  for (const package_field& f : package_fields())
    if (f.quantity == package_quantity::length) positive(o, f.key, 1.0);
  for (const package_field& f : package_fields()) {
    if (f.quantity == package_quantity::length) continue;
    if (f.may_be_zero) non_negative(o, f.key, 0.0);
    else positive(o, f.key, 1.0);
  }
  if (o.has_file("materials_file")) s.materials.add_file(o.get_file("materials_file"));
  auto apply_material = [&](const char* option, double& k, double& cap) {
    const option_value* v = o.find(option);
    if (v == nullptr) return;
    const material* m = s.materials.find(v->value);
    if (m == nullptr)
      throw std::runtime_error(v->origin + ": -" + option + " names material '" + v->value +
                               "', which no -materials_file defines");
    k = m->conductivity_W_per_mK;
    cap = m->heat_capacity_J_per_m3K;
  };
  apply_material("material_chip", p.k_chip, p.p_chip);
  apply_material("material_sink", p.k_sink, p.p_sink);
  apply_material("material_spreader", p.k_spreader, p.p_spreader);
  apply_material("material_interface", p.k_interface, p.p_interface);
}

void read_simulation(const hotspot_options& o, hotspot_settings& s) {
  s.ambient_K = non_negative(o, "ambient", s.ambient_K);
  s.init_temp_K = o.get_double("init_temp", s.init_temp_K);
  s.sampling_intvl_s = positive(o, "sampling_intvl", s.sampling_intvl_s);
  s.thermal_threshold_K = non_negative(o, "thermal_threshold", s.thermal_threshold_K);
  positive(o, "base_proc_freq", 3e9);
  s.dtm = flag(o, "dtm_used");
  s.leakage = flag(o, "leakage_used");
  if (s.leakage && o.get_int("leakage_mode", 0) != 0)
    bad(o, "leakage_mode", "1 (HotLeakage) is not implemented in HotSpot either; use 0");
}

void read_grid(const hotspot_options& o, hotspot_settings& s, std::vector<std::string>& notes) {
  const std::string model = lower(o.get_string("model_type", "block"));
  if (model != "block" && model != "grid") bad(o, "model_type", "must be 'block' or 'grid', found '" + model + "'");
  s.grid = model == "grid";
  const int rows = o.get_int("grid_rows", 64), cols = o.get_int("grid_cols", 64);
  if (rows <= 0) bad(o, "grid_rows", "must be positive");
  if (cols <= 0) bad(o, "grid_cols", "must be positive");
  // Memory and every solve grow with the cells (times the layers): bound them before
  // allocating, not after the machine runs out (100000 x 100000 asked for 1e10 cells).
  constexpr long long max_cells = 1024LL * 1024LL;
  if (static_cast<long long>(rows) * cols > max_cells)
    bad(o, "grid_rows", "grid_rows x grid_cols = " + std::to_string(static_cast<long long>(rows) * cols) +
                            " cells, more than " + std::to_string(max_cells) + " (1024 x 1024)");
  s.grid_rows = static_cast<std::size_t>(rows);
  s.grid_cols = static_cast<std::size_t>(cols);
  const std::string mode = lower(o.get_string("grid_map_mode", "center"));
  if (mode == "avg") s.map_mode = grid_map_mode::avg;
  else if (mode == "min") s.map_mode = grid_map_mode::min;
  else if (mode == "max") s.map_mode = grid_map_mode::max;
  else if (mode == "center") s.map_mode = grid_map_mode::center;
  else bad(o, "grid_map_mode", "must be avg, min, max or center, found '" + mode + "'");

  s.detailed_3d = o.get_string("detailed_3D", "off") == "on" || flag(o, "detailed_3D_used");
  if (s.detailed_3d && (!s.grid || s.grid_layer_file.empty()))
    throw std::runtime_error("-detailed_3D on needs -model_type grid and a -grid_layer_file, as in HotSpot");
  if (!s.grid) {
    if (!s.grid_steady_file.empty()) {
      notes.push_back("ignoring -grid_steady_file because the grid model is not used (as HotSpot)");
      s.grid_steady_file.clear();
    }
    if (!s.grid_transient_file.empty()) {
      notes.push_back("ignoring -grid_transient_file because the grid model is not used (as HotSpot)");
      s.grid_transient_file.clear();
    }
  }
  if (s.grid_layer_file.empty() && s.flp_file.empty())
    throw std::runtime_error("command line: either -f (floorplan) or -grid_layer_file is required");
  if (!s.grid_layer_file.empty() && !s.flp_file.empty() && s.grid)
    notes.push_back("layer configuration file " + s.grid_layer_file + " given: ignoring floorplan " +
                    s.flp_file + " (as HotSpot)");
}

// The secondary path's values: HotSpot checks them whether or not the path is used.
void read_secondary(const hotspot_options& o, hotspot_settings& s) {
  secondary_path_config c;
  c.r_convec_sec = positive(o, "r_convec_sec", c.r_convec_sec);
  c.c_convec_sec = positive(o, "c_convec_sec", c.c_convec_sec);
  positive(o, "n_metal", 8);
  c.t_metal = positive(o, "t_metal", c.t_metal);
  c.t_c4 = positive(o, "t_c4", c.t_c4);
  positive(o, "s_c4", 20e-6);
  positive(o, "n_c4", 400);
  c.s_sub = positive(o, "s_sub", c.s_sub);
  c.t_sub = positive(o, "t_sub", c.t_sub);
  c.s_solder = positive(o, "s_solder", c.s_solder);
  c.t_solder = positive(o, "t_solder", c.t_solder);
  c.s_pcb = positive(o, "s_pcb", c.s_pcb);
  c.t_pcb = positive(o, "t_pcb", c.t_pcb);
  if (!flag(o, "model_secondary")) return;
  if (!s.grid) bad(o, "model_secondary", "1 needs -model_type grid (HotSpot: the secondary path is grid-only)");
  if (s.detailed_3d)
    bad(o, "model_secondary", "1 with -detailed_3D on is not modelled (per-block materials in the secondary layers)");
  s.secondary = c;
}

// HotSpot's package model: the package configuration file's values, and r_convec from them
// (natural convection: first for a sink 0.01 K above ambient, as HotSpot).
void read_sink_fan(const hotspot_options& o, hotspot_settings& s) {
  if (!flag(o, "package_model_used")) return;
  hotspot_options file;
  if (o.has_file("package_config_file")) file.add_config_file(o.get_file("package_config_file"));
  sink_fan_config c;
  c.natural_convection = file.get_int("natural_convec", 0) != 0;
  c.impinging_flow = file.get_int("flow_type", 0) != 0;
  c.pin_fins = file.get_int("sink_type", 0) != 0;
  for (auto [name, member] : {std::pair{"fin_height", &sink_fan_config::fin_height},
                              {"fin_width", &sink_fan_config::fin_width},
                              {"channel_width", &sink_fan_config::channel_width},
                              {"pin_height", &sink_fan_config::pin_height},
                              {"pin_diam", &sink_fan_config::pin_diam},
                              {"pin_dist", &sink_fan_config::pin_dist},
                              {"fan_radius", &sink_fan_config::fan_radius},
                              {"motor_radius", &sink_fan_config::motor_radius}, {"rpm", &sink_fan_config::rpm}})
    c.*member = positive(file, name, c.*member);
  if (!(c.motor_radius < c.fan_radius))
    bad(file, "motor_radius", "must be smaller than -fan_radius (" + g(c.fan_radius) + ")");
  const double r = c.natural_convection
                       ? natural_convection_r(c, s.package.s_sink, s.ambient_K + 0.01, s.ambient_K)
                       : forced_convection_r(c, s.package.s_sink, s.package.k_sink);
  if (!std::isfinite(r) || !(r > 0))
    throw std::runtime_error(o.get_file("package_config_file") +
                             ": the sink and fan give no finite convection resistance (r_convec " + g(r) +
                             "); check fin, channel and pin sizes against s_sink");
  s.package.r_convec = r;
  s.sink_fan = c;
}

// HotSpot's microchannel parameters (its microchannel_config_add_from_strs): numbers, then
// -wall_material / -coolant_material from the materials file, which override them.
void read_microchannels(const hotspot_options& o, hotspot_settings& s) {
  if (!flag(o, "use_microchannels")) return;
  if (!s.grid || !s.detailed_3d || s.grid_layer_file.empty())
    bad(o, "use_microchannels",
        "1 needs -model_type grid, -detailed_3D on and a -grid_layer_file (as HotSpot)");
  microchannel_config c;
  c.pumping_pressure_Pa = non_negative(o, "pumping_pressure", c.pumping_pressure_Pa);
  c.pump_internal_res = non_negative(o, "pump_internal_res", c.pump_internal_res);
  c.inlet_temperature_K = positive(o, "inlet_temperature", c.inlet_temperature_K);
  c.coolant_capac = positive(o, "coolant_capac", c.coolant_capac);
  c.coolant_res = positive(o, "coolant_res", c.coolant_res);
  c.coolant_visc = positive(o, "coolant_visc", c.coolant_visc);
  c.wall_capac = positive(o, "wall_capac", c.wall_capac);
  c.wall_res = positive(o, "wall_res", c.wall_res);
  c.htc = positive(o, "htc", c.htc);
  auto material_of = [&](const char* option) -> const material* {
    const option_value* v = o.find(option);
    if (v == nullptr) return nullptr;
    const material* m = s.materials.find(v->value);
    if (m == nullptr)
      throw std::runtime_error(v->origin + ": -" + option + " names material '" + v->value +
                               "', which no -materials_file defines");
    return m;
  };
  if (const material* m = material_of("wall_material")) {
    c.wall_res = 1.0 / m->conductivity_W_per_mK;
    c.wall_capac = m->heat_capacity_J_per_m3K;
  }
  if (const material* m = material_of("coolant_material")) {
    if (!m->fluid || !(m->viscosity_Pa_s > 0))
      bad(o, "coolant_material", "names '" + m->name + "', which is not a fluid with a viscosity in the materials file");
    c.coolant_res = 1.0 / m->conductivity_W_per_mK;
    c.coolant_capac = m->heat_capacity_J_per_m3K;
    c.coolant_visc = m->viscosity_Pa_s;
  }
  s.microchannels = c;
}

// ptsim's own options (not HotSpot's).
void read_solver(const hotspot_options& o, hotspot_settings& s) {
  s.decimals = o.get_int("precision", s.decimals);
  if (s.decimals < 0 || s.decimals > 17) bad(o, "precision", "must be between 0 and 17 decimals");
  const std::string solver = lower(o.get_string("solver", "auto"));
  if (solver == "auto") s.solver = hotspot_solver::automatic;
  else if (solver == "exponential") s.solver = hotspot_solver::exponential;
  else if (solver == "backward_euler") s.solver = hotspot_solver::backward_euler;
  else if (solver == "extrapolated_euler") s.solver = hotspot_solver::extrapolated_euler;
  else if (solver == "superlu") s.solver = hotspot_solver::superlu;
  else bad(o, "solver", "must be auto, exponential, backward_euler, extrapolated_euler or superlu");
  s.substeps = o.get_int("substeps", 0);
  if (s.substeps < 0) bad(o, "substeps", "must not be negative (0: automatic)");
  s.solver_tolerance_K = non_negative(o, "solver_tolerance", s.solver_tolerance_K);
  s.transient_leakage = flag(o, "transient_leakage");
  s.max_temp_K = positive(o, "max_temp", s.max_temp_K);
}

}  // namespace

hotspot_settings resolve_hotspot_settings(const hotspot_options& o, std::vector<std::string>& notes) {
  hotspot_settings s;
  read_files(o, s);
  read_package(o, s);
  read_simulation(o, s);
  read_grid(o, s, notes);
  read_secondary(o, s);
  read_sink_fan(o, s);
  read_microchannels(o, s);
  read_solver(o, s);
  return s;
}

void dump_hotspot_config(std::ostream& out, const hotspot_options& o, const hotspot_settings& s) {
  const package_config& p = s.package;
  auto value = [&](const std::string& n) -> std::string {
    if (n == "f") return file_or_null(s.flp_file);
    if (n == "p") return file_or_null(s.ptrace_file);
    if (n == "o") return file_or_null(s.ttrace_file);
    if (n == "c") return file_or_null(o.get_file("c"));
    if (n == "d") return file_or_null(s.dump_file);
    if (n == "materials_file") return file_or_null(o.get_file("materials_file"));
    if (n == "thermal_threshold") return g(s.thermal_threshold_K);
    for (const package_field& f : package_fields())
      if (n == f.key) return g(p.*f.member);
    if (n == "ambient") return g(s.ambient_K);
    if (n == "init_file") return file_or_null(s.init_file);
    if (n == "init_temp") return g(s.init_temp_K);
    if (n == "steady_file") return file_or_null(s.steady_file);
    if (n == "sampling_intvl") return g(s.sampling_intvl_s);
    if (n == "dtm_used") return s.dtm ? "1" : "0";
    if (n == "model_type") return s.grid ? "grid" : "block";
    if (n == "leakage_used") return s.leakage ? "1" : "0";
    if (n == "block_omit_lateral") return p.omit_lateral ? "1" : "0";
    if (n == "grid_rows") return std::to_string(s.grid_rows);
    if (n == "grid_cols") return std::to_string(s.grid_cols);
    if (n == "grid_layer_file") return file_or_null(s.grid_layer_file);
    if (n == "grid_steady_file") return file_or_null(s.grid_steady_file);
    if (n == "grid_transient_file") return file_or_null(s.grid_transient_file);
    if (n == "grid_map_mode") {
      switch (s.map_mode) {
        case grid_map_mode::avg: return "avg";
        case grid_map_mode::min: return "min";
        case grid_map_mode::max: return "max";
        case grid_map_mode::center: return "center";
      }
    }
    if (n == "model_secondary") return s.secondary ? "1" : "0";
    // The rest as HotSpot echoes them: numbers parsed and printed with %g (integers %d).
    const option_value* v = o.find(n);
    if (v == nullptr) return hotspot_default(n);
    for (const char* integer : {"use_microchannels", "n_metal", "n_c4", "leakage_mode", "package_model_used",
                                "detailed_3D_used"})
      if (n == integer) return std::to_string(o.get_int(n, 0));
    for (const char* real : {"r_convec_sec", "c_convec_sec", "t_metal", "t_c4", "s_c4", "s_sub", "t_sub",
                             "s_solder", "t_solder", "s_pcb", "t_pcb", "base_proc_freq"})
      if (n == real) return g(o.get_double(n, 0));
    return v->value;
  };
  for (const char* n : dump_order) out << '-' << n << '\t' << value(n) << '\n';
}

}  // namespace ptsim::thermal
