// The grid model against closed forms, the block model, conservation laws and symmetry.
#include <doctest/doctest.h>

#include "relative_approx.hpp"

#include <algorithm>
#include <cmath>

#include "fixtures.hpp"
#include "ptsim/thermal/grid_model.hpp"
#include "ptsim/thermal/solver.hpp"

using namespace ptsim::thermal;

// Named for the file: the test sources are compiled together (unity build).
namespace grid_model_test {

namespace {
constexpr double mm = 1e-3, t_amb = 318.15;

grid_config default_grid(const floorplan& fp, std::size_t rows, std::size_t cols) {
  grid_config g;
  g.rows = rows;
  g.cols = cols;
  g.layers = default_grid_layers(fp, g.package);
  g.map_mode = grid_map_mode::avg;
  return g;
}

// Sum of the conductances linking nodes a and b (W/K).
double link_g(const rc_network& net, std::size_t a, std::size_t b) {
  double g = 0;
  for (const auto& l : net.links())
    if ((l.a == a && l.b == b) || (l.a == b && l.b == a)) g += l.g;
  return g;
}

std::vector<double> steady(const compact_model& m, const std::vector<double>& input_W) {
  std::vector<double> p;
  m.node_power(input_W.data(), p);
  return steady_state(m.net, p, t_amb);
}
}  // namespace

TEST_CASE("a 1 x 1 grid is the block model of a one-block die, node for node") {
  // Each cell is the whole die: the same vertical resistances and capacitances, and the border
  // links rx/2 + 1 * r_sp1 equal the block model's (w/2)/(k h t) + r_sp1.
  const floorplan fp({{"die", 4 * mm, 6 * mm, 0, 0}});
  const package_config pkg;
  const compact_model grid = build_grid_model(default_grid(fp, 1, 1));
  const compact_model block = make_block_compact_model(fp, pkg);
  REQUIRE(grid.net.size() == block.net.size());  // 4 + 12 nodes
  for (std::size_t k = 0; k < grid.net.size(); ++k) {
    CHECK(grid.net.capacitance(k) == ptsim_test::Approx(block.net.capacitance(k)).epsilon(1e-12));
    CHECK(grid.net.ambient_conductance(k) == ptsim_test::Approx(block.net.ambient_conductance(k)).epsilon(1e-12));
  }
  const auto tg = steady(grid, {25.0}), tb = steady(block, {25.0});
  for (std::size_t k = 0; k < tg.size(); ++k) CHECK(tg[k] == ptsim_test::Approx(tb[k]).epsilon(1e-12));
  // The probes carry HotSpot's names in HotSpot's order.
  CHECK(grid.probes[0].name == "die");
  CHECK(grid.probes[1].name == "iface_die");
  CHECK(grid.probes[3].name == "hsink_die");
  CHECK(grid.probes[15].name == "inode_11");
}

TEST_CASE("a 1 x 1 grid's transient is the block model's: exponential exactly, extrapolated Euler converging") {
  // The exponential integrator is exact for piecewise-constant power, so it must match the block
  // model to rounding. Extrapolated implicit Euler converges as sub-steps shrink (the silicon's
  // stiff modes keep it short of its third order at these step sizes), and its adaptive control
  // keeps the error near the tolerance asked for.
  const floorplan fp({{"die", 5 * mm, 3 * mm, 0, 0}});
  const compact_model grid = build_grid_model(default_grid(fp, 1, 1));
  const compact_model block = make_block_compact_model(fp, package_config{});
  const double dt = 0.02;
  auto worst_error = [&](integration_method method, int substeps, double tolerance_K = 0.0) {
    transient_solver exact(block.net, dt, 1, t_amb, integration_method::exponential);
    transient_solver s(grid.net, dt, substeps, t_amb, method);
    s.error_tolerance_K = tolerance_K;
    std::vector<double> p;
    double worst = 0;
    for (int k = 0; k < 100; ++k) {
      const double w = k < 50 ? 15.0 : 3.0;
      grid.node_power(&w, p);
      exact.step(p.data());
      s.step(p.data());
      for (std::size_t i = 0; i < p.size(); ++i)
        worst = std::max(worst, std::abs(s.temperatures()[i] - exact.temperatures()[i]));
    }
    return worst;
  };
  CHECK(worst_error(integration_method::exponential, 1) < 1e-9);
  const double e1 = worst_error(integration_method::extrapolated_euler, 1);
  const double e2 = worst_error(integration_method::extrapolated_euler, 2);
  const double e4 = worst_error(integration_method::extrapolated_euler, 4);
  const double e8 = worst_error(integration_method::extrapolated_euler, 8);
  CAPTURE(e1);
  CAPTURE(e2);
  CAPTURE(e4);
  CAPTURE(e8);
  CHECK(e2 < e1);
  CHECK(e4 < e2);
  CHECK(e8 < e4);
  CHECK(e8 < 1e-3);
  // Local error per step below 1e-3 K; over 100 dissipative steps the global error stays within
  // a few local errors.
  CHECK(worst_error(integration_method::extrapolated_euler, 1, 1e-3) < 1e-2);
}

TEST_CASE("block power is conserved over cells that do not align with blocks") {
  const compact_model m = build_grid_model(default_grid(test::three_blocks(), 7, 5));
  for (const power_input& in : m.inputs) {
    double sum = 0;
    for (const node_weight& w : in.spread) sum += w.weight;
    CHECK(sum == ptsim_test::Approx(1.0).epsilon(1e-12));
  }
  // Steady state: all the power leaves through the ambient conductances.
  const std::vector<double> p{6.0, 3.0, 1.5};
  const auto t = steady(m, p);
  double out = 0;
  for (std::size_t k = 0; k < t.size(); ++k) out += m.net.ambient_conductance(k) * (t[k] - t_amb);
  CHECK(out == ptsim_test::Approx(10.5).epsilon(1e-9));
}

TEST_CASE("a symmetric die with equal power stays symmetric") {
  const compact_model m = build_grid_model(default_grid(test::two_by_two(), 8, 8));
  const auto t = steady(m, {4.0, 4.0, 4.0, 4.0});
  double worst = 0;
  for (std::size_t l = 0; l < 4; ++l)
    for (std::size_t i = 0; i < 8; ++i)
      for (std::size_t j = 0; j < 8; ++j) {
        const double a = t[l * 64 + i * 8 + j];
        worst = std::max({worst, std::abs(a - t[l * 64 + (7 - i) * 8 + j]), std::abs(a - t[l * 64 + i * 8 + (7 - j)]),
                          std::abs(a - t[l * 64 + j * 8 + i])});
      }
  CHECK(worst < 1e-9);
}

TEST_CASE("grid resolution convergence: block temperatures settle as cells shrink") {
  // Probe the hottest block of an uneven die at 8, 16, 32 and 64 cells a side (any size
  // works; these are powers of two only so that each grid refines the last).
  std::vector<double> big;
  for (std::size_t n : {8u, 16u, 32u, 64u}) {
    const compact_model m = build_grid_model(default_grid(test::three_blocks(), n, n));
    const auto t = steady(m, {6.0, 3.0, 1.0});
    big.push_back(m.probe_temperature(m.inputs[0].probe, t));
  }
  const double d1 = std::abs(big[1] - big[0]), d2 = std::abs(big[2] - big[1]), d3 = std::abs(big[3] - big[2]);
  CAPTURE(d1);
  CAPTURE(d2);
  CAPTURE(d3);
  CHECK(d2 < d1);
  CHECK(d3 < d2);
  CHECK(d3 < 0.05);
}

TEST_CASE("grid transient: energy balance to 1e-9 and the steady state as its limit") {
  const compact_model m = build_grid_model(default_grid(test::three_blocks(), 6, 9));
  std::vector<double> p;
  for (auto method : {integration_method::backward_euler, integration_method::extrapolated_euler}) {
    CAPTURE(static_cast<int>(method));
    const double dt = 0.01;
    transient_solver s(m.net, dt, 2, t_amb, method);
    double e_in = 0;
    for (int k = 0; k < 100; ++k) {
      const std::vector<double> in{2.0 + std::sin(0.3 * k), 5.0 * (k % 7 == 0), 1.0};
      m.node_power(in.data(), p);
      s.step(p.data());
      for (double w : p) e_in += w * dt;
    }
    double stored = 0;
    for (std::size_t i = 0; i < m.net.size(); ++i) stored += m.net.capacitance(i) * (s.temperatures()[i] - t_amb);
    CHECK(std::abs(e_in - stored - s.ambient_energy_J()) <= 1e-9 * e_in);
  }
  // Hold the power: after many package time constants the transient is the steady state.
  const std::vector<double> in{6.0, 3.0, 1.0};
  m.node_power(in.data(), p);
  const auto ts = steady_state(m.net, p, t_amb);
  transient_solver s(m.net, 100.0, 1, t_amb, integration_method::extrapolated_euler);
  for (int k = 0; k < 60; ++k) s.step(p.data());
  double worst = 0;
  for (std::size_t i = 0; i < ts.size(); ++i) worst = std::max(worst, std::abs(s.temperatures()[i] - ts[i]));
  CHECK(worst < 1e-6);
}

TEST_CASE("lateral resistances: geometric, or HotSpot's swapped ones on non-square cells") {
  // One row of two cells over a 4 mm x 1 mm die: cw = 2 mm, ch = 1 mm.
  grid_config g = default_grid(floorplan({{"die", 4 * mm, 1 * mm, 0, 0}}), 1, 2);
  const double k = g.package.k_chip, t = g.package.t_chip, cw = 2 * mm, ch = 1 * mm;
  g.hotspot_lateral = false;
  CHECK(link_g(build_grid_model(g).net, 0, 1) == ptsim_test::Approx(k * ch * t / cw).epsilon(1e-12));
  g.hotspot_lateral = true;  // HotSpot 7: ry = ch/(k cw t) between east-west neighbours
  CHECK(link_g(build_grid_model(g).net, 0, 1) == ptsim_test::Approx(k * cw * t / ch).epsilon(1e-12));
  // Square cells: the two agree.
  grid_config sq = default_grid(floorplan({{"die", 4 * mm, 2 * mm, 0, 0}}), 1, 2);
  sq.hotspot_lateral = false;
  const double a = link_g(build_grid_model(sq).net, 0, 1);
  sq.hotspot_lateral = true;
  CHECK(link_g(build_grid_model(sq).net, 0, 1) == ptsim_test::Approx(a).epsilon(1e-14));
}

TEST_CASE("map modes: avg, min, max and centre cells, as HotSpot") {
  // A 2 x 2 mm block in the middle of a 4 x 4 mm die on a 4 x 4 grid covers cells (1..2, 1..2).
  const floorplan fp({{"mid", 2 * mm, 2 * mm, 1 * mm, 1 * mm},
                      {"w", 1 * mm, 4 * mm, 0, 0}, {"e", 1 * mm, 4 * mm, 3 * mm, 0},
                      {"n", 2 * mm, 1 * mm, 1 * mm, 3 * mm}, {"s", 2 * mm, 1 * mm, 1 * mm, 0}});
  std::vector<double> T(16 * 4 + 12, 0.0);
  for (std::size_t c = 0; c < 16; ++c) T[c] = 300.0 + static_cast<double>(c);  // layer 0: 300 + index
  // Cells of "mid": 5, 6, 9, 10 -> avg 307.5, min 305, max 310; centre: mean of the 4.
  for (auto [mode, want] : {std::pair{grid_map_mode::avg, 307.5}, {grid_map_mode::min, 305.0},
                            {grid_map_mode::max, 310.0}, {grid_map_mode::center, 307.5}}) {
    grid_config g = default_grid(fp, 4, 4);
    g.map_mode = mode;
    const compact_model m = build_grid_model(g);
    CHECK(m.probe_temperature(0, T) == ptsim_test::Approx(want));
  }
  // Centre of the 1 x 4 cell column "w" (rows 0..3, an even count): rows 1 and 2 of column 0.
  grid_config g = default_grid(fp, 4, 4);
  g.map_mode = grid_map_mode::center;
  CHECK(build_grid_model(g).probe_temperature(1, T) == ptsim_test::Approx((304.0 + 308.0) / 2));
}

TEST_CASE("layers of unequal extent share one grid over their union") {
  grid_config g;
  g.rows = 8;
  g.cols = 10;
  grid_layer small;
  small.fp = floorplan({{"chiplet", 2 * mm, 2 * mm, 3 * mm, 2 * mm}});
  small.power = true;
  small.prefix = "layer_0_";
  grid_layer base = small;
  base.fp = floorplan({{"base", 10 * mm, 8 * mm, 0, 0}});
  base.power = false;
  base.prefix = "layer_1_";
  g.layers = {small, base};
  g.map_mode = grid_map_mode::avg;
  const compact_model m = build_grid_model(g);
  // 1 mm cells; the chiplet spans x 3..5 mm (columns 3, 4) and y 2..4 mm, i.e. rows 4, 5
  // counted from the north edge at y = 8 mm.
  std::vector<std::size_t> cells;
  for (const node_weight& w : m.probes[0].nodes) cells.push_back(w.node);
  std::sort(cells.begin(), cells.end());
  CHECK(cells == std::vector<std::size_t>{43, 44, 53, 54});
  REQUIRE(m.inputs.size() == 1);
  CHECK(m.inputs[0].spread.size() == 4);
}

TEST_CASE("per-block materials (detailed_3D): locked cells, mixed cells, HotSpot's vertical links") {
  // Layer 0 is split 50/50 inside its only column of cells; layer 1 is plain.
  const double t0 = 0.1 * mm, t1 = 0.2 * mm;
  grid_config g;
  g.rows = 1;
  g.cols = 2;
  grid_layer top;
  top.fp = floorplan({{"a", 1.5 * mm, 1 * mm, 0, 0}, {"b", 0.5 * mm, 1 * mm, 1.5 * mm, 0}});
  top.materials = {block_material{2e6, 0.01}, block_material{3e6, 0.05}};
  top.thickness = t0;
  top.power = true;
  grid_layer bottom;
  bottom.fp = floorplan({{"x", 2 * mm, 1 * mm, 0, 0}});
  bottom.thickness = t1;
  bottom.conductivity = 50;
  g.layers = {top, bottom};
  g.per_block_materials = true;
  const compact_model m = build_grid_model(g);
  const double area = 1 * mm * 1 * mm;
  // Cell 0 lies inside "a": it takes a's conductivity (100 W/(m K)) and heat capacity.
  // Layer 0's node sits at its top and the next layer's at its centre: R = t0/(k A) + t1/(2 k1 A).
  CHECK(link_g(m.net, 0, 2) == ptsim_test::Approx(1.0 / (t0 / (100 * area) + t1 / (2 * 50 * area))));
  CHECK(m.net.capacitance(0) == ptsim_test::Approx(0.333 * 2e6 * t0 * area));
  // Cell 1 is half "a", half "b": occupancy-weighted parallel conductance (100/2 + 20/2).
  CHECK(link_g(m.net, 1, 3) == ptsim_test::Approx(1.0 / (t0 / (60 * area) + t1 / (2 * 50 * area))));
}

}  // namespace grid_model_test
