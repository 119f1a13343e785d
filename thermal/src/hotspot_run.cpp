// `ptsim thermal`: HotSpot's trace-level driver on ptsim's block and grid models.
#include "ptsim/thermal/hotspot_run.hpp"

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <ostream>
#include <memory>
#include <optional>
#include <cmath>
#include <sstream>
#include <stdexcept>
#include <unordered_map>

#include "ptsim/thermal/compact_model.hpp"
#include "ptsim/thermal/flp_format.hpp"
#include "ptsim/thermal/lcf_format.hpp"
#include "ptsim/thermal/leakage.hpp"
#include "ptsim/thermal/ptrace_format.hpp"
#include "ptsim/thermal/solver.hpp"
#include "ptsim/thermal/temperature_formats.hpp"

namespace ptsim::thermal {

namespace {

namespace fs = std::filesystem;

// Bad input: options, files, floorplans. Exit code 2.
struct input_error : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// -solver auto: networks up to these sizes integrate exactly (dense exponential: 2 n^2 per
// row, an n^3 eigen-decomposition once); larger ones by extrapolated implicit Euler on sparse
// factorisations. Grids: from a few hundred nodes on, Euler rows cost less (a 16 x 16 grid
// has 1036 nodes). Block models stay exact to 1500 nodes (372 blocks): on a 196-block
// floorplan (796 nodes) Euler's per-row tolerance of 0.05 K let 0.015 K accumulate, and
// tightening it to 0.01 K cost as much as the exact method (about 1 s for 1000 rows).
constexpr std::size_t exponential_max_grid_nodes = 400;
constexpr std::size_t exponential_max_block_nodes = 1500;

// An output file, or stdout / stderr by HotSpot's special names.
class output {
 public:
  output(const std::string& name, std::ostream& out, std::ostream& err) : name_(name) {
    if (name == "stdout") {
      stream_ = &out;
    } else if (name == "stderr") {
      stream_ = &err;
    } else {
      file_ = std::make_unique<std::ofstream>(name, std::ios::binary);
      if (!*file_) throw input_error(name + ": cannot open for writing");
      stream_ = file_.get();
    }
  }
  std::ostream& stream() { return *stream_; }
  void finish() {
    stream_->flush();
    if (!*stream_) throw std::runtime_error(name_ + ": write failed (disk full?)");
  }

