// End to end: policy.limits on the 8-GPU server (server-cnn-offline.yaml, ResNet-50 on every
// GPU): locked clocks, board power limits with a wildcard, a power limit below a locked
// clock, the rounding warning, and range errors; read back from the HDF5 files.
#include <doctest/doctest.h>

#include "relative_approx.hpp"

#include <algorithm>

#include "ptsim/postproc/result_file.hpp"
#include "result_lookup.hpp"
#include "run_ptsim.hpp"

using namespace e2e;
using ptsim::postproc::result_reader;

namespace {
const std::string server = PTSIM_SOURCE_DIR "/scenarios/server-cnn-offline.yaml";
// 1 s of the offline load, sampled every 10 ms (ten samples per 100 ms limit window).
const std::string base = "run " + server + " -q --set 'duration=1 s' --set 'record_period=10 ms'";


// Board power of GPU i per sample: gpu{i} + hbm{i} + nvlink{i} + pcie_gpu{i} (each sample is
// the mean over its record period, so a mean of samples is a mean over time).
std::vector<double> board_W(const result_reader& f, int i) {
  std::size_t nc = 0;
  const auto power = f.variable("power", &nc);
  const auto names = f.coord("component");
  const std::string n = std::to_string(i);
  std::vector<std::size_t> cols;
  for (const std::string c : {"gpu", "hbm", "nvlink", "pcie_gpu"}) cols.push_back(index_of(names, c + n));
  std::vector<double> out(power.size() / nc, 0.0);
  for (std::size_t t = 0; t < out.size(); ++t)
    for (std::size_t c : cols) out[t] += power[t * nc + c];
  return out;
}

// The largest average over `k` consecutive samples, from sample `from` on.
double max_window_mean(const std::vector<double>& x, std::size_t k, std::size_t from) {
  double worst = 0;
  for (std::size_t s = from; s + k <= x.size(); ++s) {
    double sum = 0;
    for (std::size_t j = s; j < s + k; ++j) sum += x[j];
    worst = std::max(worst, sum / static_cast<double>(k));
  }
  return worst;
}

std::vector<double> frequency(const result_reader& f, const std::string& domain) {
  std::size_t nd = 0;
  const auto hz = f.variable("frequency", &nd);
  const std::size_t d = index_of(f.coord("domain"), domain);
  std::vector<double> out;
  for (std::size_t t = 0; t < hz.size() / nd; ++t) out.push_back(hz[t * nd + d]);
  return out;
}
}  // namespace

TEST_CASE("a 250 W board limit on every GPU (wildcard) holds each GPU's 100 ms average; unlimited is above it") {
  scratch s("limits");
  const std::string boost = " --set 'policy.governors.gpu*=gpu_boost'";
  const result free = run_ptsim(s.dir, base + boost + " -o free.h5");
  REQUIRE_MESSAGE(free.exit_code == 0, free.err);
  const result lim = run_ptsim(s.dir, base + boost + " --set 'policy.limits.gpu*.power=250 W' -o lim.h5");
  REQUIRE_MESSAGE(lim.exit_code == 0, lim.err);
  result_reader ff(s.dir / "free.h5"), fl(s.dir / "lim.h5");
  // Unlimited, gpu_boost runs the busy GPUs at the top OPP, 1980 MHz.
  const auto f0 = frequency(ff, "gpu0");
  CHECK(*std::max_element(f0.begin(), f0.end()) == ptsim_test::Approx(1980e6));
  for (int i = 0; i < 8; ++i) {
    CAPTURE(i);
    // The limiter regulates the 100 ms average to 1 % under the limit: after the first window
    // the mean board power is 247.5 W (within 1 %) and under the limit, and every 100 ms
    // window stays within 2 % above the limit (the ripple: the HBM's power swings by tens of
    // watts from one 1 ms period to the next with the traffic of each tile, which the limiter
    // sees only after the fact; README "Per-domain limits"). Unlimited, every GPU draws far more.
    const auto b = board_W(fl, i);
    double sum = 0;
    for (std::size_t t = 10; t < b.size(); ++t) sum += b[t];
    const double mean = sum / static_cast<double>(b.size() - 10);
    CHECK(mean == ptsim_test::Approx(250.0 * 0.99).epsilon(0.01));
    CHECK(mean < 250.0);
    CHECK(max_window_mean(b, 10, 10) <= 250.0 * 1.02);
    CHECK(max_window_mean(board_W(ff, i), 10, 10) > 250.0 * 2);
  }
  // The events say the board limit cut the clock, naming the limit.
  bool named = false;
  for (const auto& e : fl.events())
    if (e.kind == "throttle_start" && e.source == "gpu0" && e.message.find("board power ceiling") == 0 &&
        e.message.find("limit 250 W") != std::string::npos)
      named = true;
  CHECK(named);
  // 250 W is reachable: no warning that the limit cannot be held.
  for (const auto& e : fl.events()) CHECK(e.message.find("cannot be held") == std::string::npos);
  CHECK(fl.summary().metrics.at("throttled_fraction_power").value > 0.5);
  CHECK(ff.summary().metrics.at("throttled_fraction_power").value == 0.0);
}

