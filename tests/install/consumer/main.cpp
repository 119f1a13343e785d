// Uses ptsim as a library: loads the built-in scenario, and solves a one-block
// thermal model whose steady rise is checked against R * P.
#include <cmath>
#include <iostream>

#include "ptsim/cosim/run.hpp"
#include "ptsim/scenarios/scenario.hpp"
#include "ptsim/thermal/solver.hpp"

// libsystemc refers to sc_main (its own main is not used here).
extern "C" int sc_main(int, char**) { return 2; }

int main() {
  const auto sc = ptsim::scenarios::load_scenario_text(ptsim::scenarios::builtin_default_scenario(), "built-in");
  ptsim::thermal::rc_network net;
  const auto n = net.add_node("die", 1.0);
  net.connect_ambient(n, 0.5);  // R = 2 K/W
  const auto T = ptsim::thermal::steady_state(net, {3.0}, 300.0);
  const bool ok = sc.name == "phone-camera" && std::fabs(T[0] - 306.0) < 1e-9;
  std::cout << "ptsim " << ptsim::cosim::version() << ": " << sc.name << ", steady " << T[0] << " K\n";
  return ok ? 0 : 1;
}