 private:
  std::string name_;
  std::unique_ptr<std::ofstream> file_;
  std::ostream* stream_ = nullptr;
};

// A floorplan named in a .lcf: as written (HotSpot opens it from the working folder), or
// next to the .lcf when that does not exist.
fs::path lcf_relative(const std::string& file, const std::string& lcf) {
  const fs::path p(file);
  if (p.is_absolute() || fs::exists(p)) return p;
  const fs::path beside = fs::path(lcf).parent_path() / p;
  return fs::exists(beside) ? beside : p;
}

void warn_problems(const floorplan& fp, const std::string& file, std::ostream& err) {
  for (const std::string& p : fp.problems()) err << "ptsim thermal: warning: " << file << ": " << p << "\n";
}

// The model; `sink_fp` receives the floorplan of its sink layer's probes ("hsink_").
compact_model build_model(const hotspot_settings& s, std::ostream& err, floorplan& sink_fp) {
  if (!s.grid) {
    const floorplan fp = read_flp(s.flp_file);
    warn_problems(fp, s.flp_file, err);
    sink_fp = fp;
    return make_block_compact_model(fp, s.package);
  }
  grid_config cfg;
  cfg.rows = s.grid_rows;
  cfg.cols = s.grid_cols;
  cfg.package = s.package;
  cfg.map_mode = s.map_mode;
  cfg.per_block_materials = s.detailed_3d;
  cfg.secondary = s.secondary;
  if (s.grid_layer_file.empty()) {
    const floorplan fp = read_flp(s.flp_file);
    warn_problems(fp, s.flp_file, err);
    cfg.layers = default_grid_layers(fp, s.package, s.secondary ? &*s.secondary : nullptr);
    sink_fp = fp;
  } else {
    // HotSpot names layer-file layers by their place in its stack, which the secondary
    // path's PCB, solder and substrate layers precede.
    const int first = s.secondary ? 3 : 0;
    for (const lcf_layer& l : read_lcf(s.grid_layer_file, s.materials)) {
      grid_layer g;
      const fs::path file = lcf_relative(l.floorplan_file, s.grid_layer_file);
      flp_contents flp;
      try {
        flp = read_flp_contents(file);
      } catch (const std::exception& e) {
        throw input_error(std::string(e.what()) + " (floorplan of layer " + std::to_string(l.number) +
                          ", " + l.source + ")");
      }
      warn_problems(flp.fp, file.string(), err);
      g.fp = std::move(flp.fp);
      g.materials = std::move(flp.materials);
      g.lateral = l.lateral;
      g.power = l.power;
      g.conductivity = l.conductivity_W_per_mK;
      g.heat_capacity = l.heat_capacity_J_per_m3K;
      g.thickness = l.thickness_m;
      g.prefix = "layer_" + std::to_string(first + l.number) + "_";
      cfg.layers.push_back(std::move(g));
    }
  }
  if (!s.grid_layer_file.empty()) sink_fp = cfg.layers.back().fp;
  return build_grid_model(cfg);
}

// HotSpot's sink temperature for natural convection: the area-weighted mean over the sink
// base of its blocks' temperatures (under the die) and of the sink's periphery nodes.
class sink_temperature {
 public:
  sink_temperature(const compact_model& m, const floorplan& fp, const package_config& p) {
    std::unordered_map<std::string, std::size_t> index;
    for (std::size_t i = 0; i < m.probes.size(); ++i) index.emplace(m.probes[i].name, i);
    for (const block& b : fp.blocks()) weights_.push_back({index.at("hsink_" + b.name), b.area()});
    const double W = fp.width(), H = fp.height(), sp = p.s_spreader;
    const double inner_x = 0.25 * (sp + H) * (sp - W), inner_y = 0.25 * (sp + W) * (sp - H);
    const double outer = 0.25 * (p.s_sink * p.s_sink - sp * sp);
    const std::pair<int, double> nodes[] = {{4, inner_x}, {5, inner_x}, {6, inner_y}, {7, inner_y},
                                            {8, outer},   {9, outer},   {10, outer},  {11, outer}};
    for (const auto& [k, a] : nodes) weights_.push_back({index.at("inode_" + std::to_string(k)), a});
    sink_area_ = p.s_sink * p.s_sink;
  }
  double operator()(const compact_model& m, const std::vector<double>& T) const {
    double sum = 0;
    for (const auto& [probe, area] : weights_) sum += m.probe_temperature(probe, T) * area;
    return sum / sink_area_;
  }

