// PELT, EAS placement and uclamp against the kernel's rules, computed by hand with the
// gs101 energy model (upstream gs101.dtsi: capacity-dmips-mhz 250 / 620 / 1024 and
// dynamic-power-coefficient 70 / 284 / 650 uW/MHz/V^2 for A55 / A76 / X1; OPPs as in
// scenarios/presets/phone-flagship.yaml). One CPU per performance domain (per-core layout).
#include <doctest/doctest.h>

#include "relative_approx.hpp"

#include <cmath>

#include "approx.hpp"

#include "ptsim/tlm_config/cpu_scheduler.hpp"
#include "ptsim/tlm_config/pelt.hpp"

using tlm_test::near;
using namespace ptsim::tlm_config;

namespace {

struct opp {
  double mhz, mv;
};

sched_domain domain(const std::string& name, double coeff, std::initializer_list<opp> opps) {
  sched_domain d;
  d.name = name;
  for (const opp& o : opps) {
    d.freq_hz.push_back(o.mhz * 1e6);
    d.power_W.push_back(coeff * o.mhz * (o.mv / 1000) * (o.mv / 1000) * 1e-6);  // EM: C * MHz * V^2 uW
  }
  return d;
}

enum { little = 0, mid = 1, big = 2 };

sched_config gs101() {
  sched_config c;
  c.enabled = true;
  c.domains.push_back(domain("little", 70, {{300, 537.5}, {574, 600}, {738, 618.75}, {930, 668.75}, {1098, 712.5},
                                            {1197, 731.25}, {1328, 762.5}, {1401, 781.25}, {1598, 831.25},
                                            {1704, 862.5}, {1803, 906.25}}));
  c.domains.push_back(domain("mid", 284, {{400, 506.25}, {553, 537.5}, {696, 562.5}, {799, 581.25}, {910, 606.25},
                                          {1024, 625}, {1197, 662.5}, {1328, 687.5}, {1491, 731.25}, {1663, 775},
                                          {1836, 818.75}, {1999, 868.75}, {2130, 918.75}, {2253, 968.75}}));
  c.domains.push_back(domain("big", 650, {{500, 500}, {851, 556.25}, {984, 575}, {1106, 606.25}, {1277, 631.25},
                                          {1426, 662.5}, {1582, 693.75}, {1745, 731.25}, {1826, 750}, {2048, 793.75},
                                          {2188, 831.25}, {2252, 850}, {2401, 887.5}, {2507, 925}, {2630, 968.75},
                                          {2704, 1000}, {2802, 1056.25}}));
  // capacity = dmips x f_max(kHz) x 1024 / (1024 x 2802000), floored:
  //   little 250 x 1803000 x 1024 / 2869248000 = 160.87 -> 160; mid 620 x 2253000 -> 498.5 -> 498.
  const auto caps = sched_config::capacities({250, 620, 1024}, {1803e6, 2253e6, 2802e6});
  for (std::size_t i = 0; i < 3; ++i) c.cpus.push_back({c.domains[i].name, i, caps[i]});
  return c;
}

}  // namespace

TEST_CASE("capacities: capacity-dmips-mhz x max frequency, normalised to 1024 at the biggest CPU") {
  const auto caps = sched_config::capacities({250, 620, 1024}, {1803e6, 2253e6, 2802e6});
  CHECK(caps[0] == 160);
  CHECK(caps[1] == 498);
  CHECK(caps[2] == 1024);
}

TEST_CASE("fits_capacity: util * 1280 < capacity * 1024 (20 % margin)") {
  // 127 * 1280 = 162560 < 160 * 1024 = 163840; 128 * 1280 = 163840 is not below it.
  CHECK(cpu_scheduler::util_fits_cpu(127, 0, 1024, 160));
  CHECK_FALSE(cpu_scheduler::util_fits_cpu(128, 0, 1024, 160));
  // uclamp.max 150 <= 160 makes a util-300 task fit the little CPU.
  CHECK(cpu_scheduler::util_fits_cpu(300, 0, 150, 160));
  // uclamp.min 1024 fits only the 1024 CPU.
  CHECK_FALSE(cpu_scheduler::util_fits_cpu(50, 1024, 1024, 498));
  CHECK(cpu_scheduler::util_fits_cpu(50, 1024, 1024, 1024));
}

