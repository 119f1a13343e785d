#pragma once
// HotSpot 7's microfluidic cooling (-use_microchannels 1): a grid layer whose cells are channel
// walls or coolant, given by a network file (.csv, rows x cols cell types, row 0 at the north
// edge). The coolant's pressure field comes from a hydraulic network (Kirchhoff's law over the
// fluid cells, each link a rectangular duct, pumped between inlets and outlets); the heat the
// coolant carries is advection between neighbouring fluid cells at their mean temperature
// (central differences), coolant entering at inlets at the inlet temperature and leaving at
// outlets at the outlet cell's. Coolant and walls exchange heat through a heat transfer
// coefficient. The model of HotSpot 7's microchannel.c and temperature_grid.c
// (github.com/uvahotspot/HotSpot, commit f18831e), re-derived here, not copied.
#include <cstddef>
#include <filesystem>
#include <string>
#include <vector>

#include "ptsim/thermal/flp_format.hpp"

namespace ptsim::thermal {

class rc_network;

/// The microchannel parameters, with HotSpot 7's defaults (default_microchannel_config in its
/// microchannel.c: water coolant, silicon walls).
struct microchannel_config {
  double pumping_pressure_Pa = 5000;         ///< between inlets and outlets
  double pump_internal_res = 0;              ///< Pa s/m^3 (hydraulic); 0: ideal pump
  double inlet_temperature_K = 300;
  double coolant_capac = 4172638;            ///< J/(m^3 K), water
  double coolant_res = 1.647717911;          ///< m K/W, water (1 / 0.6069 W/(m K))
  double coolant_visc = 0.000889;            ///< Pa s, water
  double wall_capac = 1635660;               ///< J/(m^3 K), silicon
  double wall_res = 0.0076923077;            ///< m K/W, silicon
  double htc = 27132;                        ///< W/(m^2 K), coolant to wall
};

/// HotSpot's cell types (its network files' numbers).
enum class channel_cell : signed char { tsv = -1, wall = 0, fluid = 1, inlet = 2, outlet = 3 };

inline bool is_fluid(channel_cell c) {
  return c == channel_cell::fluid || c == channel_cell::inlet || c == channel_cell::outlet;
}

/// A network file: rows x cols cell types, row-major, row 0 at the north edge.
struct microchannel_network {
  std::size_t rows = 0, cols = 0;
  std::vector<channel_cell> cells;
  std::string source;  ///< the file, for messages
  channel_cell at(std::size_t i, std::size_t j) const { return cells[i * cols + j]; }
};

/// Reads a network file for a rows x cols grid: `rows` lines of `cols` integers (-1 TSV, 0
/// wall, 1 fluid, 2 inlet, 3 outlet) separated by commas and/or blanks; blank lines skipped.
/// Checks what makes the coolant's flow undefined or its heat unaccounted: every inlet and
/// outlet on the grid's edge, at least one of each, every connected group of fluid cells
/// reaching an outlet. Throws std::runtime_error "file:line[:column]: expected ..., found ...".
microchannel_network read_microchannel_network(const std::filesystem::path& path, std::size_t rows,
                                               std::size_t cols);
microchannel_network parse_microchannel_network(const std::string& text, const std::string& source,
                                                std::size_t rows, std::size_t cols);

/// Hydraulic conductance (m^3/(s Pa)) between two neighbouring fluid cells, HotSpot's hydroC:
/// a rectangular duct of width w (the cell's width), height t (the layer's thickness) and
/// length L (the cell's height, for both directions as HotSpot), laminar flow:
/// (1 - 0.63 a/b) a^3 b / (12 mu L) with a = min(w, t), b = max(w, t), and 0.42229 t^4 / (12 mu L)
/// when w == t (the square duct's exact factor).
double hydraulic_conductance(const microchannel_config& c, double cell_w, double cell_h, double thickness);

/// Pressures (Pa) of the fluid cells (0 elsewhere): outlets at 0, inlets at the pumping
/// pressure (or behind the pump's internal resistance), Kirchhoff's law in between.
std::vector<double> channel_pressures(const microchannel_network& net, const microchannel_config& c,
                                      double conductance);

/// The layer's floorplan: one block per cell, "Cell_<i>_<j>" (HotSpot's names, row-major), of
/// the coolant's material for fluid cells and the wall's otherwise, over a width x height die.
flp_contents microchannel_floorplan(const microchannel_network& net, const microchannel_config& c, double width,
                                    double height);

/// One microchannel layer of a grid model.
struct microchannel_layer {
  microchannel_network network;
  microchannel_config config;
};

/// The coolant's advection on the cells of a microchannel layer whose node (i, j) is
/// first_node + i*cols + j: for fluid cell a and fluid neighbour b, with q = g (p_a - p_b)
/// the volume flow from a to b, a's balance loses c_v q (T_a + T_b)/2; an outlet also loses
/// c_v Q_out T_outlet and an inlet gains c_v Q_in T_inlet. Returns the total coolant flow
/// (m^3/s) through the inlets.
double add_coolant_flow(rc_network& net, std::size_t first_node, const microchannel_layer& layer, double cell_w,
                        double cell_h, double thickness);

}  // namespace ptsim::thermal