TEST_CASE("a locked clock runs at exactly that OPP; a power limit below it still wins") {
  scratch s("lock");
  const result r = run_ptsim(s.dir, base + " --set 'policy.limits.gpu0.min_freq=1290 MHz'"
                                           " --set 'policy.limits.gpu0.max_freq=1290 MHz' -o lock.h5");
  REQUIRE_MESSAGE(r.exit_code == 0, r.err);
  for (double hz : frequency(result_reader(s.dir / "lock.h5"), "gpu0")) CHECK(hz == ptsim_test::Approx(1290e6).epsilon(1e-12));
  // min_freq 1970 MHz rounds up to 1980 MHz (the top, so the clock is locked there), with a
  // warning on stderr and in the events; the 250 W limit drives the clock below it.
  const result w = run_ptsim(s.dir, base + " --set 'policy.limits.gpu0.min_freq=1970 MHz'"
                                           " --set 'policy.limits.gpu0.power=250 W' -o low.h5");
  REQUIRE_MESSAGE(w.exit_code == 0, w.err);
  const std::string note = "min_freq 1970 MHz of domain 'gpu0' lies between its OPPs 1965 MHz and 1980 MHz: "
                           "rounded up to 1980 MHz, as the driver does";
  CHECK(w.err.find("warning: policy.limits.gpu0.min_freq: " + note) != std::string::npos);
  result_reader f(s.dir / "low.h5");
  int said = 0;
  for (const auto& e : f.events())
    if (e.kind == "warning" && e.source == "gpu0" && e.message == note) ++said;
  CHECK(said == 1);
  const auto hz = frequency(f, "gpu0");
  CHECK(*std::min_element(hz.begin() + 10, hz.end()) < 1980e6 - 1);
  CHECK(max_window_mean(board_W(f, 0), 10, 10) <= 250.0 * 1.03);
  // The other GPUs have no limit: their schedutil keeps them fast.
  const auto hz1 = frequency(f, "gpu1");
  CHECK(*std::max_element(hz1.begin(), hz1.end()) > 1800e6);
}