TEST_CASE("em_cpu_energy: power at the OPP for 1.25 x max util, times the busy share") {
  cpu_scheduler s(gs101());
  // little, util 50: f = 1.25 * 50 * 1803 / 160 = 704.3 MHz -> 738 MHz at 618.75 mV;
  //   P = 70 * 738 * 0.61875^2 = 19778.1 uW; capacity there 160 * 738 / 1803 = 65.49;
  //   E = 19.778 mW * 50 / 65.49 = 15.100 mW.
  CHECK(s.pd_energy(little, 50, 50) == near(0.0197781117 * 50 / (160.0 * 738 / 1803), 1e-9));
  CHECK(s.pd_energy(little, 50, 50) == near(0.015100, 1e-4));
  // mid, util 50: f = 1.25 * 50 * 2253 / 498 = 282.8 -> 400 MHz at 506.25 mV; P = 29.114 mW;
  //   capacity 498 * 400 / 2253 = 88.41; E = 29.114 * 50 / 88.41 = 16.465 mW.
  CHECK(s.pd_energy(mid, 50, 50) == near(0.016465, 1e-4));
  // big, util 50: f = 171 -> 500 MHz at 500 mV; P = 81.25 mW; capacity 182.7; E = 22.233 mW.
  CHECK(s.pd_energy(big, 50, 50) == near(0.022233, 1e-4));
}

TEST_CASE("EAS: a small task lands on the little CPU") {
  cpu_scheduler s(gs101());
  // Placed at t = 0, so nothing decays before the placement.
  // Forked on big (its first allowed CPU), util 50. Deltas (the others idle, so base 0):
  // little 15.10 mW < mid 16.46 mW < big 22.23 mW (the energy test above).
  const std::size_t t = s.add_task("small", {big, mid, little}, {});
  s.set_task_util(t, 50);
  CHECK(s.wake(t, 0.0) == little);
  CHECK(s.task_cpu(t) == little);
  CHECK(s.migrations(t) == 1);
  CHECK(s.cpu_util(little) == s.task_util(t));  // its utilisation moved with it
  CHECK(s.cpu_util(big) == 0);
}

TEST_CASE("EAS: a task over the little capacity with margin moves up to the cheapest CPU it fits") {
  cpu_scheduler s(gs101());
  const std::size_t t = s.add_task("medium", {big, mid, little}, {});
  s.set_task_util(t, 150);
  // little: 150 * 1280 = 192000 >= 160 * 1024 = 163840: does not fit.
  // mid: f = 1.25 * 150 * 2253 / 498 = 848.3 -> 910 MHz at 606.25 mV, P = 284 * 910 * 0.60625^2
  //   = 94.99 mW, capacity 498 * 910 / 2253 = 201.1, E = 94.99 * 150 / 201.1 = 70.83 mW.
  // big: f = 1.25 * 150 * 2802 / 1024 = 513 -> 851 MHz at 556.25 mV, P = 171.15 mW,
  //   capacity 311.0, E = 171.15 * 150 / 311.0 = 82.55 mW. Mid wins.
  CHECK(s.pd_energy(mid, 150, 150) == near(0.070835, 1e-4));
  CHECK(s.pd_energy(big, 150, 150) == near(0.082549, 1e-4));
  CHECK(s.wake(t, 0.0) == mid);
}

