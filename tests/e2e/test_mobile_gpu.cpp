// End to end, read back from HDF5: the camera pipeline with GPU pre-processing on the
// Mali-G78 (mobile_gpu, a devfreq domain under simple_ondemand) feeding MobileNetV2 on the
// NPU at 30 fps (scenarios/phone-camera-gpu.yaml); and the phone-LLM's host work run as a
// task placed by EAS (scenarios/phone-llm-chat.yaml, llm.host.units).
#include <doctest/doctest.h>

#include "relative_approx.hpp"

#include <algorithm>
#include <cmath>
#include <set>

#include "ptsim/postproc/result_file.hpp"
#include "result_lookup.hpp"
#include "run_ptsim.hpp"

using namespace e2e;
using ptsim::postproc::result_reader;

namespace {
// The GPU domain's recorded frequency, one value per sample.
std::vector<double> gpu_hz(const result_reader& f) {
  std::size_t nd = 0;
  const auto hz = f.variable("frequency", &nd);
  const std::size_t g = index_of(f.coord("domain"), "gpu");
  std::vector<double> out;
  for (std::size_t i = 0; i * nd < hz.size(); ++i) out.push_back(hz[i * nd + g]);
  return out;
}
// gs101-gpu.dtsi gpu_dvfs_table_v2, the preset's GPU OPPs (MHz).
const std::set<double> gpu_opps_mhz = {202, 251, 302, 351, 400, 471, 510, 572, 701, 762, 848};
}  // namespace

TEST_CASE("camera with GPU pre-processing: simple_ondemand moves the GPU clock and meets the frame time") {
  scratch s("camera-gpu");
  const std::string scen = PTSIM_SOURCE_DIR "/scenarios/phone-camera-gpu.yaml";
  const std::string dur = " --set 'duration=3 s'";
  result r = run_ptsim(s.dir, "run " + scen + " -q -o od.h5" + dur);
  REQUIRE_MESSAGE(r.exit_code == 0, r.err);
  r = run_ptsim(s.dir, "run " + scen + " -q -o perf.h5 --set policy.devfreq_governor=performance" + dur);
  REQUIRE_MESSAGE(r.exit_code == 0, r.err);
  r = run_ptsim(s.dir, "run " + scen + " -q -o save.h5 --set policy.devfreq_governor=powersave" + dur);
  REQUIRE_MESSAGE(r.exit_code == 0, r.err);
  const result_reader od(s.dir / "od.h5"), perf(s.dir / "perf.h5"), save(s.dir / "save.h5");

  // simple_ondemand: the device starts at its top OPP and keeps it until the first 50 ms
  // polling window closes; then it scales the clock to the load (f = load x f_cur / 88 %),
  // so it spends time at OPPs strictly between the bottom and the top. (A recorded sample
  // is the period's mean clock: one with a switch in it lies between two OPPs.)
  const auto t = od.time();
  const auto hz = gpu_hz(od);
  REQUIRE(hz.size() == t.size());
  std::size_t at_middle_opp = 0;
  for (std::size_t i = 0; i < hz.size(); ++i) {
    const double mhz = hz[i] / 1e6;
    if (t[i] < 0.049) CHECK(mhz == ptsim_test::Approx(848));
    if (gpu_opps_mhz.count(std::round(mhz)) && std::abs(mhz - std::round(mhz)) < 1e-6 && mhz > 202.5 && mhz < 847.5)
      ++at_middle_opp;
  }
  CHECK(at_middle_opp > hz.size() / 4);
  // performance and powersave: the top and the bottom OPP in every sample.
  for (double f : gpu_hz(perf)) CHECK(f == ptsim_test::Approx(848e6));
  for (double f : gpu_hz(save)) CHECK(f == ptsim_test::Approx(202e6));

  // The GPU draws energy under each; more at the top clock than where simple_ondemand puts it.
  const double e_od = metric(od, "energy_J[gpu]"), e_perf = metric(perf, "energy_J[gpu]");
  CHECK(e_od > 0);
  CHECK(metric(save, "energy_J[gpu]") > 0);
  CHECK_MESSAGE(e_od < e_perf, "GPU energy simple_ondemand " << e_od << " J, performance " << e_perf << " J");

  // The frame deadline, 33.3 ms at 30 Hz (90 frames in 3 s). The denoise alone is
  // 12192768000 ops at 20 cores x 128 fp16 ops x 0.5 (conv efficiency): 11.2 ms at 848 MHz,
  // 47.2 ms at 202 MHz. performance: every frame in time. powersave: a frame takes longer
  // than the frame period, so frames queue (unfinished at the end) and latency grows past
  // it. simple_ondemand: all frames done, the p90 within the frame time, and once its first
  // downward steps have settled (after 0.5 s) every frame in time.
  auto late_after = [](const result_reader& f, double from_s) {
    std::size_t late = 0;
    for (const auto& j : f.jobs())
      if (j.state == "finished" && j.arrival_s >= from_s && j.latency_s >= 1.0 / 30) ++late;
    return late;
  };
  CHECK(late_after(perf, 0) == 0);
  CHECK(metric(perf, "completed") >= 89);
  CHECK(metric(save, "unfinished") > 0);
  CHECK(metric(save, "latency_p99_s") > 1.0 / 30);
  CHECK(metric(od, "completed") >= 89);
  CHECK(metric(od, "unfinished") <= 1);
  CHECK(metric(od, "latency_p90_s") < 1.0 / 30);
  CHECK(late_after(od, 0.5) == 0);
  CHECK(metric(perf, "latency_p50_s") <= metric(od, "latency_p50_s"));
}

