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
#include "ptsim/thermal/microchannel.hpp"
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
    const std::vector<lcf_layer> lcf = read_lcf(s.grid_layer_file, s.materials);
    // HotSpot takes a layer whose floorplan name contains ".csv" for a microchannel network.
    auto is_network = [](const lcf_layer& l) { return l.floorplan_file.find(".csv") != std::string::npos; };
    std::vector<std::size_t> network_layers;
    for (const lcf_layer& l : lcf) {
      grid_layer g;
      g.lateral = l.lateral;
      g.power = l.power;
      g.conductivity = l.conductivity_W_per_mK;
      g.heat_capacity = l.heat_capacity_J_per_m3K;
      g.thickness = l.thickness_m;
      g.prefix = "layer_" + std::to_string(first + l.number) + "_";
      if (is_network(l)) {
        if (!s.microchannels)
          throw input_error(l.source + ": layer " + std::to_string(l.number) + "'s floorplan " + l.floorplan_file +
                            " is a microchannel network (.csv), which needs -use_microchannels 1 (as HotSpot)");
        if (l.number == 0)
          throw input_error(l.source + ": layer 0 cannot be a microchannel layer (HotSpot takes the die's size "
                            "from layer 0)");
        network_layers.push_back(cfg.layers.size());
        g.channels = microchannel_layer{};
        g.channels->network.source = l.floorplan_file;  // read once the die's size is known
        g.channels->config = *s.microchannels;
        cfg.layers.push_back(std::move(g));
        continue;
      }
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
      cfg.layers.push_back(std::move(g));
    }
    if (s.microchannels && network_layers.empty())
      err << "ptsim thermal: note: -use_microchannels 1, but no layer of " << s.grid_layer_file
          << " is a network file (.csv): no coolant is modelled\n";
    for (const std::size_t k : network_layers) {
      grid_layer& g = cfg.layers[k];
      const fs::path file = lcf_relative(g.channels->network.source, s.grid_layer_file);
      try {
        g.channels->network = read_microchannel_network(file, s.grid_rows, s.grid_cols);
      } catch (const std::exception& e) {
        throw input_error(std::string(e.what()) + " (microchannel network of layer " + g.prefix + ")");
      }
      const floorplan& die = cfg.layers[0].fp;
      flp_contents flp = microchannel_floorplan(g.channels->network, g.channels->config, die.width(), die.height());
      g.fp = std::move(flp.fp);
      g.materials = std::move(flp.materials);
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
  const bool advective = m.net.has_advection();
  if (advective && s.solver == hotspot_solver::exponential)
    throw input_error("-solver exponential cannot integrate coolant flow (microchannels make the network "
                      "non-symmetric): use extrapolated_euler, backward_euler or superlu");
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
  return m.net.size() <= limit && !advective ? integration_method::exponential
                                             : integration_method::extrapolated_euler;
}

// One `ptsim thermal` run: the model, the power trace, the transient state, then the steady
// state. Throws input_error, divergence_error or std::runtime_error.
class hotspot_session {
 public:
  hotspot_session(const hotspot_settings& settings, std::ostream& out, std::ostream& err)
      : s_(settings),
        out_(out),
        err_(err),
        m_(build_model(s_, err_, sink_fp_)),
        natural_(s_.sink_fan && s_.sink_fan->natural_convection),
        trace_(s_.ptrace_file),
        column_input_(map_columns(m_, trace_)),
        input_W_(m_.inputs.size()),
        T_out_(m_.inputs.size()) {
    if (natural_) sink_T_.emplace(m_, sink_fp_, s_.package);
  }

  void run() {
    const std::size_t n_in = m_.inputs.size();
    if (!s_.ttrace_file.empty()) start_transient();
    std::vector<double> row, sum_W(n_in, 0.0);
    std::size_t rows = 0;
    while (trace_.next(row)) {
      for (std::size_t c = 0; c < row.size(); ++c) input_W_[column_input_[c]] = row[c];
      for (std::size_t i = 0; i < n_in; ++i) sum_W[i] += input_W_[i];
      if (solver_) transient_row(rows);
      ++rows;
    }
    if (rows == 0) throw input_error(trace_.source() + ": no power rows after the header (HotSpot needs at least one)");
    if (ttrace_) ttrace_->finish();
    if (grid_trace_) grid_trace_->finish();
    // Steady state from the mean power of all rows, as HotSpot.
    for (double& w : sum_W) w /= static_cast<double>(rows);
    write_steady(natural_ ? steady_natural(sum_W) : solve_steady(sum_W));
  }

 private:
  // Natural convection: r_convec for the sink's temperature, and the model rebuilt with it
  // (HotSpot repopulates its resistances the same way).
  void convect_at(double sink_K) {
    s_.package.r_convec = natural_convection_r(*s_.sink_fan, s_.package.s_sink, sink_K, s_.ambient_K);
    if (!std::isfinite(s_.package.r_convec) || !(s_.package.r_convec > 0)) {
      std::ostringstream msg;
      msg << "natural convection: no finite convection resistance for a sink at " << sink_K << " K (ambient "
          << s_.ambient_K << " K)";
      throw std::runtime_error(msg.str());
    }
    std::ostringstream quiet;  // floorplan warnings were written at the first build
    m_ = build_model(s_, quiet, sink_fp_);
  }

