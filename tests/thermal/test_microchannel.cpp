// Microchannel layers (HotSpot 7's -use_microchannels 1): network files, the coolant's flow,
// and the grid model's heat balance with coolant advection.
#include <doctest/doctest.h>

#include "relative_approx.hpp"

#include <cmath>
#include <numeric>
#include <stdexcept>

#include "fixtures.hpp"
#include "ptsim/thermal/grid_model.hpp"
#include "ptsim/thermal/microchannel.hpp"
#include "ptsim/thermal/solver.hpp"

using namespace ptsim::thermal;

namespace {


// A die of 10 x 4 cells of 0.2 mm (2 mm x 0.8 mm): one heater block on top, a channel layer
// with one straight channel along row 1 (inlet west, outlet east), a silicon base. scale > 1
// multiplies the cells (same die, same channel width in cells: one channel along row 1) so
// that the network passes 2000 nodes, where the solvers switch to BiCGSTAB.
constexpr std::size_t rows = 4, cols = 10;
constexpr double W = 2e-3, H = 0.8e-3, t_ch = 100e-6;
const char* const one_channel =
    "0 0 0 0 0 0 0 0 0 0\n"
    "2 1 1 1 1 1 1 1 1 3\n"
    "0 0 0 0 0 0 0 0 0 0\n"
    "0 0 0 0 0 0 0 0 0 0\n";

std::string channel_text(std::size_t r, std::size_t c) {
  std::string t;
  for (std::size_t i = 0; i < r; ++i) {
    for (std::size_t j = 0; j < c; ++j) {
      const char cell = i != 1 ? '0' : j == 0 ? '2' : j + 1 == c ? '3' : '1';
      t += cell;
      t += j + 1 < c ? ' ' : '\n';
    }
  }
  return t;
}

grid_config channel_stack(const microchannel_config& mc, std::size_t scale = 1) {
  grid_config cfg;
  cfg.rows = rows * scale;
  cfg.cols = cols * scale;
  cfg.per_block_materials = true;
  grid_layer heater;
  heater.fp = floorplan({{"heater", W, H, 0, 0}});
  heater.power = true;
  heater.conductivity = 130;
  heater.heat_capacity = 1.6303e6;
  heater.thickness = 50e-6;
  heater.prefix = "layer_0_";
  grid_layer chan;
  chan.channels = microchannel_layer{
      parse_microchannel_network(channel_text(cfg.rows, cfg.cols), "one.csv", cfg.rows, cfg.cols), mc};
  flp_contents f = microchannel_floorplan(chan.channels->network, mc, W, H);
  chan.fp = f.fp;
  chan.materials = f.materials;
  chan.conductivity = 130;
  chan.heat_capacity = 1.6303e6;
  chan.thickness = t_ch;
  chan.prefix = "layer_1_";
  grid_layer base = heater;
  base.power = false;
  base.thickness = 150e-6;
  base.prefix = "layer_2_";
  cfg.layers = {heater, chan, base};
  return cfg;
}

}  // namespace

TEST_CASE("hydraulic conductance: HotSpot's rectangular-duct formula and its square-duct factor") {
  microchannel_config c;
  c.coolant_visc = 1e-3;
  // w = 200 um wide, t = 100 um high, L = 200 um: (1 - 0.63 * 0.5) (100 um)^3 (200 um) / (12 mu L).
  const double g = hydraulic_conductance(c, 200e-6, 200e-6, 100e-6);
  CHECK(g == ptsim_test::Approx((1 - 0.315) * 1e-12 * 200e-6 / (12 * 1e-3 * 200e-6)).epsilon(1e-12));
  // Swapping width and height gives the same duct.
  CHECK(hydraulic_conductance(c, 100e-6, 200e-6, 200e-6) == ptsim_test::Approx(g).epsilon(1e-12));
  // Square: 0.42229 t^4 / (12 mu L).
  CHECK(hydraulic_conductance(c, 100e-6, 300e-6, 100e-6) ==
        ptsim_test::Approx(0.42229 * 1e-16 / (12 * 1e-3 * 300e-6)).epsilon(1e-12));
}

