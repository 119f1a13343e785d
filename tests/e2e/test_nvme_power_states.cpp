// End to end: NVMe power follows its APST state in the closed loop, read back from HDF5.
// server-training reads its samples from nvme0 every step, so with the preset's 100 ms idle
// time the drive never leaves PS0; with PS3 after 1 ms (PS4 pushed out of reach) it rests in
// PS3 between loads, and every record's power drops by (P_idle - P_PS3) x residency:
//   P_b = P_a - (5 W - 0.07 W) r_b
// exactly where both runs moved the same bytes in the record (the wake-ups shift a few
// loads by 1.2 ms across record boundaries, so the identity is checked on the run's mean).
#include <doctest/doctest.h>

#include "relative_approx.hpp"

#include <algorithm>
#include <numeric>

#include "ptsim/postproc/result_file.hpp"
#include "run_ptsim.hpp"

using namespace e2e;

namespace {
struct series {
  std::vector<double> power, residency;
};
series nvme0(const fs::path& file) {
  ptsim::postproc::result_reader f(file);
  const auto comps = f.coord("component");
  const auto at = std::find(comps.begin(), comps.end(), "nvme0");
  REQUIRE(at != comps.end());
  const std::size_t i = static_cast<std::size_t>(at - comps.begin());
  std::size_t n = 0;
  const auto p = f.variable("power", &n);
  const auto r = f.variable("low_power_residency");
  series s;
  for (std::size_t k = 0; k * n < p.size(); ++k) s.power.push_back(p[k * n + i]), s.residency.push_back(r[k * n + i]);
  return s;
}
double mean(const std::vector<double>& v) { return std::accumulate(v.begin(), v.end(), 0.0) / static_cast<double>(v.size()); }
}  // namespace

TEST_CASE("server-training: NVMe power follows its APST state") {
  scratch s("nvme-apst");
  const std::string yaml = PTSIM_SOURCE_DIR "/scenarios/server-training.yaml";
  result r = run_ptsim(s.dir, "run " + yaml + " -q -o a.h5 --set \"duration=2 s\"");
  REQUIRE_MESSAGE(r.exit_code == 0, r.err);
  r = run_ptsim(s.dir, "run " + yaml +
                           " -q -o b.h5 --set \"duration=2 s\" --set \"platform.components.nvme0.power_states.0."
                           "idle_after=1 ms\" --set \"platform.components.nvme0.power_states.1.idle_after=100 s\"");
  REQUIRE_MESSAGE(r.exit_code == 0, r.err);
  const series a = nvme0(s.dir / "a.h5"), b = nvme0(s.dir / "b.h5");
  REQUIRE(a.power.size() == b.power.size());
  for (std::size_t k = 0; k < a.power.size(); ++k) {
    CHECK(a.residency[k] == 0.0);
    CHECK(a.power[k] >= 5.0);  // PS0 idle power plus reads
    CHECK(b.residency[k] > 0.5);
  }
  CHECK(mean(b.power) < 1.0);
  CHECK(mean(b.power) == ptsim_test::Approx(mean(a.power) - (5.0 - 0.07) * mean(b.residency)).epsilon(0.01));
}
