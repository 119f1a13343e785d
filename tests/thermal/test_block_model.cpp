// The HotSpot block model (shared/reference/hotspot-model.md) against hand computations.
#include <doctest/doctest.h>

#include "relative_approx.hpp"

#include <cmath>
#include <string>

#include "fixtures.hpp"
#include "ptsim/thermal/package.hpp"
#include "ptsim/thermal/solver.hpp"

using namespace ptsim::thermal;
using test::mm;

namespace {
constexpr double c_factor = 0.333;  // HotSpot's lumping factor

// Total conductance of the links between two named nodes (W/K).
double link_g(const rc_network& net, const std::string& a, const std::string& b) {
  double g = 0.0;
  for (const auto& l : net.links()) {
    const auto& na = net.name(l.a);
    const auto& nb = net.name(l.b);
    if ((na == a && nb == b) || (na == b && nb == a)) g += l.g;
  }
  return g;
}

double sum_caps(const rc_network& net, std::size_t from, std::size_t to) {
  double c = 0.0;
  for (std::size_t i = from; i < to; ++i) c += net.capacitance(i);
  return c;
}
}  // namespace

TEST_CASE("block model: 4n + 12 nodes in HotSpot's order and names") {
  const rc_network net = build_block_model(test::three_blocks(), package_config{});
  REQUIRE(net.size() == 4 * 3 + 12);
  CHECK(net.name(0) == "big");
  CHECK(net.name(2) == "npu");
  CHECK(net.name(3) == "iface_big");
  CHECK(net.name(6) == "hsp_big");
  CHECK(net.name(11) == "hsink_npu");
  for (int k = 0; k < 12; ++k) CHECK(net.name(12 + k) == "inode_" + std::to_string(k));
}

TEST_CASE("block model: the die must fit the spreader and the spreader the sink") {
  package_config pkg;
  pkg.s_spreader = 7 * mm;  // the die is 8 mm wide
  CHECK_THROWS_AS(build_block_model(test::three_blocks(), pkg), std::invalid_argument);
  pkg = package_config{};
  pkg.s_sink = 0.02;  // smaller than the 0.03 m spreader
  CHECK_THROWS_AS(build_block_model(test::three_blocks(), pkg), std::invalid_argument);
  CHECK_THROWS_AS(build_block_model(floorplan{}, package_config{}), std::invalid_argument);
}

TEST_CASE("block model: capacitances add up layer by layer") {
  // The die, 4 spreader trapezoids and the sink quarters tile each layer:
  //   W H + 2 (s_sp + H)(s_sp - W)/4 + 2 (s_sp + W)(s_sp - H)/4 = s_sp^2, and
  //   s_sp^2 + 4 (s_sink^2 - s_sp^2)/4 = s_sink^2,
  // so every layer's capacitance is 0.333 p t (layer area), plus 0.333 c_convec in the sink.
  const package_config pkg;
  const floorplan fp = test::three_blocks();
  const double die = 8 * mm * 6 * mm;
  const rc_network net = build_block_model(fp, pkg);
  const std::size_t n = 3;
  CHECK(sum_caps(net, 0, n) == ptsim_test::Approx(c_factor * pkg.p_chip * pkg.t_chip * die).epsilon(1e-12));
  CHECK(sum_caps(net, n, 2 * n) ==
        ptsim_test::Approx(c_factor * pkg.p_interface * pkg.t_interface * die).epsilon(1e-12));
  const double spreader = sum_caps(net, 2 * n, 3 * n) + sum_caps(net, 4 * n, 4 * n + 4);
  CHECK(spreader == ptsim_test::Approx(c_factor * pkg.p_spreader * pkg.t_spreader * pkg.s_spreader *
                                    pkg.s_spreader).epsilon(1e-12));
  const double sink = sum_caps(net, 3 * n, 4 * n) + sum_caps(net, 4 * n + 4, 4 * n + 12);
  CHECK(sink == ptsim_test::Approx(c_factor * (pkg.p_sink * pkg.t_sink * pkg.s_sink * pkg.s_sink +
                                            pkg.c_convec)).epsilon(1e-12));
}

