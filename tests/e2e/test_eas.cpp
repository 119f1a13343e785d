// End to end: the camera pipeline with its CPU stages as tasks placed by EAS over the three
// gs101 clusters (scenarios/default.yaml), against the same workload pinned to the big
// cluster; uclamp.min across its range; the tasks in the result file and the trace.
#include <doctest/doctest.h>

#include "relative_approx.hpp"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <map>

#include "ptsim/postproc/result_file.hpp"
#include "result_lookup.hpp"
#include "run_ptsim.hpp"

using namespace e2e;
using ptsim::postproc::result_reader;

namespace {

// The default scenario with its two CPU stages pinned to one cluster (still as tasks, so
// that schedutil reads PELT utilisation in both runs and only the placement differs).
void write_pinned(const fs::path& file, const std::string& unit) {
  std::ofstream(file) << "extends: " << default_scenario() << "\n"
                      << "workload:\n  streams:\n    camera:\n      arrival: { kind: fixed_rate, rate: \"30 Hz\" }\n"
                      << "      precision: int8\n      stages:\n"
                      << "        - { unit: " << unit << ", model: image_preprocess, precision: fp16,\n"
                      << "            params: { width: 1920, height: 1080, size: 224 } }\n"
                      << "        - { unit: npu, model: mobilenet_v2 }\n"
                      << "        - { unit: " << unit << ", model: classifier_postprocess, precision: fp32 }\n"
                      << "policy: { scheduler: eas }\n";
}


}  // namespace

TEST_CASE("camera under EAS: less energy than pinned to the big cluster, the same frames, within the frame time") {
  scratch s("eas-camera");
  const std::string dur = " --set 'duration=5 s'";
  write_pinned(s.dir / "big.yaml", "cpu_big");
  const result a = run_ptsim(s.dir, "run " + default_scenario() + " -q -o eas.h5" + dur);
  REQUIRE_MESSAGE(a.exit_code == 0, a.err);
  const result b = run_ptsim(s.dir, "run big.yaml -q -o big.h5" + dur);
  REQUIRE_MESSAGE(b.exit_code == 0, b.err);
  result_reader eas(s.dir / "eas.h5"), big(s.dir / "big.h5");
  // 30 Hz for 5 s: 150 frames in both, each within the 33.3 ms frame time.
  CHECK(metric(eas, "completed") == metric(big, "completed"));
  CHECK(metric(eas, "latency_p99_s") < 1.0 / 30);
  CHECK(metric(big, "latency_p99_s") < 1.0 / 30);
  CHECK_MESSAGE(metric(eas, "energy_J") < metric(big, "energy_J"),
                "EAS " << metric(eas, "energy_J") << " J, pinned to big " << metric(big, "energy_J") << " J");

  // The tasks: one per CPU stage, every frame a run, residency adding up to the running time.
  const auto tasks = eas.tasks();
  REQUIRE(tasks.size() == 2);
  CHECK(tasks[0].task == "camera/0:image_preprocess");
  CHECK(tasks[1].task == "camera/2:classifier_postprocess");
  const auto runs = eas.task_runs();
  std::map<std::string, double> ran;
  std::map<std::string, std::int64_t> count;
  for (const auto& r : runs) {
    CHECK(r.end_s >= r.start_s);
    ran[r.task] += r.end_s - r.start_s;
    ++count[r.task];
  }
  for (const auto& t : tasks) {
    CHECK(t.stream == "camera");
    CHECK(t.runs == count[t.task]);
    CHECK(t.runs >= 150);
    CHECK(t.wakeups <= t.runs + 1);  // a frame may still be at the stage when the run ends
    CHECK(t.migrations <= t.wakeups);
    CHECK(t.run_s == ptsim_test::Approx(ran[t.task]).epsilon(1e-9));
    double residency = 0, share = 0;
    for (const auto& r : eas.task_residency())
      if (r.task == t.task) residency += r.residency_s, share += r.share;
    CHECK(residency == ptsim_test::Approx(t.run_s).epsilon(1e-9));
    CHECK(share == ptsim_test::Approx(1.0).epsilon(1e-9));
  }
  // Pinned: all of each task's time on cpu_big.
  for (const auto& r : big.task_residency())
    if (r.cpu == "cpu_big") CHECK(r.share == ptsim_test::Approx(1.0));
  // What schedutil read, per runqueue, in [0, 1]; the tasks' util_avg in [0, 1024].
  std::size_t n = 0;
  for (double u : eas.variable("sched_util", &n)) CHECK((u >= 0 && u <= 1));
  CHECK(n == 3);
  for (double u : eas.variable("task_util", &n)) CHECK((u >= 0 && u <= 1024));
  CHECK(n == 2);

  // The trace: a tasks process with runs named by their CPU.
  const result t = run_ptsim(s.dir, "trace eas.h5 -o eas.json");
  REQUIRE_MESSAGE(t.exit_code == 0, t.err);
  const std::string json = slurp(s.dir / "eas.json");
  CHECK(json.find("\"name\": \"process_name\", \"pid\": 6, \"tid\": 0, \"args\": {\"name\": \"tasks\"}") !=
        std::string::npos);
  CHECK(json.find("\"cat\": \"task\"") != std::string::npos);
  CHECK(json.find("camera/0:image_preprocess") != std::string::npos);
}

