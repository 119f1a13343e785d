// `ptsim thermal`: HotSpot's trace-level driver on ptsim's block and grid models.
#include "ptsim/thermal/hotspot_run.hpp"

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <ostream>
#include <memory>
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

// Networks up to this size integrate exactly (dense exponential: 2 n^2 per row, n^3 once);
// larger ones by extrapolated implicit Euler on sparse factorisations, whose rows cost less
// from a few hundred nodes on (a 16 x 16 grid has 1036).
constexpr std::size_t exponential_max_nodes = 400;

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

compact_model build_model(const hotspot_settings& s, std::ostream& err) {
  if (!s.grid) {
    const floorplan fp = read_flp(s.flp_file);
    warn_problems(fp, s.flp_file, err);
    return make_block_compact_model(fp, s.package);
  }
  grid_config cfg;
  cfg.rows = s.grid_rows;
  cfg.cols = s.grid_cols;
  cfg.package = s.package;
  cfg.map_mode = s.map_mode;
  cfg.per_block_materials = s.detailed_3d;
  if (s.grid_layer_file.empty()) {
    const floorplan fp = read_flp(s.flp_file);
    warn_problems(fp, s.flp_file, err);
    cfg.layers = default_grid_layers(fp, s.package);
  } else {
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
      g.prefix = "layer_" + std::to_string(l.number) + "_";
      cfg.layers.push_back(std::move(g));
    }
  }
  return build_grid_model(cfg);
}

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
  return m.net.size() <= exponential_max_nodes ? integration_method::exponential
                                                : integration_method::extrapolated_euler;
}

// The run itself; throws input_error, divergence_error or std::runtime_error.
void run(const hotspot_settings& s, std::ostream& out, std::ostream& err) {
  const compact_model m = build_model(s, err);
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
  const steady_solver steady(m.net);
  std::vector<double> T;
  if (s.leakage) {
    leakage_iteration it;
    it.max_temperature_K = s.max_temp_K;
    T = steady_state(m, steady, sum_W, make_leakage_fn(m), s.ambient_K, it);
  } else {
    m.node_power(sum_W.data(), node_W);
    T = steady.solve(node_W, s.ambient_K);
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
