// NVMe APST timing (plain C++), by hand. States as a client drive reports them:
// PS3 entered 10 ms after the last I/O (ENLAT 0.2 ms, EXLAT 1.2 ms), PS4 at 50 ms (2 ms, 8 ms).
#include <doctest/doctest.h>

#include "relative_approx.hpp"

#include <stdexcept>

#include "ptsim/tlm_config/nvme_apst.hpp"

using ptsim::tlm_config::nvme_apst;
using ptsim::tlm_config::nvme_state_timing;

namespace {
nvme_apst two_states() { return nvme_apst({{"PS3", 10e-3, 0.2e-3, 1.2e-3}, {"PS4", 50e-3, 2e-3, 8e-3}}); }
}  // namespace

TEST_CASE("APST residency: PS0 idle, entry at the shallower state, then resident until the next state") {
  const nvme_apst a = two_states();
  std::vector<double> r(2, 0.0);
  // Last I/O done at 5 ms; over [5, 105) ms: PS3 from 15.2 to 55 ms (39.8 ms), PS4 from 57 ms (48 ms).
  a.add_residency(5e-3, 5e-3, 105e-3, r);
  CHECK(r[0] == ptsim_test::Approx(39.8e-3).epsilon(1e-12));
  CHECK(r[1] == ptsim_test::Approx(48e-3).epsilon(1e-12));
  // Split in two windows, the same total: residency adds up over periods.
  std::vector<double> s(2, 0.0);
  a.add_residency(5e-3, 5e-3, 30e-3, s);
  CHECK(s[0] == ptsim_test::Approx(14.8e-3).epsilon(1e-12));
  CHECK(s[1] == 0.0);
  a.add_residency(5e-3, 30e-3, 105e-3, s);
  CHECK(s[0] == ptsim_test::Approx(r[0]).epsilon(1e-12));
  CHECK(s[1] == ptsim_test::Approx(r[1]).epsilon(1e-12));
}

TEST_CASE("APST wake-up: nothing in PS0, the rest of the entry plus the exit latency otherwise") {
  const nvme_apst a = two_states();
  CHECK(a.wake_delay(0, 9.9e-3) == 0.0);
  CHECK(a.wake_delay(0, 10.1e-3) == ptsim_test::Approx(0.1e-3 + 1.2e-3).epsilon(1e-12));  // mid-entry into PS3
  CHECK(a.wake_delay(0, 20e-3) == ptsim_test::Approx(1.2e-3).epsilon(1e-12));
  CHECK(a.wake_delay(0, 51e-3) == ptsim_test::Approx(1e-3 + 8e-3).epsilon(1e-12));  // mid-entry into PS4
  CHECK(a.wake_delay(0, 1.0) == ptsim_test::Approx(8e-3).epsilon(1e-12));
}

TEST_CASE("APST tables out of order are refused") {
  CHECK_THROWS_AS(nvme_apst({{"PS3", 10e-3, 0, 0}, {"PS4", 5e-3, 0, 0}}), std::invalid_argument);
  // PS4 may not start before PS3's entry is over.
  CHECK_THROWS_AS(nvme_apst({{"PS3", 10e-3, 2e-3, 0}, {"PS4", 11e-3, 0, 0}}), std::invalid_argument);
  CHECK_THROWS_AS(nvme_apst({{"PS3", -1e-3, 0, 0}}), std::invalid_argument);
  CHECK_NOTHROW(nvme_apst({{"PS3", 10e-3, 2e-3, 0}, {"PS4", 12e-3, 0, 0}}));
}
