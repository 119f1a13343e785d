// An NVMe target with APST in the SystemC kernel, by hand: 1 GB/s, 10 us latency, control
// period 1 ms; PS3 10 ms after the last I/O (ENLAT 0.2 ms, EXLAT 1.2 ms), PS4 at 50 ms
// (2 ms, 8 ms). A reader issues 1 MB reads at 0, 20 and 100 ms (each read's own time from
// the kernel's, as an initiator running ahead would):
//   read 0 at 0: PS0, done at 1 ms + 10 us = 1.01 ms.
//   read 1 at 20 ms: idle since 1.01 ms, PS3 since 11.21 ms: waits 1.2 ms, starts 21.2 ms,
//     done 22.21 ms.
//   read 2 at 100 ms: idle since 22.21 ms, PS4 entered at 72.21 ms: waits 8 ms, starts
//     108 ms, done 109.01 ms.
// Residency: period 11 ([11, 12) ms) holds 0.79 ms of PS3, period 60 a whole ms of PS3,
// period 80 a whole ms of PS4; in total PS3 (11.21 .. 20) + (32.41 .. 72.21) + (119.21 ..
// 120) = 8.79 + 39.8 + 0.79 = 49.38 ms, PS4 (74.21 .. 100) = 25.79 ms.
#include "relative_approx.hpp"
#include <tlm_utils/simple_initiator_socket.h>

#include "sc_test.hpp"
#include "ptsim/tlm_models/memory.hpp"

using namespace sc_test;

namespace {
struct reader : sc_core::sc_module {
  tlm_utils::simple_initiator_socket<reader> socket{"socket"};
  std::vector<double> done_s;
  SC_HAS_PROCESS(reader);
  explicit reader(sc_core::sc_module_name n) : sc_module(n) { SC_THREAD(run); }
  void run() {
    std::vector<unsigned char> buf(1);
    for (double at : {0.0, 20e-3, 100e-3}) {
      wait(sc_core::sc_time(at, sc_core::SC_SEC) - sc_core::sc_time_stamp());
      tlm::tlm_generic_payload t;
      t.set_command(tlm::TLM_READ_COMMAND);
      t.set_data_ptr(buf.data());
      t.set_data_length(1000000);
      sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
      socket->b_transport(t, delay);
      done_s.push_back(sc_core::sc_time_stamp().to_seconds() + delay.to_seconds());
    }
  }
};
}  // namespace

TEST_CASE("NVMe APST: exit latency delays the next I/O; residency per control period") {
  memory_config cfg = hbm("ssd", 1e9, 10e-6);
  cfg.kind = "nvme";
  cfg.dram = false;
  cfg.efficiency = 1.0;
  cfg.power_states = {{"PS3", 10e-3, 0.2e-3, 1.2e-3}, {"PS4", 50e-3, 2e-3, 8e-3}};
  ptsim::tlm_models::memory ssd("ssd", cfg, 1e-3);
  reader r("reader");
  r.socket.bind(ssd.socket);
  sc_core::sc_start(sc_core::sc_time(120, sc_core::SC_MS));
  REQUIRE(r.done_s.size() == 3);
  CHECK(r.done_s[0] == ptsim_test::Approx(1.01e-3).epsilon(1e-9));
  CHECK(r.done_s[1] == ptsim_test::Approx(22.21e-3).epsilon(1e-9));
  CHECK(r.done_s[2] == ptsim_test::Approx(109.01e-3).epsilon(1e-9));
  CHECK(ssd.wakeups() == 2);
  CHECK(ssd.wake_delay_s() == ptsim_test::Approx(9.2e-3).epsilon(1e-9));
  // Periods taken in order at their ends, as the control loop does.
  double ps3 = 0, ps4 = 0;
  std::vector<double> p11, p60, p80, p100;
  for (std::int64_t k = 0; k < 120; ++k) {
    const auto s = ssd.take_power_state_seconds(k, static_cast<double>(k + 1) * 1e-3);
    REQUIRE(s.size() == 2);
    CHECK(s[0] + s[1] <= 1e-3 * (1 + 1e-9));
    ps3 += s[0];
    ps4 += s[1];
    if (k == 11) p11 = s;
    if (k == 60) p60 = s;
    if (k == 80) p80 = s;
    if (k == 100) p100 = s;
  }
  CHECK(p11[0] == ptsim_test::Approx(0.79e-3).epsilon(1e-9));
  CHECK(p60[0] == ptsim_test::Approx(1e-3).epsilon(1e-9));
  CHECK(p80[1] == ptsim_test::Approx(1e-3).epsilon(1e-9));
  CHECK(p100[0] + p100[1] == 0.0);  // waking (PS0) in [100, 108) ms
  CHECK(ps3 == ptsim_test::Approx(49.38e-3).epsilon(1e-9));
  // PS4 until the wake at 100 ms, and again from 109.01 + 50 + 2 ms: beyond the 120 ms run.
  CHECK(ps4 == ptsim_test::Approx(25.79e-3).epsilon(1e-9));
}
