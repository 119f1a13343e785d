// HotSpot 7's microchannel layers: network files, the coolant's pressure field, its advection.
#include "ptsim/thermal/microchannel.hpp"

#include <Eigen/SparseCholesky>
#include <cmath>
#include <sstream>
#include <stdexcept>

#include "ptsim/text/input_file.hpp"
#include "ptsim/thermal/rc_network.hpp"
#include "text_parse.hpp"

namespace ptsim::thermal {

namespace {

std::string cell_name(std::size_t i, std::size_t j) {
  return "row " + std::to_string(i) + ", column " + std::to_string(j);
}

// Fluid neighbours of (i, j): north, south, west, east, as HotSpot visits them.
template <class F>
void for_fluid_neighbours(const microchannel_network& n, std::size_t i, std::size_t j, F f) {
  if (i > 0 && is_fluid(n.at(i - 1, j))) f(i - 1, j);
  if (i + 1 < n.rows && is_fluid(n.at(i + 1, j))) f(i + 1, j);
  if (j > 0 && is_fluid(n.at(i, j - 1))) f(i, j - 1);
  if (j + 1 < n.cols && is_fluid(n.at(i, j + 1))) f(i, j + 1);
}

// Every connected group of fluid cells must reach an outlet: otherwise its pressure (and the
// flow) is undefined, or coolant would be pumped into a dead end.
void check_topology(const microchannel_network& n, const std::vector<std::size_t>& line_of) {
  std::size_t inlets = 0, outlets = 0;
  for (std::size_t i = 0; i < n.rows; ++i) {
    for (std::size_t j = 0; j < n.cols; ++j) {
      const channel_cell c = n.at(i, j);
      if (c != channel_cell::inlet && c != channel_cell::outlet) continue;
      (c == channel_cell::inlet ? inlets : outlets)++;
      const bool edge = i == 0 || j == 0 || i + 1 == n.rows || j + 1 == n.cols;
      if (!edge)
        throw std::runtime_error(n.source + ":" + std::to_string(line_of[i]) + ":" + std::to_string(j + 1) + ": " +
                                 (c == channel_cell::inlet ? "inlet" : "outlet") + " at " + cell_name(i, j) +
                                 " is not on the grid's edge (HotSpot's coolant enters and leaves only there)");
    }
  }
  if (inlets == 0 || outlets == 0)
    throw std::runtime_error(n.source + ": expected at least one inlet (2) and one outlet (3), found " +
                             std::to_string(inlets) + " inlets and " + std::to_string(outlets) + " outlets");
  std::vector<int> group(n.cells.size(), -1);
  std::vector<std::size_t> stack;
  int groups = 0;
  for (std::size_t start = 0; start < n.cells.size(); ++start) {
    if (!is_fluid(n.cells[start]) || group[start] >= 0) continue;
    bool outlet = false;
    group[start] = groups;
    stack.assign(1, start);
    while (!stack.empty()) {
      const std::size_t c = stack.back();
      stack.pop_back();
      outlet = outlet || n.cells[c] == channel_cell::outlet;
      for_fluid_neighbours(n, c / n.cols, c % n.cols, [&](std::size_t a, std::size_t b) {
        const std::size_t k = a * n.cols + b;
        if (group[k] < 0) {
          group[k] = groups;
          stack.push_back(k);
        }
      });
    }
    if (!outlet) {
      const std::size_t i = start / n.cols, j = start % n.cols;
      throw std::runtime_error(n.source + ":" + std::to_string(line_of[i]) + ":" + std::to_string(j + 1) +
                               ": the fluid cells connected to " + cell_name(i, j) +
                               " reach no outlet (3): the coolant there cannot flow");
    }
    ++groups;
  }
}

}  // namespace

microchannel_network parse_microchannel_network(const std::string& text, const std::string& source,
                                                std::size_t rows, std::size_t cols) {
  microchannel_network n;
  n.rows = rows;
  n.cols = cols;
  n.source = source;
  n.cells.reserve(rows * cols);
  std::vector<std::size_t> line_of;  // file line of each row
  std::istringstream in(text);
  std::vector<std::string> words;
  std::size_t line_no = 0;
  for (std::string line; std::getline(in, line);) {
    ++line_no;
    // HotSpot separates cells by commas, blanks or both.
    for (char& c : line)
      if (c == ',') c = ' ';
    detail::split_words(line, words);
    if (words.empty()) continue;
    const std::string where = source + ":" + std::to_string(line_no);
    if (line_of.size() == rows)
      throw std::runtime_error(where + ": expected " + std::to_string(rows) +
                               " rows (-grid_rows), found more");
    if (words.size() != cols)
      throw std::runtime_error(where + ": expected " + std::to_string(cols) + " cells (-grid_cols), found " +
                               std::to_string(words.size()));
    for (std::size_t j = 0; j < words.size(); ++j) {
      int v = 0;
      if (!detail::parse_int(words[j], v) || v < -1 || v > 3)
        throw std::runtime_error(where + ":" + std::to_string(j + 1) +
                                 ": expected a cell type (-1 TSV, 0 wall, 1 fluid, 2 inlet, 3 outlet), found '" +
                                 words[j] + "'");
      n.cells.push_back(static_cast<channel_cell>(v));
    }
    line_of.push_back(line_no);
  }
  if (line_of.size() != rows)
    throw std::runtime_error(source + ": expected " + std::to_string(rows) + " rows (-grid_rows), found " +
                             std::to_string(line_of.size()));
  check_topology(n, line_of);
  return n;
}

microchannel_network read_microchannel_network(const std::filesystem::path& path, std::size_t rows,
                                               std::size_t cols) {
  return parse_microchannel_network(text::read_input_file_or_throw(path, "microchannel network file"),
                                    path.string(), rows, cols);
}

double hydraulic_conductance(const microchannel_config& c, double cell_w, double cell_h, double thickness) {
  const double h = thickness, w = cell_w, L = cell_h, mu = c.coolant_visc;
  if (h == w) return 0.42229 * std::pow(h, 4) / (12 * mu * L);
  const double a = std::min(h, w), b = std::max(h, w);
  return (1 - 0.63 * (a / b)) * std::pow(a, 3) * b / (12 * mu * L);
}

std::vector<double> channel_pressures(const microchannel_network& net, const microchannel_config& c,
                                      double conductance) {
  // Unknowns: fluid cells other than outlets (at 0 Pa), and inlets when the pump has an
  // internal resistance (otherwise at the pumping pressure). Kirchhoff's law at each is
  // symmetric positive definite once every group reaches an outlet (checked when read).
  const bool ideal = c.pump_internal_res == 0;
  std::vector<double> p(net.cells.size(), 0.0);
  std::vector<Eigen::Index> unknown(net.cells.size(), -1);
  Eigen::Index n = 0;
  for (std::size_t k = 0; k < net.cells.size(); ++k) {
    const channel_cell t = net.cells[k];
    if (t == channel_cell::inlet && ideal) p[k] = c.pumping_pressure_Pa;
    else if (t == channel_cell::fluid || t == channel_cell::inlet) unknown[k] = n++;
  }
  if (n == 0) return p;
  std::vector<Eigen::Triplet<double>> a;
  Eigen::VectorXd rhs = Eigen::VectorXd::Zero(n);
  for (std::size_t k = 0; k < net.cells.size(); ++k) {
    const Eigen::Index r = unknown[k];
    if (r < 0) continue;
    double diag = 0;
    for_fluid_neighbours(net, k / net.cols, k % net.cols, [&](std::size_t i, std::size_t j) {
      const std::size_t m = i * net.cols + j;
      diag += conductance;
      if (unknown[m] >= 0) a.emplace_back(r, unknown[m], -conductance);
      else rhs[r] += conductance * p[m];
    });
    if (net.cells[k] == channel_cell::inlet) {
      // Behind the pump's internal resistance: (p - P) / R flows in.
      diag += 1 / c.pump_internal_res;
      rhs[r] += c.pumping_pressure_Pa / c.pump_internal_res;
    }
    a.emplace_back(r, r, diag);
  }
  Eigen::SparseMatrix<double> m(n, n);
  m.setFromTriplets(a.begin(), a.end());
  Eigen::SimplicialLDLT<Eigen::SparseMatrix<double>> ldlt(m);
  if (ldlt.info() != Eigen::Success)
    throw std::runtime_error(net.source + ": the coolant's pressure network has no solution");
  const Eigen::VectorXd x = ldlt.solve(rhs);
  for (std::size_t k = 0; k < net.cells.size(); ++k)
    if (unknown[k] >= 0) p[k] = x[unknown[k]];
  return p;
}

flp_contents microchannel_floorplan(const microchannel_network& net, const microchannel_config& c, double width,
                                    double height) {
  const double cw = width / static_cast<double>(net.cols), ch = height / static_cast<double>(net.rows);
  std::vector<block> blocks;
  flp_contents out;
  blocks.reserve(net.cells.size());
  out.materials.reserve(net.cells.size());
  for (std::size_t i = 0; i < net.rows; ++i) {
    for (std::size_t j = 0; j < net.cols; ++j) {
      // Row 0 is the north edge (the floorplan's top).
      blocks.push_back({"Cell_" + std::to_string(i) + "_" + std::to_string(j), cw, ch,
                        static_cast<double>(j) * cw, static_cast<double>(net.rows - i - 1) * ch});
      out.materials.push_back(is_fluid(net.at(i, j)) ? block_material{c.coolant_capac, c.coolant_res}
                                                     : block_material{c.wall_capac, c.wall_res});
    }
  }
  out.fp = floorplan(std::move(blocks));
  return out;
}

double add_coolant_flow(rc_network& net, std::size_t first_node, const microchannel_layer& layer, double cell_w,
                        double cell_h, double thickness) {
  const microchannel_network& n = layer.network;
  const microchannel_config& c = layer.config;
  const double g = hydraulic_conductance(c, cell_w, cell_h, thickness);
  const std::vector<double> p = channel_pressures(n, c, g);
  double total_in = 0;
  for (std::size_t i = 0; i < n.rows; ++i) {
    for (std::size_t j = 0; j < n.cols; ++j) {
      const channel_cell t = n.at(i, j);
      if (!is_fluid(t)) continue;
      const std::size_t k = i * n.cols + j, node = first_node + k;
      double out_flow = 0;  // net volume flow from this cell to its fluid neighbours (m^3/s)
      for_fluid_neighbours(n, i, j, [&](std::size_t a, std::size_t b) {
        const std::size_t m = a * n.cols + b;
        const double q = g * (p[k] - p[m]);
        // Heat leaves with the flow at the two cells' mean temperature (central differences).
        net.add_advection(node, first_node + m, c.coolant_capac * q / 2);
        net.add_advection(node, node, c.coolant_capac * q / 2);
        out_flow += q;
      });
      if (t == channel_cell::inlet) {
        net.add_inflow(node, c.coolant_capac * out_flow, c.inlet_temperature_K);
        total_in += out_flow;
      } else if (t == channel_cell::outlet) {
        // What flows in leaves through the outlet at the outlet cell's temperature.
        net.add_advection(node, node, -c.coolant_capac * out_flow);
      }
    }
  }
  return total_in;
}

}  // namespace ptsim::thermal
