// End to end: thermal governors on phone-throttle.yaml, and a platform power cap.
#include <doctest/doctest.h>

#include "relative_approx.hpp"

#include <algorithm>
#include <numeric>

#include "ptsim/postproc/result_file.hpp"
#include "run_ptsim.hpp"

using namespace e2e;
using ptsim::postproc::result_reader;

namespace {
const std::string throttle_yaml = PTSIM_SOURCE_DIR "/scenarios/phone-throttle.yaml";

// Hottest block per sample, and the sample times.
std::pair<std::vector<double>, std::vector<double>> hottest(const result_reader& f) {
  std::size_t nb = 0;
  const auto temp = f.variable("temperature", &nb);
  const auto time = f.time();
  std::vector<double> hot(time.size());
  for (std::size_t t = 0; t < time.size(); ++t)
    hot[t] = *std::max_element(temp.begin() + static_cast<long>(t * nb), temp.begin() + static_cast<long>((t + 1) * nb));
  return {time, hot};
}
}  // namespace

// Suite "long": on the release build only (tests/e2e/CMakeLists.txt says why).
TEST_CASE("phone-throttle: overheats unmanaged; step_wise and IPA hold the control temperature" *
          doctest::test_suite("long")) {
  scratch s("throttle");
  const double control = 75.0, duration = 300.0;
  {
    // Unmanaged, the calibrated X1 leakage (4.51th power of the voltage at the top OPP,
    // doubling every 25 K) outgrows what the thin case sheds: past 80 degC within 200 s, and
    // over the full run it runs away, which stops the run (exit 1, nothing written).
    const result full = run_ptsim(s.dir, "run " + throttle_yaml + " -q -o none.h5 --set policy.thermal.governor=none"
                                         " --set 'policy.thermal.control_temp=75 degC'");
    CHECK(full.exit_code == 1);
    CHECK(full.err.find("thermal runaway: block 'cpu_big'") != std::string::npos);
    CHECK_FALSE(fs::exists(s.dir / "none.h5"));
  }
  for (const std::string gov : {"none", "step_wise", "power_allocator"}) {
    const std::string cut = gov == "none" ? " --set 'duration=200 s'" : "";
    const result r = run_ptsim(s.dir, "run " + throttle_yaml + " -q -o " + gov + ".h5 --set policy.thermal.governor=" +
                                          gov + " --set 'policy.thermal.control_temp=75 degC'" + cut);
    REQUIRE_MESSAGE(r.exit_code == 0, r.err);
    result_reader f(s.dir / (gov + ".h5"));
    const auto [time, hot] = hottest(f);
    const double peak = *std::max_element(hot.begin(), hot.end());
    const double throttled = f.summary().metrics.at("throttled_fraction").value;
    if (gov == "none") {
      CHECK(peak > 80.0);
      CHECK(throttled == 0.0);
      continue;
    }
    // Second half of the run: within 2 K of the control temperature.
    double lo = 1e9, hi = -1e9;
    for (std::size_t i = 0; i < time.size(); ++i)
      if (time[i] >= duration / 2) lo = std::min(lo, hot[i]), hi = std::max(hi, hot[i]);
    CHECK_MESSAGE(lo >= control - 2.0, gov << " dips to " << lo);
    CHECK_MESSAGE(hi <= control + 2.0, gov << " peaks at " << hi);
    CHECK(throttled > 0.0);
    CHECK(f.summary().metrics.at("throttled_fraction_thermal").value == ptsim_test::Approx(throttled));
  }
}

TEST_CASE("a platform power cap holds every 1 s average within 5% of its limit") {
  scratch s("cap");
  // Uncapped under performance first; then a cap at 75% of that average.
  REQUIRE(run_ptsim(s.dir, "run -q -o free.h5 --set policy.governor=performance --set policy.thermal.governor=none")
              .exit_code == 0);
  const double free_avg = result_reader(s.dir / "free.h5").summary().metrics.at("avg_power_W").value;
  const double limit = 0.75 * free_avg;
  const result r = run_ptsim(s.dir, "run -q -o cap.h5 --set policy.governor=performance --set policy.thermal.governor=none"
                                    " --set 'policy.power_cap.limit=" + std::to_string(limit) + " W'"
                                    " --set 'policy.power_cap.window=1 s'");
  REQUIRE_MESSAGE(r.exit_code == 0, r.err);
  result_reader f(s.dir / "cap.h5");
  std::size_t nc = 0;
  const auto power = f.variable("power", &nc);
  const auto time = f.time();
  const double rp = f.record_period_s();
  const std::size_t per_window = static_cast<std::size_t>(1.0 / rp + 0.5);
  REQUIRE(time.size() % per_window == 0);
  for (std::size_t w = 0; w < time.size() / per_window; ++w) {
    double sum = 0;
    for (std::size_t t = w * per_window; t < (w + 1) * per_window; ++t)
      for (std::size_t c = 0; c < nc; ++c) sum += power[t * nc + c];
    const double avg = sum / static_cast<double>(per_window);
    CHECK_MESSAGE(std::abs(avg - limit) <= 0.05 * limit, "window " << w << ": " << avg << " W vs " << limit << " W");
  }
  CHECK(f.summary().metrics.at("throttled_fraction_power").value > 0.0);
  CHECK(f.summary().metrics.at("throttled_fraction_thermal").value == 0.0);
}

TEST_CASE("what a limit costs: compute-bound time stretched by f_request / f_granted") {
  // Performance asks for the NPU's top clock (1200 MHz); a thermal zone set below ambient
  // steps the NPU down to its lowest (200 MHz) within a few polls and holds it there. Every
  // compute-bound second at 200 MHz would have taken 200/1200 of it at the request, so the
  // limit added (1 - 1/6) of the NPU's compute-bound time; memory-bound time is not charged.
  scratch s("cost");
  const result r = run_ptsim(s.dir, "run -q -o cost.h5 --set policy.governor=performance"
                                    " --set 'policy.thermal.control_temp=20 degC' --set 'policy.thermal.cooling=[npu]'");
  REQUIRE_MESSAGE(r.exit_code == 0, r.err);
  result_reader f(s.dir / "cost.h5");
  double npu_compute_s = 0, npu_busy_s = 0;
  for (const auto& u : f.unit_summary())
    if (u.unit == "npu") npu_compute_s = u.compute_bound_s, npu_busy_s = u.busy_s();
  REQUIRE(npu_compute_s > 0.1);
  bool seen = false;
  for (const auto& d : f.domain_summary()) {
    CAPTURE(d.domain);
    CHECK(d.time_lost_power_s == 0.0);
    if (d.domain != "npu") {
      CHECK(d.time_lost_thermal_s == 0.0);
      continue;
    }
    seen = true;
    CHECK(d.busy_s == ptsim_test::Approx(npu_busy_s));
    // The ramp down (one OPP per 100 ms poll, 4 steps) is under 3% of the 20 s run.
    const double expected = npu_compute_s * (1.0 - 200.0 / 1200.0);
    CHECK(d.time_lost_thermal_s <= expected * (1 + 1e-9));
    CHECK(d.time_lost_thermal_s >= 0.95 * expected);
  }
  CHECK(seen);
  // The report shows it.
  const result rep = run_ptsim(s.dir, "report cost.h5");
  CHECK(rep.out.find("what the limits cost") != std::string::npos);
}