TEST_CASE("block model: convection shares add up to the whole sink") {
  // Each sink node of area A_j has g_j = 1 / (t/(k A_j) + r s^2/A_j) = A_j / (t/k + r s^2);
  // the areas sum to s^2, so sum_j g_j = 1 / (t/(k s^2) + r_convec) exactly.
  package_config pkg;
  rc_network net = build_block_model(test::three_blocks(), pkg);
  const double s2 = pkg.s_sink * pkg.s_sink;
  CHECK(net.total_ambient_conductance() ==
        ptsim_test::Approx(1.0 / (pkg.t_sink / (pkg.k_sink * s2) + pkg.r_convec)).epsilon(1e-12));
  // k_sink -> huge, thin sink: t/(k s^2) = 1e-4 / (1e9 * 3.6e-3) ~ 3e-11 K/W, so the sink to
  // ambient resistance is r_convec to ~3e-10 relative.
  pkg.k_sink = 1e9;
  pkg.t_sink = 1e-4;
  net = build_block_model(test::three_blocks(), pkg);
  CHECK(1.0 / net.total_ambient_conductance() == ptsim_test::Approx(pkg.r_convec).epsilon(1e-9));
  // Only sink nodes reach ambient.
  for (std::size_t i = 0; i < 9; ++i) CHECK(net.ambient_conductance(i) == 0.0);
}

TEST_CASE("block model: vertical and lateral links") {
  const package_config pkg;
  const rc_network net = build_block_model(test::three_blocks(), pkg);
  // big is 4 mm x 6 mm: silicon to TIM = k A / t = 100 * 24e-6 / 0.15e-3 = 16 W/K.
  CHECK(link_g(net, "big", "iface_big") == ptsim_test::Approx(16.0).epsilon(1e-12));
  // TIM to spreader = 4 * 24e-6 / 20e-6 = 4.8 W/K; spreader to sink = 400 * 24e-6 / 1e-3 = 9.6 W/K.
  CHECK(link_g(net, "iface_big", "hsp_big") == ptsim_test::Approx(4.8).epsilon(1e-12));
  CHECK(link_g(net, "hsp_big", "hsink_big") == ptsim_test::Approx(9.6).epsilon(1e-12));
  // big | gpu share the vertical edge x = 4 mm over y in [3.5, 6] mm, l = 2.5 mm; both 4 mm wide:
  // silicon R = 2 mm / (k t l) * 2 = 4e-3 / (100 * 0.15e-3 * 2.5e-3) = 106.67 K/W.
  CHECK(link_g(net, "big", "gpu") == ptsim_test::Approx(100 * 0.15e-3 * 2.5e-3 / 4e-3).epsilon(1e-12));
  // gpu over npu share a horizontal edge of 4 mm; heights 2.5 and 3.5 mm:
  // spreader R = (1.25 mm + 1.75 mm) / (400 * 1e-3 * 4e-3) = 1.875 K/W.
  CHECK(link_g(net, "hsp_gpu", "hsp_npu") == ptsim_test::Approx(1.0 / 1.875).epsilon(1e-12));
  CHECK(link_g(net, "big", "npu") > 0.0);
  CHECK(link_g(net, "gpu", "inode_0") == 0.0);  // silicon has no periphery

  package_config omit = pkg;
  omit.omit_lateral = true;
  const rc_network no_lat = build_block_model(test::three_blocks(), omit);
  CHECK(link_g(no_lat, "big", "gpu") == 0.0);
  CHECK(link_g(no_lat, "iface_big", "iface_gpu") == link_g(net, "iface_big", "iface_gpu"));
}

TEST_CASE("block model: an edge's border links share the trapezoid resistance") {
  // East edge: gpu (h = 2.5 mm) and npu (3.5 mm), both 4 mm wide. In the spreader
  //   G_E = sum k h t / (w/2) = 400 * 6e-3 * 1e-3 / 2e-3 = 1.2 W/K,
  //   r_sp1_x = ((s - W)/4) / (k (s + 3H)/4 t) = 5.5e-3 / (400 * 12e-3 * 1e-3) = 1.1458 K/W,
  // and the links (1 + r_sp1 G_E)/g_i in parallel are 1 / (1/G_E + r_sp1).
  const package_config pkg;
  const rc_network net = build_block_model(test::three_blocks(), pkg);
  const double g_e = 1.2, r_sp1 = 5.5e-3 / (400 * 12e-3 * 1e-3);
  const double expected = 1.0 / (1.0 / g_e + r_sp1);
  CHECK(link_g(net, "hsp_gpu", "inode_1") + link_g(net, "hsp_npu", "inode_1") ==
        ptsim_test::Approx(expected).epsilon(1e-12));
  // Each block's share is in proportion to its own half-block conductance: 2.5 : 3.5.
  CHECK(link_g(net, "hsp_gpu", "inode_1") / link_g(net, "hsp_npu", "inode_1") ==
        ptsim_test::Approx(2.5 / 3.5).epsilon(1e-12));
  CHECK(link_g(net, "hsp_big", "inode_1") == 0.0);  // big is not on the east edge
  // big alone on the west edge; big and gpu on the north edge, big and npu on the south one.
  CHECK(link_g(net, "hsp_big", "inode_0") > 0.0);
  CHECK(link_g(net, "hsp_gpu", "inode_2") > 0.0);
  CHECK(link_g(net, "hsp_npu", "inode_2") == 0.0);
  CHECK(link_g(net, "hsink_npu", "inode_7") > 0.0);  // sink inner S
}