TEST_CASE("a straight channel: pressure falls linearly, the flow is P g / (links), as Kirchhoff's law") {
  const microchannel_network n = parse_microchannel_network(one_channel, "one.csv", rows, cols);
  microchannel_config c;
  c.pumping_pressure_Pa = 9000;
  const double g = 2e-11;
  const std::vector<double> p = channel_pressures(n, c, g);
  // 10 cells in series, 9 links: each drops 1000 Pa.
  for (std::size_t j = 0; j < cols; ++j) CHECK(p[cols + j] == ptsim_test::Approx(9000 - 1000.0 * j).epsilon(1e-12));
  CHECK(p[0] == 0);  // walls carry no pressure
  // A pump with internal resistance R in series: Q = P / (R + 9/g).
  c.pump_internal_res = 9 / g;
  const std::vector<double> q = channel_pressures(n, c, g);
  CHECK(g * (q[cols] - q[cols + 1]) == ptsim_test::Approx(9000 / (2 * 9 / g)).epsilon(1e-10));
}

TEST_CASE("network files: every malformed line names file:line(:column)") {
  auto err = [](const std::string& text, std::size_t r = 2, std::size_t c = 3) {
    return error_of([&] { parse_microchannel_network(text, "n.csv", r, c); });
  };
  CHECK(err("2,1,3\n0,0\n") == "n.csv:2: expected 3 cells (-grid_cols), found 2");
  CHECK(err("2,1,3\n0,x,0\n") ==
        "n.csv:2:2: expected a cell type (-1 TSV, 0 wall, 1 fluid, 2 inlet, 3 outlet), found 'x'");
  CHECK(err("2,1,3\n0,4,0\n").find("n.csv:2:2: expected a cell type") == 0);
  CHECK(err("2,1,3\n") == "n.csv: expected 2 rows (-grid_rows), found 1");
  CHECK(err("2,1,3\n0,0,0\n0,0,0\n") == "n.csv:3: expected 2 rows (-grid_rows), found more");
  CHECK(err("0,1,1\n0,1,1\n") == "n.csv: expected at least one inlet (2) and one outlet (3), found 0 inlets and 0 outlets");
  // A channel closed at one end: the coolant cannot leave.
  CHECK(err("2,1,0\n0,0,3\n") == "n.csv:1:1: the fluid cells connected to row 0, column 0 reach no outlet (3): the "
                                 "coolant there cannot flow");
  // Inlets and outlets only on the grid's edge.
  CHECK(err("0,0,0\n2,2,3\n0,0,0\n", 3, 3).find("n.csv:2:2: inlet at row 1, column 1 is not on the grid's edge") == 0);
  // Commas, blanks, TSVs (-1, a wall) and blank lines are fine.
  const microchannel_network ok = parse_microchannel_network("\n2, 1 ,3\n\n-1 0 0\n", "n.csv", 2, 3);
  CHECK(ok.at(0, 1) == channel_cell::fluid);
  CHECK(ok.at(1, 0) == channel_cell::tsv);
}