 private:
  std::vector<std::pair<std::size_t, double>> weights_;
  double sink_area_ = 1;
};

// Column c of the ptrace feeds input column_input[c]. HotSpot's rule: the header lists the
// blocks of the power layers layer by layer, each layer's blocks in any order.
std::vector<std::size_t> map_columns(const compact_model& m, const ptrace_reader& trace) {
  const auto& names = trace.names();
  const std::string where = trace.source() + ":" + std::to_string(trace.header_line()) + ": ";
  if (names.size() != m.inputs.size()) {
    throw input_error(where + "the header names " + std::to_string(names.size()) +
                      " blocks but the floorplan" + (m.groups > 1 ? "s' power layers have " : " has ") +
                      std::to_string(m.inputs.size()));
  }
  std::vector<std::size_t> out(names.size());
  std::size_t col = 0;
  for (std::size_t g = 0; g < m.groups; ++g) {
    std::unordered_map<std::string, std::size_t> group;
    for (std::size_t i = 0; i < m.inputs.size(); ++i)
      if (m.inputs[i].group == g) group.emplace(m.inputs[i].name, i);
    const std::size_t end = col + group.size();
    for (; col < end; ++col) {
      const auto it = group.find(names[col]);
      if (it == group.end()) {
        std::string msg = where + "column " + std::to_string(col + 1) + " names block '" + names[col] +
                          "', which is not in the floorplan";
        if (m.groups > 1) msg += " of power layer " + std::to_string(g) + " (columns list the power layers' blocks layer by layer)";
        throw input_error(msg);
      }
      out[col] = it->second;
    }
  }
  return out;
}

// Initial node temperatures: from -init_file (block-level, the .steady format) or init_temp.
std::vector<double> initial_temperatures(const compact_model& m, const hotspot_settings& s) {
  if (s.init_file.empty()) return std::vector<double>(m.net.size(), s.init_temp_K);
  const auto entries = read_steady(s.init_file);
  std::unordered_map<std::string, std::size_t> index;
  for (std::size_t p = 0; p < m.probes.size(); ++p) index.emplace(m.probes[p].name, p);
  std::vector<double> probe_T(m.probes.size(), 0.0);
  std::vector<std::size_t> seen(m.probes.size(), 0);
  for (const named_temperature& e : entries) {
    const auto it = index.find(e.name);
    const std::string where = s.init_file + ":" + std::to_string(e.line) + ": ";
    if (it == index.end()) throw input_error(where + "'" + e.name + "' is not a node of this model");
    if (seen[it->second])
      throw input_error(where + "'" + e.name + "' appears twice (first on line " + std::to_string(seen[it->second]) + ")");
    seen[it->second] = e.line;
    probe_T[it->second] = e.T_K;
  }
  for (std::size_t p = 0; p < m.probes.size(); ++p) {
    if (!seen[p])
      throw input_error(s.init_file + ": no temperature for '" + m.probes[p].name + "' (the file needs every line -steady_file writes)");
  }
  if (s.dtm) {
    // HotSpot with DTM: scale every rise over ambient so that the hottest top-layer block
    // sits at the threshold.
    double hottest = 0;
    for (std::size_t p = 0; p < m.top_probes; ++p) hottest = std::max(hottest, probe_T[p]);
    if (hottest > s.thermal_threshold_K) {
      const double factor = (s.thermal_threshold_K - s.ambient_K) / (hottest - s.ambient_K);
      for (double& t : probe_T) t = (t - s.ambient_K) * factor + s.ambient_K;
    }
  }
  return m.nodes_from_probes(probe_T);
}

integration_method pick_method(const compact_model& m, const hotspot_settings& s) {
  switch (s.solver) {
    case hotspot_solver::exponential: return integration_method::exponential;
    case hotspot_solver::backward_euler: return integration_method::backward_euler;
    case hotspot_solver::extrapolated_euler: return integration_method::extrapolated_euler;
    case hotspot_solver::superlu:
      if (m.grid_layers > 0) return integration_method::backward_euler;
      break;
    case hotspot_solver::automatic: break;
  }
  const std::size_t limit = m.grid_layers > 0 ? exponential_max_grid_nodes : exponential_max_block_nodes;
  return m.net.size() <= limit ? integration_method::exponential : integration_method::extrapolated_euler;
}

// The run itself; throws input_error, divergence_error or std::runtime_error.
void run(const hotspot_settings& settings, std::ostream& out, std::ostream& err) {
  hotspot_settings s = settings;  // natural convection changes s.package.r_convec as it goes
  floorplan sink_fp;
  compact_model m = build_model(s, err, sink_fp);
  const bool natural = s.sink_fan && s.sink_fan->natural_convection;
  std::optional<sink_temperature> sink_T;
  if (natural) sink_T.emplace(m, sink_fp, s.package);
  // Natural convection: r_convec for the sink's temperature, and the model rebuilt with it
  // (HotSpot repopulates its resistances the same way).
  auto convect_at = [&](double sink_K) {
    s.package.r_convec = natural_convection_r(*s.sink_fan, s.package.s_sink, sink_K, s.ambient_K);
    if (!std::isfinite(s.package.r_convec) || !(s.package.r_convec > 0)) {
      std::ostringstream msg;
      msg << "natural convection: no finite convection resistance for a sink at " << sink_K << " K (ambient "
          << s.ambient_K << " K)";
      throw std::runtime_error(msg.str());
    }
    std::ostringstream quiet;  // floorplan warnings were written at the first build
    m = build_model(s, quiet, sink_fp);
  };
  ptrace_reader trace(s.ptrace_file);
  const std::vector<std::size_t> column_input = map_columns(m, trace);
  const std::size_t n_in = m.inputs.size();

  std::unique_ptr<output> ttrace, grid_trace;
  std::unique_ptr<transient_solver> solver;
  std::unique_ptr<coupled_transient> leaky;
  const bool transient = !s.ttrace_file.empty();
  if (transient) {
    ttrace = std::make_unique<output>(s.ttrace_file, out, err);
    write_names_line(ttrace->stream(), trace.names());
    if (!s.grid_transient_file.empty()) grid_trace = std::make_unique<output>(s.grid_transient_file, out, err);
    const integration_method method = pick_method(m, s);
    const bool superlu_grid = s.solver == hotspot_solver::superlu && m.grid_layers > 0;
    const int substeps = s.substeps > 0 && !superlu_grid ? s.substeps : 1;
    solver = std::make_unique<transient_solver>(m.net, s.sampling_intvl_s, substeps, s.ambient_K, method);
    solver->max_temperature_K = s.max_temp_K;
    if (method == integration_method::extrapolated_euler) solver->error_tolerance_K = s.solver_tolerance_K;
    solver->set_temperatures(initial_temperatures(m, s));
    if (s.transient_leakage) leaky = std::make_unique<coupled_transient>(m, *solver, make_leakage_fn(m));
  }

  std::vector<double> row, input_W(n_in), sum_W(n_in, 0.0), node_W, T_out(n_in);
  std::size_t rows = 0;
  while (trace.next(row)) {
    for (std::size_t c = 0; c < row.size(); ++c) input_W[column_input[c]] = row[c];
    for (std::size_t i = 0; i < n_in; ++i) sum_W[i] += input_W[i];
    if (transient) {
      if (natural) {
        // HotSpot updates r_convec before every row from the current temperatures.
        const std::vector<double> now = solver->temperatures();
        convect_at((*sink_T)(m, now));
        const double max_T = solver->max_temperature_K, tol = solver->error_tolerance_K;
        solver = std::make_unique<transient_solver>(m.net, s.sampling_intvl_s, solver->substeps(), s.ambient_K,
                                                    solver->method());
        solver->max_temperature_K = max_T;
        solver->error_tolerance_K = tol;
        solver->set_temperatures(now);
        if (leaky) leaky = std::make_unique<coupled_transient>(m, *solver, make_leakage_fn(m));
      }
      try {
        if (leaky) {
          leaky->step(input_W.data());
        } else {
          m.node_power(input_W.data(), node_W);
          solver->step(node_W.data());
        }
      } catch (const divergence_error& e) {
        std::ostringstream msg;
        msg << e.what() << "; that is " << m.describe_node(e.node) << ", during power row "
            << rows + 1 << " (" << trace.source() << ":" << trace.line() << ")";
        throw divergence_error(msg.str(), e.node, e.time_s);
      }
      const auto& T = solver->temperatures();
      for (std::size_t c = 0; c < n_in; ++c) T_out[c] = m.probe_temperature(m.inputs[column_input[c]].probe, T);
      write_values_line(ttrace->stream(), T_out.data(), n_in, s.decimals);
      if (grid_trace) {
        // HotSpot labels each block with the start time of the row.
        char head[64];
        std::snprintf(head, sizeof head, "t = %f\n", static_cast<double>(rows) * s.sampling_intvl_s);
        grid_trace->stream() << head;
        write_grid_cells(grid_trace->stream(), T.data(), m.grid_layers, m.grid_rows, m.grid_cols, s.decimals);
      }
    }
    ++rows;
  }
  if (rows == 0) throw input_error(trace.source() + ": no power rows after the header (HotSpot needs at least one)");
  if (ttrace) ttrace->finish();
  if (grid_trace) grid_trace->finish();

  // Steady state from the mean power of all rows, as HotSpot.
  for (double& w : sum_W) w /= static_cast<double>(rows);
  auto solve_steady = [&] {
    const steady_solver steady(m.net);
    if (s.leakage) {
      leakage_iteration it;
      it.max_temperature_K = s.max_temp_K;
      return steady_state(m, steady, sum_W, make_leakage_fn(m), s.ambient_K, it);
    }
    m.node_power(sum_W.data(), node_W);
    return steady.solve(node_W, s.ambient_K);
  };
  std::vector<double> T;
  if (!natural) {
    T = solve_steady();
  } else {
    // Natural convection, as HotSpot: solve, update r_convec from the sink's temperature
    // (0.01 K added) and rebuild, until r_convec moves less than 0.01 K/W. The temperatures
    // are the last solve's (the rebuilt model keeps the node order).
    constexpr double natural_r_tolerance = 0.01, max_sink_K = 1000;
    for (bool converged = false; !converged;) {
      const double r_old = s.package.r_convec;
      T = solve_steady();
      const double sink_K = (*sink_T)(m, T) + 0.01;
      if (sink_K > max_sink_K)
        throw divergence_error("natural convection: the sink passes 1000 K (too much power for this package)",
                               static_cast<std::size_t>(-1), 0);
      convect_at(sink_K);
      converged = std::abs(s.package.r_convec - r_old) < natural_r_tolerance;
    }
  }
  if (!s.steady_file.empty()) {
    output f(s.steady_file, out, err);
    std::string text;
    for (std::size_t p = 0; p < m.probes.size(); ++p) {
      text += m.probes[p].name;
      text += '\t';
      append_fixed(text, m.probe_temperature(p, T), s.decimals);
      text += '\n';
    }
    f.stream() << text;
    f.finish();
  }
  if (!s.grid_steady_file.empty()) {
    output f(s.grid_steady_file, out, err);
    write_grid_cells(f.stream(), T.data(), m.grid_layers, m.grid_rows, m.grid_cols, s.decimals);
    f.finish();
  }
}

}  // namespace

int run_hotspot_cli(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  for (const std::string& a : args) {
    if (a == "--help" || a == "-h" || a == "-help") {
      out << hotspot_cli_help();
      return 0;
    }
  }
  if (args.empty()) {
    err << hotspot_cli_help();
    return 2;
  }
  try {
    hotspot_options opts;
    opts.add_command_line(args);
    if (opts.has_file("c")) opts.add_config_file(opts.get_file("c"));
    std::vector<std::string> notes;
    const hotspot_settings s = resolve_hotspot_settings(opts, notes);
    for (const std::string& n : notes) err << "ptsim thermal: note: " << n << "\n";
    if (!s.dump_file.empty()) {
      output d(s.dump_file, out, err);
      dump_hotspot_config(d.stream(), opts, s);
      d.finish();
    }
    run(s, out, err);
    return 0;
  } catch (const divergence_error& e) {
    err << "ptsim thermal: error: " << e.what() << "\n";
    return 1;
  } catch (const std::exception& e) {
    err << "ptsim thermal: error: " << e.what() << "\n";
    return 2;
  }
}

}  // namespace ptsim::thermal
