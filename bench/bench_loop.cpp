// bench_loop: the closed loop's cost. Runs one scenario once with the control loop's work
// on (power, thermal, governors) and recording on (timeseries, ops table): mode "record";
// the loop on and recording off: "on"; or the loop off (it only drains the activity
// ledgers, nothing recorded): "off". Prints wall and CPU seconds, simulated seconds and
// transactions. One simulation per process (the SystemC kernel cannot restart): call it
// once per mode; bench/bench_loop.sh does, several times, and takes medians.
// Usage: bench_loop SCENARIO.yaml record|on|off [KEY=VALUE]...
#include <sys/resource.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <unistd.h>

#include "ptsim/cosim/run.hpp"
#include "ptsim/scenarios/scenario.hpp"

namespace {
double cpu_s() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return static_cast<double>(u.ru_utime.tv_sec + u.ru_stime.tv_sec) +
         1e-6 * static_cast<double>(u.ru_utime.tv_usec + u.ru_stime.tv_usec);
}
}  // namespace

// libsystemc's own main() refers to sc_main; this program has its own main.
extern "C" int sc_main(int, char**) { return 2; }

int main(int argc, char** argv) {
  setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 1);
  const std::string mode = argc >= 3 ? argv[2] : "";
  if (mode != "record" && mode != "on" && mode != "off") {
    std::fprintf(stderr, "usage: bench_loop SCENARIO.yaml record|on|off [KEY=VALUE]...\n");
    return 2;
  }
  ptsim::scenarios::load_options lo;
  for (int i = 3; i < argc; ++i) lo.overrides.push_back(ptsim::scenarios::parse_override(argv[i]));
  const auto sc = ptsim::scenarios::load_scenario_file(argv[1], lo);
  ptsim::cosim::run_options o;
  o.output = std::filesystem::temp_directory_path() / ("bench_loop_" + std::to_string(getpid()) + ".h5");
  o.closed_loop = mode != "off";
  o.record = mode == "record";
  const double c0 = cpu_s();
  const auto out = ptsim::cosim::run_scenario(sc, o);
  const double cpu = cpu_s() - c0;
  std::filesystem::remove(o.output);
  std::printf("%s mode=%s sim_s=%g wall_s=%.4f cpu_s=%.4f transactions=%llu\n", sc.name.c_str(), mode.c_str(),
              out.simulated_s, out.wall_s, cpu, static_cast<unsigned long long>(out.transactions));
  return 0;
}