TEST_CASE("steady state with a coolant: the power leaves through the sink and the coolant, c_v Q (T_out - T_in)") {
  microchannel_config mc;
  mc.inlet_temperature_K = 295;
  for (const std::size_t scale : {1, 4}) {  // 1: sparse LU; 4: 5 x 1600 + 12 nodes, BiCGSTAB
    CAPTURE(scale);
    const grid_config cfg = channel_stack(mc, scale);
    const compact_model m = build_grid_model(cfg);
    REQUIRE(m.net.has_advection());
    const double amb = 310, watts = 2.0;
    std::vector<double> p(m.net.size(), 0.0);
    const double in_W = watts;
    m.node_power(&in_W, p);
    const std::vector<double> T = steady_state(m.net, p, amb);
    // Heat to ambient through the package, and heat the coolant takes away.
    double to_ambient = 0;
    for (std::size_t k = 0; k < m.net.size(); ++k) to_ambient += m.net.ambient_conductance(k) * (T[k] - amb);
    const std::size_t r = cfg.rows, c = cfg.cols;
    const double g = hydraulic_conductance(mc, W / static_cast<double>(c), H / static_cast<double>(r), t_ch);
    const double Q = mc.pumping_pressure_Pa * g / static_cast<double>(c - 1);  // c - 1 links in series
    const std::size_t inlet = r * c + c, outlet = inlet + c - 1;  // layer 1, row 1, first and last column
    const double to_coolant = mc.coolant_capac * Q * (T[outlet] - mc.inlet_temperature_K);
    CHECK(to_coolant > 0.05 * watts);  // the coolant takes a real share (not a vanishing term)
    CHECK(to_ambient + to_coolant == ptsim_test::Approx(watts).epsilon(1e-9));
    // The coolant warms from inlet to outlet.
    CHECK(T[outlet] > T[inlet]);
  }
}

TEST_CASE("no power and the coolant entering at ambient: every node stays at ambient (steady and transient)") {
  microchannel_config mc;
  mc.inlet_temperature_K = 318.15;
  const compact_model m = build_grid_model(channel_stack(mc));
  const std::vector<double> zero(m.net.size(), 0.0);
  for (double t : steady_state(m.net, zero, 318.15)) CHECK(t == ptsim_test::Approx(318.15).epsilon(1e-12));
  transient_solver s(m.net, 1e-3, 1, 318.15, integration_method::extrapolated_euler);
  s.set_temperatures(std::vector<double>(m.net.size(), 318.15));
  s.step(zero.data());
  for (double t : s.temperatures()) CHECK(t == ptsim_test::Approx(318.15).epsilon(1e-12));
  CHECK_THROWS_AS(transient_solver(m.net, 1e-3, 1, 318.15, integration_method::exponential), std::invalid_argument);
}

TEST_CASE("a transient with constant power and coolant settles at the steady state") {
  microchannel_config mc;
  mc.inlet_temperature_K = 300;
  for (const std::size_t scale : {1, 4}) {  // sparse LU, then BiCGSTAB per step
    CAPTURE(scale);
    const compact_model m = build_grid_model(channel_stack(mc, scale));
    std::vector<double> p(m.net.size(), 0.0);
    const double in_W = 1.5;
    m.node_power(&in_W, p);
    const std::vector<double> steady = steady_state(m.net, p, 305);
    transient_solver s(m.net, 10.0, 4, 305, integration_method::backward_euler);
    s.set_temperatures(std::vector<double>(m.net.size(), 305));
    for (int k = 0; k < 200; ++k) s.step(p.data());  // 2000 s: many times the sink's time constant
    for (std::size_t k = 0; k < steady.size(); ++k)
      CHECK(s.temperatures()[k] == ptsim_test::Approx(steady[k]).epsilon(1e-9));
  }
}

TEST_CASE("grid model: microchannel layers need per-block materials, a matching network, not the first layer") {
  microchannel_config mc;
  grid_config cfg = channel_stack(mc);
  cfg.per_block_materials = false;
  CHECK(error_of([&] { build_grid_model(cfg); }).find("needs per-block materials") != std::string::npos);
  cfg = channel_stack(mc);
  cfg.rows = 8;
  CHECK(error_of([&] { build_grid_model(cfg); }).find("has 4 x 10 cells, the grid 8 x 10") != std::string::npos);
  cfg = channel_stack(mc);
  std::swap(cfg.layers[0], cfg.layers[1]);
  CHECK(error_of([&] { build_grid_model(cfg); }).find("cannot be the first layer") != std::string::npos);
}
