// The co-simulation's thermal plant: phone and datacenter packages seen per block and node,
// initial states, fans.
#include <doctest/doctest.h>

#include "relative_approx.hpp"

#include <cmath>
#include <stdexcept>

#include "ptsim/thermal/plant.hpp"

using namespace ptsim::thermal;

namespace {

thermal_config phone_config_2blocks() {
  thermal_config c;
  c.kind = package_kind::phone;
  c.fp = floorplan({{"big", 0.003, 0.003, 0, 0}, {"rest", 0.003, 0.003, 0.003, 0}});
  return c;
}

// Two dies in one stream and one alone in another; isothermal sinks (k_sink huge).
thermal_config datacenter_config_3dies() {
  thermal_config c;
  c.kind = package_kind::datacenter;
  c.fp = floorplan({{"a", 0.02, 0.02, 0, 0}, {"b", 0.02, 0.02, 0.02, 0}, {"c", 0.02, 0.02, 0.04, 0}});
  c.package.s_spreader = 0.05;
  c.package.s_sink = 0.09;
  c.package.k_sink = 1e9;
  c.package.r_convec = 0.12;
  for (const char* n : {"a", "b", "c"}) c.datacenter.dies.push_back({n, {n}, c.package, std::nullopt});
  c.datacenter.streams = {{"s1", {"a", "b"}}, {"s2", {"c"}}};
  c.datacenter.fan.flow_ref_m3_per_s = 0.02;
  c.datacenter.fan.power_ref_W = 15.0;
  c.datacenter.fan_speed = 0.5;
  return c;
}

}  // namespace

TEST_CASE("phone plant: blocks first, skins reported, steady heat all leaves through the skins") {
  thermal_config c = phone_config_2blocks();
  plant p(c);
  CHECK(p.block_names() == std::vector<std::string>{"big", "rest"});
  CHECK(p.node_names() == std::vector<std::string>{"frame", "battery", "skin_front", "skin_back"});
  p.start(1e-3);
  const double P[] = {3.0, 1.0};
  p.set_steady(P);
  const double amb = c.ambient.value();
  const auto& n = p.node_temperatures_K();
  // Heat leaves only by the skins' film coefficients: h A (T_skin - T_amb) sums to 4 W.
  const double out = c.phone.h_front_W_per_m2K * c.phone.area_front_m2 * (n[2] - amb) +
                     c.phone.h_back_W_per_m2K * c.phone.area_back_m2 * (n[3] - amb);
  CHECK(out == ptsim_test::Approx(4.0).epsilon(1e-9));
  // Hotter towards the die: block > frame > skins > ambient.
  CHECK(p.block_temperatures_K()[0] > n[0]);
  CHECK(n[0] > n[3]);
  CHECK(n[3] > amb);
  // A steady start does not move under the same power.
  const auto before = p.block_temperatures_K();
  p.step(P);
  for (std::size_t b = 0; b < 2; ++b) CHECK(std::abs(p.block_temperatures_K()[b] - before[b]) < 1e-9);
}

