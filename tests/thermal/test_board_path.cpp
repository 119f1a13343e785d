// The secondary heat path in block form (phone board) and the sink/fan model in the
// datacenter air stream, against the grid model, closed forms and HotSpot's own numbers.
#include <doctest/doctest.h>

#include "relative_approx.hpp"

#include <cmath>
#include <map>
#include <string>
#include <utility>

#include "ptsim/thermal/datacenter_package.hpp"
#include "ptsim/thermal/grid_model.hpp"
#include "ptsim/thermal/package.hpp"
#include "ptsim/thermal/phone_package.hpp"
#include "ptsim/thermal/secondary_path.hpp"
#include "ptsim/thermal/sink_fan_model.hpp"
#include "ptsim/thermal/solver.hpp"

using namespace ptsim::thermal;

// Named for the file: the test sources are compiled together (unity build).
namespace board_path_test {

namespace {
constexpr double t_amb = 318.15;
}

TEST_CASE("block-form secondary path on equal square blocks = the grid model's on that grid") {
  // 2 x 2 blocks of 4 mm: the grid model at 2 x 2 has exactly these cells, and its secondary
  // path is HotSpot 7's (within 0.008 K, tests/thermal_cli). Every node of the block form must
  // match the grid's cell (probe) of the same name.
  const double a = 4e-3;
  const floorplan fp({{"b0", a, a, 0, 0}, {"b1", a, a, a, 0}, {"b2", a, a, 0, a}, {"b3", a, a, a, a}});
  const package_config pkg;
  const secondary_path_config sec;
  rc_network block = build_block_model(fp, pkg);
  const std::size_t first = add_block_secondary_path(block, fp, {0, 1, 2, 3}, sec);
  CHECK(first == 4 * 4 + 12);
  CHECK(block.size() == 4 * 4 + 12 + 5 * 4 + 16);
  CHECK(block.name(first) == "metal_b0");
  CHECK(block.name(block.size() - 1) == "inode_27");

  grid_config gc;
  gc.rows = gc.cols = 2;
  gc.package = pkg;
  gc.layers = default_grid_layers(fp, pkg, &sec);
  gc.map_mode = grid_map_mode::avg;
  gc.secondary = sec;
  const compact_model grid = build_grid_model(gc);

  const double P[4] = {3.0, 1.0, 0.5, 2.0};
  std::vector<double> pb(block.size(), 0.0), pg;
  for (std::size_t i = 0; i < 4; ++i) pb[i] = P[i];
  grid.node_power(P, pg);
  const auto Tb = steady_state(block, pb, t_amb);
  const auto Tg = steady_state(grid.net, pg, t_amb);
  std::map<std::string, double> grid_T;
  for (std::size_t p = 0; p < grid.probes.size(); ++p) grid_T[grid.probes[p].name] = grid.probe_temperature(p, Tg);
  std::size_t compared = 0;
  double worst = 0;
  for (std::size_t k = 0; k < block.size(); ++k) {
    const auto it = grid_T.find(block.name(k));
    REQUIRE_MESSAGE(it != grid_T.end(), block.name(k));
    worst = std::max(worst, std::abs(Tb[k] - it->second));
    ++compared;
  }
  CHECK(compared == grid_T.size());
  CHECK(worst < 1e-9);
  // The path matters: without it the silicon is hotter.
  const rc_network primary = build_block_model(fp, pkg);
  std::vector<double> pp(primary.size(), 0.0);
  for (std::size_t i = 0; i < 4; ++i) pp[i] = P[i];
  const auto Tp = steady_state(primary, pp, t_amb);
  CHECK(Tp[0] - Tb[0] > 0.01);
}

TEST_CASE("phone board: the SoC is cooler, the body unchanged (all heat still reaches the frame)") {
  phone_config c;
  const floorplan soc({{"big", 4e-3, 3e-3, 0, 0}, {"little", 3e-3, 3e-3, 4e-3, 0}, {"gpu", 7e-3, 4e-3, 0, 3e-3}});
  const phone_network plain = build_phone_network(c, soc);
  c.board = secondary_path_config{};
  c.board->r_convec_sec = 1.0;  // whole board to frame
  c.board->c_convec_sec = 0.0;
  c.board->s_pcb = 0.06;
  const phone_network board = build_phone_network(c, soc);
  CHECK(board.board_first == plain.net.size());
  CHECK(board.net.name(board.board_first) == "metal_big");
  CHECK(board.net.size() == plain.net.size() + 5 * 3 + 16);
  // No new way out to ambient: the board hands its heat to the frame.
  for (std::size_t k = plain.net.size(); k < board.net.size(); ++k) CHECK(board.net.ambient_conductance(k) == 0.0);

  const double P[3] = {2.0, 0.5, 1.5};
  std::vector<double> p0(plain.net.size(), 0.0), p1(board.net.size(), 0.0);
  for (std::size_t i = 0; i < 3; ++i) p0[plain.soc[i]] = p1[board.soc[i]] = P[i];
  const auto T0 = steady_state(plain.net, p0, t_amb), T1 = steady_state(board.net, p1, t_amb);
  for (const std::size_t n : {plain.frame, plain.battery, plain.skin_front, plain.skin_back})
    CHECK(T1[n] == ptsim_test::Approx(T0[n]).epsilon(1e-10));  // rounding of two solves
  for (std::size_t i = 0; i < 3; ++i) CHECK(T1[board.soc[i]] < T0[plain.soc[i]] - 0.1);
}

TEST_CASE("phone board, closed form: one block, package and board no wider than the die") {
  // Substrate, solder and board squares barely larger than the die: the rings carry nothing,
  // so the board path is the slabs in series plus the board's share r_board_frame s_pcb^2/A,
  // in parallel with r_soc_frame.
  const double w = 8e-3, A = w * w, P = 3.0;
  phone_config c;
  secondary_path_config s;
  s.s_sub = s.s_solder = w * (1 + 1e-9);
  s.s_pcb = w * (1 + 2e-9);
  s.r_convec_sec = 2.0;
  s.c_convec_sec = 0;
  c.board = s;
  const phone_network p = build_phone_network(c, floorplan({{"soc", w, w, 0, 0}}));
  std::vector<double> power(p.net.size(), 0.0);
  power[p.soc[0]] = P;
  const auto T = steady_state(p.net, power, t_amb);
  const double r_board = s.t_metal / (metal_layers.k * A) + s.t_c4 / (c4_underfill.k * A) + s.t_sub / (substrate.k * A) +
                         s.t_solder / (solder_balls.k * A) + s.t_pcb / (pcb.k * A) + s.r_convec_sec * s.s_pcb * s.s_pcb / A;
  const double r_par = 1.0 / (1.0 / c.r_soc_frame_K_per_W + 1.0 / r_board);
  CHECK(T[p.soc[0]] - T[p.frame] == ptsim_test::Approx(P * r_par).epsilon(1e-6));
}

TEST_CASE("air stream with a sink and fan: r_convec is HotSpot's package model's, and follows the fan's rpm") {
  // tests/thermal_cli/data: four.config's sink (s_sink 50 mm, k_sink 380) with fan.package;
  // HotSpot 7's -d wrote -r_convec 0.378882 for it.
  stream_die d;
  d.name = "cpu";
  d.fp = floorplan({{"cpu", 10e-3, 10e-3, 0, 0}});
  d.package.s_sink = 0.05;
  d.package.k_sink = 380;
  d.package.s_spreader = 0.025;
  sink_fan_config s;
  s.fin_height = 0.025;
  s.fin_width = 0.0012;
  s.channel_width = 0.0025;
  s.fan_radius = 0.025;
  s.motor_radius = 0.008;
  s.rpm = 2500;
  d.sink = s;
  air_stream_config ac;
  ac.dies.push_back(d);
  air_stream st(ac);
  CHECK(st.r_convec(0) == ptsim_test::Approx(0.378882).epsilon(2e-6));
  st.set_fan_speed(0.5);
  sink_fan_config half = s;
  half.rpm = 1250;
  CHECK(st.r_convec(0) == ptsim_test::Approx(forced_convection_r(half, 0.05, 380)).epsilon(1e-14));
  CHECK(st.r_convec(0) > 0.378882);  // a slower fan cools less
  // The die's own r_convec and the flow exponent are not used with a sink.
  d.package.r_convec = 123;
  CHECK(convection_resistance(d, 1.0) == ptsim_test::Approx(0.378882).epsilon(2e-6));
  // A motor wider than the fan gives no air: refused.
  d.sink->motor_radius = 0.03;
  CHECK_THROWS_AS(convection_resistance(d, 1.0), std::invalid_argument);
}

TEST_CASE("steady state of a large grid (conjugate gradients) = a factorised solve, within 1e-6 K") {
  // 32 x 32 with the secondary path: 9,244 nodes, solved by CG. Reference: one backward-Euler
  // step of 1e9 s from ambient, which solves (C/h + G) T = C/h T_amb + P + g_amb T_amb by the
  // LDL^T factorisation; C/h is ~1e-13 of G, so that is G's solution to far below 1e-6 K.
  const floorplan fp({{"cpu", 0.006, 0.005, 0, 0.003}, {"gpu", 0.004, 0.005, 0.006, 0.003},
                      {"mem", 0.007, 0.003, 0, 0}, {"io", 0.003, 0.003, 0.007, 0}});
  const package_config pkg;
  const secondary_path_config sec;
  grid_config gc;
  gc.rows = gc.cols = 32;
  gc.package = pkg;
  gc.layers = default_grid_layers(fp, pkg, &sec);
  gc.secondary = sec;
  const compact_model m = build_grid_model(gc);
  REQUIRE(m.net.size() > 2000);
  const double P[4] = {30, 20, 5, 3};
  std::vector<double> p;
  m.node_power(P, p);
  const auto T = steady_state(m.net, p, t_amb);
  transient_solver big(m.net, 1e9, 1, t_amb, integration_method::backward_euler);
  big.step(p.data());
  double worst = 0, hottest = 0;
  for (std::size_t i = 0; i < T.size(); ++i) {
    worst = std::max(worst, std::abs(T[i] - big.temperatures()[i]));
    hottest = std::max(hottest, T[i]);
  }
  CHECK(hottest > t_amb + 5);  // a real load
  CHECK(worst < 1e-6);
}

namespace {

// The same network under other node names: the transient solver then does not recognise a
// grid model and factorises (sparse LDL^T), which makes it the reference.
rc_network renamed(const rc_network& net) {
  rc_network out;
  for (std::size_t i = 0; i < net.size(); ++i) out.add_node("n" + std::to_string(i), net.capacitance(i));
  for (std::size_t i = 0; i < net.size(); ++i)
    if (net.ambient_conductance(i) > 0) out.connect_ambient(i, net.ambient_conductance(i));
  for (const auto& l : net.links()) out.connect(l.a, l.b, l.g);
  return out;
}

// Four blocks on a rows x cols grid with the secondary path (9 layers and the package's
// nodes), the board carrying a real share (r_convec_sec 2 K/W).
compact_model secondary_grid(int rows, int cols) {
  const floorplan fp({{"cpu", 0.006, 0.005, 0, 0.003}, {"gpu", 0.004, 0.005, 0.006, 0.003},
                      {"mem", 0.007, 0.003, 0, 0}, {"io", 0.003, 0.003, 0.007, 0}});
  const package_config pkg;
  secondary_path_config sec;
  sec.r_convec_sec = 2;
  grid_config gc;
  gc.rows = rows;
  gc.cols = cols;
  gc.package = pkg;
  gc.layers = default_grid_layers(fp, pkg, &sec);
  gc.secondary = sec;
  return build_grid_model(gc);
}

}  // namespace

TEST_CASE("secondary-path transient: layered grid solver = the factorised solve, within 1e-9 K") {
  // 16 x 16 cells, 9 layers and the package's nodes (2,332 nodes), and 15 x 21 (odd counts:
  // a middle column and row that are their own mirror images; 2,863 nodes); 40 rows of 2 ms
  // whose powers change every row, as HotSpot's runs integrate them (extrapolated Euler to
  // 0.05 K) and as backward Euler. Both solvers are direct: they agree to rounding.
  for (const auto& size : {std::pair{16, 16}, std::pair{15, 21}}) {
    const int rows = size.first, cols = size.second;
    CAPTURE(rows);
    const compact_model m = secondary_grid(rows, cols);
    REQUIRE(m.net.size() > 2000);
    const rc_network ref_net = renamed(m.net);
    for (const auto method : {integration_method::extrapolated_euler, integration_method::backward_euler}) {
      transient_solver fast(m.net, 2e-3, 1, t_amb, method), ref(ref_net, 2e-3, 1, t_amb, method);
      fast.error_tolerance_K = ref.error_tolerance_K = method == integration_method::extrapolated_euler ? 0.05 : 0.0;
      double worst = 0, hottest = 0;
      std::vector<double> p;
      for (int row = 0; row < 40; ++row) {
        const double P[4] = {30.0 + 10 * (row % 3), 20.0 - 5 * (row % 4), 5.0 + row % 2, 3};
        m.node_power(P, p);
        fast.step(p.data());
        ref.step(p.data());
        for (std::size_t i = 0; i < p.size(); ++i) {
          worst = std::max(worst, std::abs(fast.temperatures()[i] - ref.temperatures()[i]));
          hottest = std::max(hottest, fast.temperatures()[i]);
        }
      }
      CHECK(fast.linear_solver() == "layered");
      CHECK(ref.linear_solver() == "ldlt");
      CHECK(hottest > t_amb + 1);  // a real load
      CHECK(worst < 1e-9);
    }
  }
}

TEST_CASE("secondary-path steady state: layered grid solver = conjugate gradients, heat balanced") {
  // The same grids as above (even and odd cell counts). Reference: CG on the same network
  // with its nodes renamed (no grid shape), to a relative residual of 1e-13. Every watt
  // leaves through the ambient links: sum g_amb (T - T_amb) = sum P.
  for (const auto& size : {std::pair{16, 16}, std::pair{15, 21}}) {
    const int rows = size.first, cols = size.second;
    CAPTURE(rows);
    const compact_model m = secondary_grid(rows, cols);
    const double P[4] = {30.0, 20.0, 5.0, 3.0};
    std::vector<double> p;
    m.node_power(P, p);
    const steady_solver fast(m.net), ref(renamed(m.net));
    CHECK(fast.linear_solver() == "layered");
    CHECK(ref.linear_solver() == "cg");
    const auto T = fast.solve(p, t_amb), Tref = ref.solve(p, t_amb);
    double worst = 0, out = 0, in = 0;
    for (std::size_t i = 0; i < T.size(); ++i) {
      worst = std::max(worst, std::abs(T[i] - Tref[i]));
      out += m.net.ambient_conductance(i) * (T[i] - t_amb);
      in += p[i];
    }
    CHECK(T[0] > t_amb + 1);
    CHECK(worst < 1e-8);
    CHECK(out == ptsim_test::Approx(in).epsilon(1e-10));
  }
}

}  // namespace board_path_test
