// Phone and datacenter package builders against closed forms.
#include <doctest/doctest.h>

#include "relative_approx.hpp"

#include <cmath>

#include "fixtures.hpp"
#include "ptsim/thermal/datacenter_package.hpp"
#include "ptsim/thermal/phone_package.hpp"
#include "ptsim/thermal/solver.hpp"

using namespace ptsim::thermal;

// Named for the file: the test sources are compiled together (unity build).
namespace packages_test {

namespace {
constexpr double t_amb = 298.15;
}

TEST_CASE("phone: steady temperatures by series and parallel resistances") {
  phone_config c;
  c.r_battery_back_K_per_W = 0;  // battery only on the frame: it carries no steady heat
  const phone_network p = build_phone_network(c);
  const double P = 4.0;
  std::vector<double> power(p.net.size(), 0.0);
  power[p.soc[0]] = P;
  const auto T = steady_state(p.net, power, t_amb);
  const double r_front = c.r_frame_front_K_per_W + 1 / (c.h_front_W_per_m2K * c.area_front_m2);
  const double r_back = c.r_frame_back_K_per_W + 1 / (c.h_back_W_per_m2K * c.area_back_m2);
  const double frame = t_amb + P / (1 / r_front + 1 / r_back);
  CHECK(T[p.frame] == ptsim_test::Approx(frame).epsilon(1e-12));
  CHECK(T[p.soc[0]] == ptsim_test::Approx(frame + P * c.r_soc_frame_K_per_W).epsilon(1e-12));
  CHECK(T[p.battery] == ptsim_test::Approx(frame).epsilon(1e-12));
  const double q_front = (frame - t_amb) / r_front;
  CHECK(T[p.skin_front] == ptsim_test::Approx(t_amb + q_front / (c.h_front_W_per_m2K * c.area_front_m2)).epsilon(1e-12));
  CHECK(p.net.name(p.skin_back) == "skin_back");
}

TEST_CASE("phone: a floorplan SoC heats the body like the lumped one; energy is conserved") {
  const phone_config c;  // battery also touches the back cover
  const floorplan soc({{"big", 2e-3, 2e-3, 0, 0}, {"little", 2e-3, 2e-3, 2e-3, 0}});
  const phone_network lumped = build_phone_network(c), blocks = build_phone_network(c, soc);
  std::vector<double> pl(lumped.net.size(), 0.0), pb(blocks.net.size(), 0.0);
  pl[lumped.soc[0]] = 3.0;
  pb[blocks.soc[0]] = 1.5;
  pb[blocks.soc[1]] = 1.5;
  const auto tl = steady_state(lumped.net, pl, t_amb), tb = steady_state(blocks.net, pb, t_amb);
  CHECK(tb[blocks.frame] == ptsim_test::Approx(tl[lumped.frame]).epsilon(1e-12));
  CHECK(tb[blocks.skin_back] == ptsim_test::Approx(tl[lumped.skin_back]).epsilon(1e-12));
  // Equal blocks at equal power: no lateral flow, each block at the lumped SoC temperature.
  CHECK(tb[blocks.soc[0]] == ptsim_test::Approx(tl[lumped.soc[0]]).epsilon(1e-12));
  // A minute of 3 W: heat in = heat stored + heat lost through the skins.
  transient_solver s(lumped.net, 0.5, 1, t_amb, integration_method::exponential);
  for (int k = 0; k < 120; ++k) s.step(pl.data());
  double stored = 0;
  for (std::size_t i = 0; i < lumped.net.size(); ++i) stored += lumped.net.capacitance(i) * (s.temperatures()[i] - t_amb);
  CHECK(stored + s.ambient_energy_J() == ptsim_test::Approx(3.0 * 60).epsilon(1e-9));
}

TEST_CASE("air stream: preheated inlets, r_convec from the fan speed, fan power by the cube") {
  air_stream_config cfg;
  for (const char* name : {"gpu0", "gpu1"}) {
    stream_die d;
    d.name = name;
    d.fp = floorplan({{"die", 0.02, 0.02, 0, 0}});
    d.package.s_spreader = 0.05;
    d.package.s_sink = 0.09;
    d.package.k_sink = 1e9;  // isothermal sink: its temperature is inlet + P r_convec
    d.package.r_convec = 0.12;
    cfg.dies.push_back(d);
  }
  cfg.fan_speed = 0.5;
  const air_stream a(cfg);
  const double mcp = a.air_capacity_rate_W_per_K();
  CHECK(mcp == ptsim_test::Approx(1.16 * 0.02 * 0.5 * 1007));
  CHECK(a.fan_power_W() == ptsim_test::Approx(15.0 / 8));
  const double r = 0.12 * std::pow(0.5, -0.8);
  std::vector<double> inlets;
  const auto T = a.steady({{300.0}, {200.0}}, &inlets);
  CHECK(inlets[0] == cfg.inlet_K);
  CHECK(inlets[1] == ptsim_test::Approx(cfg.inlet_K + 300.0 / mcp).epsilon(1e-12));
  // Sink node of die k (the 4th node of a one-block model).
  CHECK(std::abs(T[0][3] - (inlets[0] + 300.0 * r)) < 1e-5);
  CHECK(std::abs(T[1][3] - (inlets[1] + 200.0 * r)) < 1e-5);
  // The downstream die runs hotter than it would on fresh air by exactly the preheat.
  const auto alone = steady_state(a.model(1).net, std::vector<double>{200, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0},
                                  cfg.inlet_K);
  CHECK(std::abs(T[1][0] - alone[0] - 300.0 / mcp) < 1e-5);  // k_sink 1e9: G resolves ~1e-6 K
}

TEST_CASE("air stream transient: reaches the steady state; the air carries what the sinks give") {
  air_stream_config cfg;
  for (int k = 0; k < 3; ++k) {
    stream_die d;
    d.name = "cpu" + std::to_string(k);
    d.fp = test::two_by_two();
    d.package.r_convec = 0.3;
    d.package.c_convec = 20.0;
    cfg.dies.push_back(d);
  }
  air_stream a(cfg);
  const std::vector<std::vector<double>> P{{10, 10, 5, 5}, {20, 0, 0, 20}, {1, 2, 3, 4}};
  const auto want = a.steady(P);
  a.start_transient(5.0);
  for (int k = 0; k < 400; ++k) a.step(P);
  for (std::size_t d = 0; d < 3; ++d)
    for (std::size_t i = 0; i < want[d].size(); ++i) CHECK(a.temperatures(d)[i] == ptsim_test::Approx(want[d][i]).epsilon(1e-9));
  CHECK(a.heat_to_air_W()[1] == ptsim_test::Approx(40.0).epsilon(1e-9));
  CHECK(a.inlets_K()[2] == ptsim_test::Approx(cfg.inlet_K + 70.0 / a.air_capacity_rate_W_per_K()).epsilon(1e-12));
}

}  // namespace packages_test