TEST_CASE("phone LLM: the host work is a task placed by EAS; on a smaller CPU it takes x 1024 / capacity x f_max / f") {
  scratch s("llm-host-eas");
  const std::string scen = PTSIM_SOURCE_DIR "/scenarios/phone-llm-chat.yaml";
  const std::string dur = " --set 'duration=8 s'";
  result r = run_ptsim(s.dir, "run " + scen + " -q -o eas.h5" + dur);
  REQUIRE_MESSAGE(r.exit_code == 0, r.err);
  // Pinned to the A55 cluster at its top clock (performance), the same task.
  r = run_ptsim(s.dir, "run " + scen + " -q -o little.h5" + dur +
                           " --set 'workload.streams.chat.llm.host.units=[cpu_little]' --set policy.governors.little=performance");
  REQUIRE_MESSAGE(r.exit_code == 0, r.err);
  const result_reader eas(s.dir / "eas.h5"), little(s.dir / "little.h5");

  const auto tasks = eas.tasks();
  REQUIRE(tasks.size() == 1);
  CHECK(tasks[0].task == "chat/host");
  CHECK(tasks[0].stream == "chat");
  CHECK(tasks[0].runs > 0);
  double residency = 0;
  for (const auto& x : eas.task_residency()) residency += x.residency_s;
  CHECK(residency == ptsim_test::Approx(tasks[0].run_s).epsilon(1e-9));

  // A decode iteration of one sequence: 200 + 800 + 5 x 1 us = 1005 us of the X1 at 2802
  // MHz. The A55's capacity, floor(250 x 1803000 x 1024 / (1024 x 2802000)) = 160, is its
  // speed at its own top clock against that: at 1803 MHz (f_max / f = 1) the iteration's
  // host work takes 1005 x 1024 / 160 = 6432 us, plus at most the A55's 70 us entry and
  // 160 us exit of CPU sleep when the run finds it there (gs101). Prefill iterations take
  // longer.
  const double decode_s = 1005e-6 * 1024.0 / 160.0;
  double shortest = 1e9;
  for (const auto& x : little.task_runs()) {
    CHECK(x.cpu == "cpu_little");
    shortest = std::min(shortest, x.end_s - x.start_s);
  }
  CHECK(shortest >= decode_s * (1 - 1e-9));
  CHECK(shortest <= decode_s + 70e-6 + 160e-6 + 1e-9);
  // Tokens flow in both.
  CHECK(metric(eas, "throughput") > 0);
  CHECK(metric(little, "throughput") > 0);
}