TEST_CASE("datacenter plant: inlet downstream = upstream + Q / (m_dot c_p); fan power by the cube") {
  thermal_config c = datacenter_config_3dies();
  plant p(c);
  CHECK(p.has_fans());
  CHECK(p.node_names() == std::vector<std::string>{"a.inlet", "b.inlet", "c.inlet"});
  p.start(0.1);
  const double P[] = {300.0, 200.0, 100.0};
  p.set_steady(P);
  // By hand: rho V c_p = 1.16 kg/m^3 x (0.02 m^3/s x 0.5) x 1007 J/(kg K) = 11.6812 W/K.
  const double mcp = 1.16 * 0.02 * 0.5 * 1007.0;
  const double amb = c.ambient.value();
  const auto& in = p.node_temperatures_K();
  CHECK(in[0] == amb);
  CHECK(in[1] == ptsim_test::Approx(amb + 300.0 / mcp).epsilon(1e-12));
  CHECK(in[2] == amb);  // its own stream
  // Isothermal sink at inlet + Q r_convec(s), r_convec(s) = 0.12 s^-0.8: the die above it.
  const double r = 0.12 * std::pow(0.5, -0.8);
  CHECK(p.block_temperatures_K()[1] > in[1] + 200.0 * r);
  // Transient from the steady state: the air carries what the sinks give, unchanged.
  for (int k = 0; k < 10; ++k) p.step(P);
  CHECK(p.node_temperatures_K()[1] == ptsim_test::Approx(amb + 300.0 / mcp).epsilon(1e-9));
  // Two streams of fans at speed 0.5: 2 x 15 W x 0.125; at speed 1, 8 times that.
  CHECK(p.fan_power_W() == ptsim_test::Approx(2 * 15.0 * 0.125).epsilon(1e-12));
  p.set_fan_speed(1.0);
  CHECK(p.fan_power_W() == ptsim_test::Approx(30.0).epsilon(1e-12));
  // Faster fans: lower temperatures, and the steady preheat halves with twice the flow.
  const double hot = p.block_temperatures_K()[1];
  p.set_steady(P);
  CHECK(p.block_temperatures_K()[1] < hot - 10.0);
  CHECK(p.node_temperatures_K()[1] == ptsim_test::Approx(amb + 300.0 / (2 * mcp)).epsilon(1e-12));
  // Speed changes keep the node temperatures (only the convection changes).
  const auto T = p.block_temperatures_K();
  p.set_fan_speed(0.5);
  CHECK(p.block_temperatures_K() == T);
}

TEST_CASE("datacenter plant: every block in one die, every die in one stream") {
  thermal_config c = datacenter_config_3dies();
  c.datacenter.streams = {{"s1", {"a", "b"}}};
  CHECK_THROWS_WITH_AS(plant{c}, "die 'c' is in no stream", std::invalid_argument);
  c = datacenter_config_3dies();
  c.datacenter.streams = {{"s1", {"a", "b"}}, {"s2", {"c", "a"}}};
  CHECK_THROWS_WITH_AS(plant{c}, "die 'a' is in two streams", std::invalid_argument);
  c = datacenter_config_3dies();
  c.datacenter.dies[2].blocks = {"a"};
  CHECK_THROWS_WITH_AS(plant{c}, "block 'a' is in two dies", std::invalid_argument);
}

TEST_CASE("initial state from a .steady file: every node once, by name") {
  thermal_config c = phone_config_2blocks();
  plant p(c);
  p.start(1e-3);
  std::vector<named_temperature> lines;
  for (std::size_t i = 0; i < p.state_names().size(); ++i)
    lines.push_back({p.state_names()[i], 310.0 + static_cast<double>(i), i + 1});
  p.set_state(p.state_from(lines, "init.steady"));
  CHECK(p.block_temperatures_K() == std::vector<double>{310.0, 311.0});
  CHECK(p.node_temperatures_K()[3] == 315.0);  // skin_back, the network's 6th node
  auto missing = lines;
  missing.pop_back();
  CHECK_THROWS_WITH_AS(p.state_from(missing, "init.steady"),
                       "init.steady: no temperature for node 'skin_back' (6 nodes, each on one line)",
                       std::invalid_argument);
  auto unknown = lines;
  unknown[2].name = "lid";
  CHECK_THROWS_WITH_AS(p.state_from(unknown, "init.steady"),
                       "init.steady:3: 'lid' is not a node of the thermal model (its first node is 'big')",
                       std::invalid_argument);
  // Datacenter nodes are named <die>.<node>, as HotSpot names each die's nodes.
  plant d(datacenter_config_3dies());
  CHECK(d.state_names().front() == "a.a");
  CHECK(d.state_names()[1] == "a.iface_a");
}