TEST_CASE("recovery: after a board-limit cut the clock climbs back no faster than its ramp") {
  // gpu0 under 300 W on a per-period window (1 ms), sampled every control period: the ResNet-50
  // tiles swing its power, so the limiter cuts and lets go many times. With recovery 50 ms the
  // ceiling climbs (1980 - 345) MHz / 50 ms = 32.7 MHz per 1 ms period from where a cut left it:
  // k samples after a cut to f, the clock is at most f + 32.7 MHz x k. Without recovery the
  // clock jumps back at once (one OPP step of the H100's table is 150-195 MHz).
  scratch s("recovery");
  const std::string run = "run " + server + " -q --set 'duration=300 ms' --set 'record_period=1 ms'"
                          " --set 'policy.governors.gpu*=gpu_boost' --set 'policy.limits.gpu0.power=300 W'"
                          " --set 'policy.limits.gpu0.window=1 ms'";
  const result slow = run_ptsim(s.dir, run + " --set 'policy.limits.gpu0.recovery=50 ms' -o slow.h5");
  REQUIRE_MESSAGE(slow.exit_code == 0, slow.err);
  const result fast = run_ptsim(s.dir, run + " -o fast.h5");
  REQUIRE_MESSAGE(fast.exit_code == 0, fast.err);
  const double rate = (1980e6 - 345e6) / 50.0;  // Hz per 1 ms period
  // The largest climb above the ramp since the last cut (a sample below the one before it).
  auto excess = [&](const std::vector<double>& hz) {
    double worst = -1e300;
    std::size_t cut = 0;
    for (std::size_t i = 11; i < hz.size(); ++i) {
      if (hz[i] < hz[i - 1] - 1) cut = i;
      else if (cut > 0) worst = std::max(worst, hz[i] - hz[cut] - rate * static_cast<double>(i - cut));
    }
    return worst;
  };
  const auto hz_slow = frequency(result_reader(s.dir / "slow.h5"), "gpu0");
  const auto hz_fast = frequency(result_reader(s.dir / "fast.h5"), "gpu0");
  // The limit binds in both runs (the clock leaves the top), and only the slow run is ramp-bound.
  CHECK(*std::min_element(hz_slow.begin() + 10, hz_slow.end()) < 1980e6 - 1);
  CHECK(*std::min_element(hz_fast.begin() + 10, hz_fast.end()) < 1980e6 - 1);
  CHECK(excess(hz_slow) <= 1.0);
  CHECK(excess(hz_fast) > 100e6);
  // Both hold the limit on average.
  for (const char* name : {"slow.h5", "fast.h5"}) {
    const auto b = board_W(result_reader(s.dir / name), 0);
    double sum = 0;
    for (std::size_t t = 10; t < b.size(); ++t) sum += b[t];
    CHECK(sum / static_cast<double>(b.size() - 10) < 300.0);
  }
}

TEST_CASE("a board limit below the lowest clock's draw: the clock sits at the floor and the run says the limit cannot be held") {
  // An H100 idles at ~77 W at 345 MHz (README, GPU presets) before its HBM and links: an 80 W
  // board limit cannot be met, as an A40's 100 W could not in Zeus's sweep (120.7 W measured).
  // nvidia-smi refuses it on an H100 (range 200-700 W): the study lowers the device's minimum.
  scratch s("floor");
  const result r = run_ptsim(s.dir, base + " --set 'templates.h100_dvfs.min_power_limit=50 W'"
                                           " --set 'policy.limits.gpu0.power=80 W' -o floor.h5");
  REQUIRE_MESSAGE(r.exit_code == 0, r.err);
  result_reader f(s.dir / "floor.h5");
  const auto hz = frequency(f, "gpu0");
  for (std::size_t t = 10; t < hz.size(); ++t) CHECK(hz[t] == ptsim_test::Approx(345e6));
  const auto b = board_W(f, 0);
  double sum = 0;
  for (std::size_t t = 10; t < b.size(); ++t) sum += b[t];
  CHECK(sum / static_cast<double>(b.size() - 10) > 80.0);
  int said = 0;
  for (const auto& e : f.events())
    if (e.kind == "warning" && e.source == "gpu0" &&
        e.message.find("board power limit 80 W cannot be held: at the lowest clock (345 MHz) the board averages ") == 0) {
      ++said;
      CHECK(e.value > 80.0);
      CHECK(e.time_s >= 0.1);  // after a whole 100 ms window at the floor
    }
  CHECK(said == 1);
}

TEST_CASE("limits outside the device's range: exit 2, the range named, no file") {
  scratch s("range");
  const result hi = run_ptsim(s.dir, base + " --set 'policy.limits.gpu*.max_freq=2.1 GHz' -o x.h5");
  CHECK(hi.exit_code == 2);
  CHECK(hi.err.find("policy.limits.gpu*.max_freq: max_freq: expected a clock within domain 'gpu0' operating points "
                    "345 MHz .. 1980 MHz, found 2100 MHz") != std::string::npos);
  const result p = run_ptsim(s.dir, base + " --set 'policy.limits.gpu0.power=150 W' -o x.h5");
  CHECK(p.exit_code == 2);
  // The preset states the H100's range as nvidia-smi does, 200-700 W: both ends named.
  CHECK(p.err.find("power limit range 200 W .. 700 W") != std::string::npos);
  const result none = run_ptsim(s.dir, base + " --set 'policy.limits.tpu*.power=150 W' -o x.h5");
  CHECK(none.exit_code == 2);
  CHECK(none.err.find("the pattern 'tpu*' matches no DVFS domain") != std::string::npos);
  CHECK_FALSE(fs::exists(s.dir / "x.h5"));
}
