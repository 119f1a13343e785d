#include <doctest/doctest.h>

#include "ptsim/power/governor_timing.hpp"

using namespace ptsim::power;

TEST_CASE("transition delay rule (2 ms cap)") {
  // gs101: clock-latency 500000 ns = 500 us -> min(500 * 1000, 2000) = 2000 us
  CHECK(transition_delay_us(500e-6) == 2000.0);
  // 1 us -> min(1000, 2000) = 1000 us
  CHECK(transition_delay_us(1e-6) == 1000.0);
  // 1.5 us truncates to 1 us like the kernel's ns / 1000 -> 1000 us
  CHECK(transition_delay_us(1.5e-6) == 1000.0);
  // 3 ms > 2 ms: the latency itself, 3000 us
  CHECK(transition_delay_us(3e-3) == 3000.0);
  // unknown latency: 1000 us
  CHECK(transition_delay_us(0.0) == 1000.0);
  // a driver's own transition_delay_us wins
  CHECK(transition_delay_us(500e-6, 500.0) == 500.0);
  // before the patch the cap was 10 ms: min(500 * 1000, 10000) = 10000 us
  CHECK(transition_delay_us(500e-6, 0.0, 10000.0) == 10000.0);
}

TEST_CASE("ondemand/conservative default sampling rate: max(2 ticks, transition delay)") {
  // HZ = 250: 2 ticks = 8000 us; gs101's delay 2000 us -> 8000 us
  CHECK(dbs_default_sampling_rate_us(500e-6) == 8000.0);
  // 20 ms latency -> delay 20000 us > 8000 us
  CHECK(dbs_default_sampling_rate_us(20e-3) == 20000.0);
  // HZ = 1000: 2 ticks = 2000 us; delay 2000 us -> 2000 us
  CHECK(dbs_default_sampling_rate_us(500e-6, 1000.0) == 2000.0);
}
