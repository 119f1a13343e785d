// Trace events from the sample file: what goes in, what a window keeps. (The JSON's format
// is checked against the trace-event rules by tests/results/test_trace.py on a real run.)
#include <doctest/doctest.h>

#include <sstream>
#include <stdexcept>

#include "ptsim/postproc/trace.hpp"
#include "sample_result.hpp"

namespace fs = std::filesystem;
using namespace ptsim::postproc;

namespace {

fs::path sample_file(const std::string& name, std::size_t n_ops) {
  const fs::path dir = fs::path(PTSIM_BINARY_DIR) / "tests" / "postproc" / "scratch" / name;
  fs::remove_all(dir);
  fs::create_directories(dir);
  test::write_sample(dir / "run.h5", 100, 3, n_ops);
  return dir / "run.h5";
}

std::size_t count(const std::string& text, const std::string& needle) {
  std::size_t n = 0;
  for (std::size_t at = text.find(needle); at != std::string::npos; at = text.find(needle, at + 1)) ++n;
  return n;
}

}  // namespace

TEST_CASE("every operator becomes a slice, every sample of four variables a counter") {
  const result_reader r(sample_file("trace_all", 30));
  std::ostringstream out;
  const trace_counts c = write_trace(r, out);
  const std::string json = out.str();
  // No throttle_start/end pair in the sample events: slices are the operators.
  CHECK(c.slices == 30);
  // 100 samples x (frequency + voltage over 2 domains, power over 3 components, temperature
  // over 4 blocks).
  CHECK(c.counters == 100 * (2 + 2 + 3 + 4));
  // Events: one dvfs (instant on its domain), a throttle and a warning on the run's track.
  CHECK(c.instants == 3);
  CHECK(count(json, "\"ph\": \"X\"") == c.slices);
  CHECK(count(json, "\"ph\": \"C\"") == c.counters);
  CHECK(count(json, "\"ph\": \"i\"") == c.instants);
  CHECK(json.find("\"traceEvents\": [") != std::string::npos);
  CHECK(json.find("\"name\": \"conv2d_3x3\"") != std::string::npos);
  CHECK(json.find("\"name\": \"dvfs 2400 MHz\"") != std::string::npos);
  CHECK(json.find("\"name\": \"gemm_µkernel\"") != std::string::npos);  // UTF-8 passes through
  // Operator 0 (npu, conv2d_3x3) runs 0 to 0.5 ms: 500 us.
  CHECK(json.find("\"ts\": 0, \"dur\": 500, \"args\": {\"bound_by\": \"compute\"}") != std::string::npos);
}

TEST_CASE("a time window keeps what falls inside and cuts slices at its edges") {
  const result_reader r(sample_file("trace_window", 30));
  std::ostringstream out;
  trace_options opt;
  opt.from_s = 0.00425;  // sample_op: operators of step k run from k ms to k ms + ~0.5 ms
  opt.to_s = 0.205;
  const trace_counts c = write_trace(r, out, opt);
  // Steps 5..9 fully inside (15 operators); step 4 (4.0-4.5 ms) is cut at 4.25 ms.
  CHECK(c.slices == 18);
  CHECK(out.str().find("\"ts\": 4250,") != std::string::npos);
  // Samples at t = 0, 0.01, ... 0.99 s. Temperature is stamped at t: 0.01..0.20 lie in the
  // window (20 stamps, 4 blocks). Means are stamped at the period's start, t - 0.01 s:
  // t = 0.02..0.21 give 0.01..0.20 (20 stamps; frequency and voltage of 2 domains, power of
  // 3 components).
  CHECK(c.counters == 20 * 4 + 20 * (2 + 2 + 3));
  trace_options bad;
  bad.from_s = 1;
  bad.to_s = 1;
  std::ostringstream ignored;
  CHECK_THROWS_AS(write_trace(r, ignored, bad), std::invalid_argument);
}