  void start_transient() {
    ttrace_ = std::make_unique<output>(s_.ttrace_file, out_, err_);
    write_names_line(ttrace_->stream(), trace_.names());
    if (!s_.grid_transient_file.empty()) grid_trace_ = std::make_unique<output>(s_.grid_transient_file, out_, err_);
    const integration_method method = pick_method(m_, s_);
    const bool superlu_grid = s_.solver == hotspot_solver::superlu && m_.grid_layers > 0;
    const int substeps = s_.substeps > 0 && !superlu_grid ? s_.substeps : 1;
    solver_ = std::make_unique<transient_solver>(m_.net, s_.sampling_intvl_s, substeps, s_.ambient_K, method);
    solver_->max_temperature_K = s_.max_temp_K;
    if (method == integration_method::extrapolated_euler) solver_->error_tolerance_K = s_.solver_tolerance_K;
    solver_->set_temperatures(initial_temperatures(m_, s_));
    if (s_.transient_leakage) leaky_ = std::make_unique<coupled_transient>(m_, *solver_, make_leakage_fn(m_));
  }

  // HotSpot updates r_convec before every row from the current temperatures; the solver is
  // rebuilt on the new network from the same state.
  void reconvect_transient() {
    const std::vector<double> now = solver_->temperatures();
    convect_at((*sink_T_)(m_, now));
    const double max_T = solver_->max_temperature_K, tol = solver_->error_tolerance_K;
    solver_ = std::make_unique<transient_solver>(m_.net, s_.sampling_intvl_s, solver_->substeps(), s_.ambient_K,
                                                 solver_->method());
    solver_->max_temperature_K = max_T;
    solver_->error_tolerance_K = tol;
    solver_->set_temperatures(now);
    if (leaky_) leaky_ = std::make_unique<coupled_transient>(m_, *solver_, make_leakage_fn(m_));
  }

  // One power row (0-based `row`): a step, then its line of the transient outputs.
  void transient_row(std::size_t row) {
    if (natural_) reconvect_transient();
    try {
      if (leaky_) {
        leaky_->step(input_W_.data());
      } else {
        m_.node_power(input_W_.data(), node_W_);
        solver_->step(node_W_.data());
      }
    } catch (const divergence_error& e) {
      std::ostringstream msg;
      msg << e.what() << "; that is " << m_.describe_node(e.node) << ", during power row " << row + 1 << " ("
          << trace_.source() << ":" << trace_.line() << ")";
      throw divergence_error(msg.str(), e.node, e.time_s);
    }
    const auto& T = solver_->temperatures();
    const std::size_t n_in = m_.inputs.size();
    for (std::size_t c = 0; c < n_in; ++c) T_out_[c] = m_.probe_temperature(m_.inputs[column_input_[c]].probe, T);
    write_values_line(ttrace_->stream(), T_out_.data(), n_in, s_.decimals);
    if (grid_trace_) {
      // HotSpot labels each block with the start time of the row.
      char head[64];
      std::snprintf(head, sizeof head, "t = %f\n", static_cast<double>(row) * s_.sampling_intvl_s);
      grid_trace_->stream() << head;
      write_grid_cells(grid_trace_->stream(), T.data(), m_.grid_layers, m_.grid_rows, m_.grid_cols, s_.decimals);
    }
  }

  std::vector<double> solve_steady(const std::vector<double>& mean_W) {
    const steady_solver steady(m_.net);
    if (s_.leakage) {
      leakage_iteration it;
      it.max_temperature_K = s_.max_temp_K;
      return steady_state(m_, steady, mean_W, make_leakage_fn(m_), s_.ambient_K, it);
    }
    m_.node_power(mean_W.data(), node_W_);
    return steady.solve(node_W_, s_.ambient_K);
  }

  // Natural convection, as HotSpot: solve, update r_convec from the sink's temperature
  // (0.01 K added) and rebuild, until r_convec moves less than 0.01 K/W. The temperatures
  // are the last solve's (the rebuilt model keeps the node order).
  std::vector<double> steady_natural(const std::vector<double>& mean_W) {
    constexpr double natural_r_tolerance = 0.01, max_sink_K = 1000;
    std::vector<double> T;
    for (bool converged = false; !converged;) {
      const double r_old = s_.package.r_convec;
      T = solve_steady(mean_W);
      const double sink_K = (*sink_T_)(m_, T) + 0.01;
      if (sink_K > max_sink_K)
        throw divergence_error("natural convection: the sink passes 1000 K (too much power for this package)",
                               static_cast<std::size_t>(-1), 0);
      convect_at(sink_K);
      converged = std::abs(s_.package.r_convec - r_old) < natural_r_tolerance;
    }
    return T;
  }

  void write_steady(const std::vector<double>& T) {
    if (!s_.steady_file.empty()) {
      output f(s_.steady_file, out_, err_);
      std::string text;
      for (std::size_t p = 0; p < m_.probes.size(); ++p) {
        text += m_.probes[p].name;
        text += '\t';
        append_fixed(text, m_.probe_temperature(p, T), s_.decimals);
        text += '\n';
      }
      f.stream() << text;
      f.finish();
    }
    if (!s_.grid_steady_file.empty()) {
      output f(s_.grid_steady_file, out_, err_);
      write_grid_cells(f.stream(), T.data(), m_.grid_layers, m_.grid_rows, m_.grid_cols, s_.decimals);
      f.finish();
    }
  }

  hotspot_settings s_;  // natural convection changes s_.package.r_convec as it goes
  std::ostream& out_;
  std::ostream& err_;
  floorplan sink_fp_;
  compact_model m_;
  bool natural_;
  std::optional<sink_temperature> sink_T_;
  ptrace_reader trace_;
  std::vector<std::size_t> column_input_;
  std::unique_ptr<output> ttrace_, grid_trace_;
  std::unique_ptr<transient_solver> solver_;
  std::unique_ptr<coupled_transient> leaky_;
  std::vector<double> input_W_, node_W_, T_out_;
};

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
    hotspot_session(s, out, err).run();
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