TEST_CASE("uclamp.min trades energy for latency, monotonically") {
  // 0: the tasks where EAS puts them, at the frequency their util asks; 256: fits mid only
  // (256 > little's 160), mid at 1.25 x 2253 x 256/498 = 1448 -> 1491 MHz while runnable;
  // 512: big only (> mid's 498), at 1.25 x 2802 x 0.5 = 1751 -> 1826 MHz; 1024: big at 2802.
  scratch s("eas-uclamp");
  double last_energy = 0, last_latency = 1e9;
  for (const int min : {0, 256, 512, 1024}) {
    const std::string out = "u" + std::to_string(min) + ".h5";
    const result r = run_ptsim(s.dir, "run " + default_scenario() + " -q -o " + out +
                                          " --set 'duration=5 s' --set workload.streams.camera.uclamp.min=" +
                                          std::to_string(min));
    REQUIRE_MESSAGE(r.exit_code == 0, r.err);
    result_reader f(s.dir / out);
    const double e = metric(f, "energy_J"), l = metric(f, "latency_p50_s");
    CHECK_MESSAGE(e >= last_energy, "uclamp.min " << min << ": " << e << " J after " << last_energy << " J");
    CHECK_MESSAGE(l <= last_latency, "uclamp.min " << min << ": " << l << " s after " << last_latency << " s");
    last_energy = e;
    last_latency = l;
    if (min == 1024)
      for (const auto& res : f.task_residency())
        if (res.cpu == "cpu_big") CHECK(res.share == ptsim_test::Approx(1.0));
  }
}

TEST_CASE("scheduler keys: bad uclamp and energy_aware on a non-CPU unit are refused with their position") {
  scratch s("eas-bad");
  std::ofstream(s.dir / "minmax.yaml") << "extends: " << default_scenario() << "\n"
                                       << "workload: { streams: { camera: { uclamp: { min: 600, max: 300 } } } }\n";
  const result r = run_ptsim(s.dir, "validate minmax.yaml");
  CHECK(r.exit_code == 2);
  CHECK(r.err.find("minmax.yaml:2:") != std::string::npos);
  CHECK(r.err.find("is above max") != std::string::npos);
  std::ofstream(s.dir / "npu.yaml") << "extends: " << default_scenario() << "\n"
                                    << "workload:\n  streams:\n    camera:\n      stages:\n"
                                    << "        - { units: [cpu_big, npu], parallel: energy_aware, model: mobilenet_v2 }\n";
  const result n = run_ptsim(s.dir, "validate npu.yaml");
  CHECK(n.exit_code == 2);
  CHECK(n.err.find("energy_aware places tasks on CPU clusters; 'npu' is a npu") != std::string::npos);
  const result big = run_ptsim(s.dir, "validate " + default_scenario() + " --set workload.streams.camera.uclamp.max=2000");
  CHECK(big.exit_code == 2);
  // The old utilisation path cannot place or clamp tasks: said, not ignored.
  const result busy = run_ptsim(s.dir, "validate " + default_scenario() + " --set policy.scheduler=busy_share");
  CHECK(busy.exit_code == 2);
  CHECK(busy.err.find("energy_aware places tasks by their utilisation") != std::string::npos);
  const result clamp = run_ptsim(s.dir, std::string("validate ") + PTSIM_SOURCE_DIR "/scenarios/phone-throttle.yaml" +
                                            " --set policy.scheduler=busy_share --set workload.streams.camera.uclamp.min=100");
  CHECK(clamp.exit_code == 2);
  CHECK(clamp.err.find("uclamp clamps the utilisation of tasks") != std::string::npos);
}