TEST_CASE("uclamp.min 1024 puts the task on the big CPU, and schedutil's util there at 1") {
  cpu_scheduler s(gs101());
  const std::size_t t = s.add_task("boosted", {little, mid, big}, {1024, 1024});
  s.set_task_util(t, 50);
  // util_fits_cpu: uclamp.min 1024 > capacity 160 and 498: neither fits; 1024 fits big.
  CHECK(s.wake(t, 0.0) == big);
  double start = -1;
  s.job_queued(t, &start);
  s.tick(0.0, {1, 1, 1});
  // rq util clamped to [1024, 1024] while runnable: 1024 / 1024 = 1, so schedutil asks
  // 1.25 * 2802 MHz * 1 -> the top OPP (2802 MHz; tests/power/test_governors.cpp).
  CHECK(s.domain_util(big) == 1.0);
  CHECK(s.domain_util(little) == 0.0);
}

TEST_CASE("uclamp.max caps the utilisation schedutil sees") {
  cpu_scheduler s(gs101());
  const std::size_t t = s.add_task("capped", {big}, {0, 512});
  const std::size_t u = s.add_task("free", {big}, {});
  s.set_task_util(t, 800);
  s.set_task_util(u, 0);
  CHECK(s.wake(t, 0.0) == big);
  double start = -1;
  s.job_queued(t, &start);
  s.tick(0.0, {1, 1, 1});
  // util 800 clamped to 512: 512 / 1024 = 0.5 -> f = 1.25 * 2802 * 0.5 = 1751 -> 1826 MHz
  // (without the clamp 800 / 1024 = 0.78: 2736 MHz -> 2802).
  CHECK(s.domain_util(big) == 0.5);
  // A task without a clamp runnable beside it lifts the runqueue's max clamp to 1024.
  CHECK(s.wake(u, 0.0) == big);
  double start2 = -1;
  s.job_queued(u, &start2);
  s.tick(0.0, {1, 1, 1});
  CHECK(s.domain_util(big) == near(800.0 / 1024, 1e-12));
}

TEST_CASE("overutilised: placement falls back to the CPU with the most spare capacity") {
  cpu_scheduler s(gs101());
  const std::size_t hog = s.add_task("hog", {little}, {});
  s.set_task_util(hog, 200);  // 200 * 1280 >= 160 * 1024: little is overutilised
  CHECK(s.overutilized());
  const std::size_t t = s.add_task("small", {little, mid, big}, {});
  s.set_task_util(t, 50);
  // Spare: little 160 - 160 (capped) = 0, mid 498 - 50 = 448, big 1024 - 50 = 974: big.
  CHECK(s.wake(t, 0.0) == big);
  CHECK(s.fallbacks(t) == 1);
}

TEST_CASE("PELT: LOAD_AVG_MAX and the decay table are the kernel's") {
  CHECK(pelt_load_avg_max() == 47742);
  // y^32 = 1/2 as a shift, then the table's y^0 = (2^32 - 1) / 2^32 truncates once more:
  // 1024 >> 1 = 512, 512 * 0xffffffff >> 32 = 511 (the kernel's decay_load does the same).
  CHECK(pelt_decay(1024, 32) == 511);
  CHECK(pelt_decay(1024, 64) == 255);
  CHECK(pelt_decay(1 << 20, 1) == 1026107);  // 2^20 * 0xfa83b2da / 2^32 = 1026107.9 (kernel table y^1)
}

TEST_CASE("PELT: util after t of running from 0 is 1024 (1 - 0.5^(t / 32 segments))") {
  // One step of 32 whole segments: contrib = d1 y^32 + (LOAD_AVG_MAX - LOAD_AVG_MAX y^32 - 1024)
  //   = 511 + (47742 - 23870 - 1024) = 23359 (decay_load truncations as above); util = 23359 * 1024 / (47742 - 1024) = 512 exactly.
  pelt_signal p;
  p.accumulate(32 * 1024, true, 1.0);
  CHECK(p.util_avg() == 512);
  // In 1 ms ticks the integer truncations cost little: within 1 % of the closed form at
  // 8, 32 and 100 ms (t in segments of 1.024 ms).
  pelt_signal q;
  for (int ms = 1; ms <= 100; ++ms) {
    q.accumulate(1000, true, 1.0);
    if (ms == 8 || ms == 32 || ms == 100) {
      const double closed = 1024 * (1 - std::pow(0.5, ms / 1.024 / 32));
      CHECK(static_cast<double>(q.util_avg()) == ptsim_test::Approx(closed).epsilon(0.01));
    }
  }
}