TEST_CASE("block model: single block rise equals the series/parallel resistance by hand") {
  // One 10 mm x 10 mm block (A = 1e-4 m^2), default package but k_sink = 1e9 W/(m K), which
  // makes the sink isothermal: heat then leaves through t_sink/(k_sink s^2) + r_convec.
  //   R_si  = 0.15e-3 / (100 * 1e-4)         = 0.015 K/W
  //   R_tim = 20e-6 / (4 * 1e-4)             = 0.05 K/W
  //   R_sp  = 1e-3 / (400 * 1e-4)            = 0.025 K/W  (spreader straight down)
  // in parallel with four equal side paths (W = H = 10 mm, so x and y alike):
  //   1/g   = (w/2) / (k h t) = 5e-3 / (400 * 1e-2 * 1e-3) = 1.25 K/W  (half block)
  //   r_sp1 = 5e-3 / (400 * (0.03 + 0.03)/4 * 1e-3)      = 0.8333 K/W (trapezoid, lateral)
  //   r_per = 1e-3 / (400 * (0.04 * 0.02 / 4))            = 0.0125 K/W (trapezoid, down)
  //   (single block on the edge: (1 + r_sp1 g)/g = 1/g + r_sp1)
  // Rise = P (R_si + R_tim + 1 / (1/R_sp + 4 / (1/g + r_sp1 + r_per)) + t/(k s^2) + r_convec)
  //      = P * 0.18886 K/W.
  // Neglected: the sink's internal resistances, all ~ 1/k_sink: e.g. its half-block
  // 5e-3 / (1e9 * 1e-2 * 6.9e-3) = 7e-8 K/W, r_hs1 = 5e-3/(1e9 * 0.015 * 6.9e-3) = 5e-8 K/W,
  // a few 1e-7 K/W in all, i.e. ~1e-6 of 0.189 K/W; rounding with cond(G) ~ 1e8 adds
  // ~1e-8 * 300 K / 18.9 K ~ 2e-7. Tolerance: 5e-6 relative.
  package_config pkg;
  pkg.k_sink = 1e9;
  const floorplan fp({{"die", 10 * mm, 10 * mm, 0, 0}});
  const rc_network net = build_block_model(fp, pkg);
  REQUIRE(net.size() == 16);
  const double a = 1e-4;
  const double r_si = pkg.t_chip / (pkg.k_chip * a);
  const double r_tim = pkg.t_interface / (pkg.k_interface * a);
  const double r_sp = pkg.t_spreader / (pkg.k_spreader * a);
  const double half = 5e-3 / (pkg.k_spreader * 1e-2 * pkg.t_spreader);
  const double r_sp1 = 5e-3 / (pkg.k_spreader * (0.03 + 3 * 0.01) / 4 * pkg.t_spreader);
  const double r_per = pkg.t_spreader / (pkg.k_spreader * (0.04 * 0.02 / 4));
  const double r_sink = pkg.t_sink / (pkg.k_sink * pkg.s_sink * pkg.s_sink) + pkg.r_convec;
  const double r_total = r_si + r_tim + 1.0 / (1.0 / r_sp + 4.0 / (half + r_sp1 + r_per)) + r_sink;
  CHECK(r_total == ptsim_test::Approx(0.18886).epsilon(1e-4));  // the arithmetic in the comment
  const double p = 100.0, t_amb = 300.0;
  const auto t = steady_state(net, test::block_power(1, {p}), t_amb);
  CHECK((t[0] - t_amb) == ptsim_test::Approx(p * r_total).epsilon(5e-6));
}