TEST_CASE("PELT: decay while sleeping halves the util every 32 segments; invariance scales the ramp") {
  pelt_signal p;
  p.accumulate(2'000'000, true, 1.0);  // 2 s running: saturated
  const double full = p.util_avg();
  CHECK(full >= 1000);
  CHECK(full <= 1024);
  p.accumulate(32 * 1024, false, 1.0);
  CHECK(static_cast<double>(p.util_avg()) == ptsim_test::Approx(full / 2).epsilon(0.005));
  // Always running at half the top frequency: util converges to 512; on a capacity-160 CPU
  // at its top frequency, to 160 (frequency and capacity invariance).
  pelt_signal h, l;
  h.accumulate(2'000'000, true, 0.5);
  l.accumulate(2'000'000, true, 160.0 / 1024);
  CHECK(static_cast<double>(h.util_avg()) == ptsim_test::Approx(512).epsilon(0.01));
  CHECK(static_cast<double>(l.util_avg()) == ptsim_test::Approx(160).epsilon(0.01));
}

TEST_CASE("tasks: running time accrues util on the CPU it ran on, residency and runs recorded") {
  cpu_scheduler s(gs101());
  const std::size_t t = s.add_task("worker", {big}, {});
  s.set_task_util(t, 0);
  CHECK(s.wake(t, 0.0) == big);
  double start = 0.0;
  s.job_queued(t, &start);
  s.job_done(t, 0.0, 32 * 1024e-6);  // ran 32 segments at full speed on the 1024 CPU: util 512
  CHECK(s.task_util(t) == 512);
  CHECK(s.residency_s(t, big) == near(32 * 1024e-6));
  REQUIRE(s.runs().size() == 1);
  CHECK(s.runs()[0].cpu == big);
}

TEST_CASE("a performance domain of two CPUs: the one with more spare capacity, and the domain's max util") {
  // Two X1 cores sharing the big domain (two units in one DVFS domain).
  sched_config c = gs101();
  c.cpus = {{"big0", 2, 1024}, {"big1", 2, 1024}};
  cpu_scheduler s(c);
  const std::size_t a = s.add_task("a", {0}, {});
  s.set_task_util(a, 300);
  const std::size_t p = s.add_task("p", {0, 1}, {});  // forked on big0
  s.set_task_util(p, 200);
  // Spare with p: big0 1024 - 500 = 524, big1 1024 - 200 = 824. Base (p removed): max 300,
  //   sum 300 -> f = 1.25 * 300 * 2802 / 1024 = 1026 -> 1106 MHz (606.25 mV): P = 650 * 1106 *
  //   0.60625^2 = 264.2 mW, capacity 1024 * 1106 / 2802 = 404.2, E = 264.2 * 300 / 404.2 = 196.1.
  // p on big1: max 300, sum 500: E = 264.2 * 500 / 404.2 = 326.8, delta 130.7 mW.
  // p on big0: max 500 -> 1710 -> 1745 MHz (731.25 mV): P = 606.5 mW, capacity 637.7,
  //   E = 606.5 * 500 / 637.7 = 475.5, delta 279.4 mW. big1 wins.
  CHECK(s.pd_energy(2, 300, 500) - s.pd_energy(2, 300, 300) == near(0.1307, 2e-3));
  CHECK(s.pd_energy(2, 500, 500) - s.pd_energy(2, 300, 300) == near(0.2794, 2e-3));
  CHECK(s.wake(p, 0.0) == 1);
  // schedutil reads the domain's largest runqueue: big0's 300 / 1024.
  s.tick(0.0, {1, 1, 1});
  CHECK(s.domain_util(2) == near(300.0 / 1024, 1e-12));
}
