// End to end: faults and extreme inputs. Clear errors, non-zero exits, and never a file
// that looks complete when the run did not finish.
#include <doctest/doctest.h>

#include <csignal>
#include <thread>

#include "ptsim/postproc/result_file.hpp"
#include "run_ptsim.hpp"

using namespace e2e;

namespace {
bool no_result(const fs::path& dir, const std::string& name) {
  return !fs::exists(dir / name) && !fs::exists(dir / (name + ".part"));
}
}  // namespace

TEST_CASE("an output path that cannot be created is refused before running") {
  scratch s("unwritable");
  std::ofstream(s.dir / "plainfile") << "x";
  const result r = run_ptsim(s.dir, "run -q -o plainfile/out.h5");
  CHECK(r.exit_code != 0);
  CHECK(r.err.find("plainfile") != std::string::npos);
  CHECK_FALSE(fs::exists(s.dir / "plainfile/out.h5"));
}

TEST_CASE("a full disk (file-size limit) fails cleanly and leaves nothing") {
  scratch s("fsize");
  // RLIMIT_FSIZE of 20 KiB: the result file cannot grow past it.
  const result r = run_ptsim(s.dir, "run -q -o out.h5 ; exit $?", "ulimit -f 20; ");
  CHECK(r.exit_code == 1);
  // One line: the file, what failed and the operating system's reason; not HDF5's stack
  // (nor SystemC's report around it: the write happens in a SystemC thread).
  CHECK(r.err.find("out.h5.part: cannot append") != std::string::npos);
  CHECK(r.err.find(": File too large; no result written") != std::string::npos);
  // (Not a count of lines: under AddressSanitizer, SystemC's stack switching adds a warning.)
  CHECK(r.err.find("ptsim run: simulation stopped: out.h5.part") != std::string::npos);
  CHECK(r.err.find("H5D") == std::string::npos);
  CHECK(r.err.find("HDF5") == std::string::npos);
  CHECK(r.err.find("In process") == std::string::npos);
  CHECK(r.err.find("(E549)") == std::string::npos);
  CHECK(no_result(s.dir, "out.h5"));
  // PTSIM_DEBUG=1 adds the whole HDF5 stack for the developer.
  const result dbg = run_ptsim(s.dir, "run -q -o out.h5 ; exit $?", "ulimit -f 20; PTSIM_DEBUG=1; export PTSIM_DEBUG; ");
  CHECK(dbg.exit_code == 1);
  CHECK(dbg.err.find("File too large [HDF5 stack: H5") != std::string::npos);
  CHECK(dbg.err.find("H5FD__sec2_write()") != std::string::npos);
  CHECK(no_result(s.dir, "out.h5"));
}

TEST_CASE("thermal runaway stops the run with the block and the time, and writes nothing") {
  scratch s("runaway");
  const result r = run_ptsim(s.dir,
                             "run -q -o out.h5 --set 'platform.components.cpu_big.leakage.power=20 W'"
                             " --set 'platform.components.cpu_big.leakage.doubling=5 K'");
  CHECK(r.exit_code == 1);
  // In the scenario's terms: the block, degC (the limit is the solver's 1000 K), the time.
  CHECK(r.err.find("thermal runaway: block 'cpu_big' reached ") != std::string::npos);
  CHECK(r.err.find(" degC (limit 726.9 degC) at t = ") != std::string::npos);
  CHECK(r.err.find(" K") == std::string::npos);  // no kelvin left
  CHECK(r.out.empty());  // nothing from SystemC on stdout either
  CHECK(no_result(s.dir, "out.h5"));
}

TEST_CASE("Ctrl-C stops a run midway and removes its partial file") {
  scratch s("sigint");
  // A long run in the background, interrupted once its partial file exists (its handlers
  // are installed before that), however long a loaded machine takes to get there.
  const result r = run_ptsim(s.dir, "run -q -o out.h5 --set 'duration=5000 s' & p=$!; "
                                    "while [ ! -e out.h5.part ] && kill -0 $p 2>/dev/null; do sleep 0.02; done; "
                                    "kill -INT $p; wait $p");
  CHECK(r.exit_code == 130);
  CHECK(r.err.find("interrupted by signal 2") != std::string::npos);
  CHECK(no_result(s.dir, "out.h5"));
}

TEST_CASE("report refuses truncated files and random bytes") {
  scratch s("corrupt");
  REQUIRE(run_ptsim(s.dir, "run -q -o good.h5 --set 'duration=1 s'").exit_code == 0);
  const auto size = fs::file_size(s.dir / "good.h5");
  fs::copy_file(s.dir / "good.h5", s.dir / "half.h5");
  fs::resize_file(s.dir / "half.h5", size / 2);
  {
    std::ofstream junk(s.dir / "junk.h5", std::ios::binary);
    std::uint32_t x = 12345;
    for (int i = 0; i < 4096; ++i) junk.put(static_cast<char>((x = x * 1103515245u + 12345u) >> 24));
  }
  for (const char* f : {"half.h5", "junk.h5"}) {
    const result r = run_ptsim(s.dir, std::string("report ") + f + " --format json");
    CHECK_MESSAGE(r.exit_code == 2, f);
    CHECK(r.err.find(f) != std::string::npos);
    CHECK(r.out.empty());
  }
}

TEST_CASE("extreme but valid inputs: a 1 us control period and a 1,000-block floorplan") {
  scratch s("extreme");
  // 1 us ticks for 5 ms: 5000 closed-loop periods.
  const result fast = run_ptsim(s.dir, "run -q -o fast.h5 --set 'duration=5 ms' --set 'control_period=1 us'"
                                       " --set 'record_period=100 us' --set 'platform.quantum=1 us'");
  REQUIRE_MESSAGE(fast.exit_code == 0, fast.err);
  CHECK(ptsim::postproc::result_reader(s.dir / "fast.h5").time().size() == 50);

  // The default die's six blocks, with the 10 mm x 8 mm die refined into 1,000 blocks:
  // a 40 x 25 grid of 0.25 mm x 0.32 mm cells, the component blocks among them.
  std::string text = slurp(default_scenario());
  const std::string solver = "solver: { method: auto }";
  REQUIRE(text.find(solver) != std::string::npos);
  text.replace(text.find(solver), solver.size(), "solver: { method: exponential }");
  const auto at = text.find("  floorplan:");
  const auto end = text.find("  power_map:");
  REQUIRE(at != std::string::npos);
  REQUIRE(end != std::string::npos);
  std::string fp = "  floorplan:\n";
  const char* names[] = {"cpu_big", "cpu_mid", "cpu_little", "npu", "noc", "mem_ctrl"};
  for (int j = 0; j < 25; ++j)
    for (int i = 0; i < 40; ++i) {
      const int k = j * 40 + i;
      const std::string name = k < 6 ? names[k] : "cell_" + std::to_string(k);
      fp += "    - { name: " + name + ", x: \"" + std::to_string(i * 0.25) + " mm\", y: \"" + std::to_string(j * 0.32) +
            " mm\", width: \"0.25 mm\", height: \"0.32 mm\" }\n";
    }
  text = text.substr(0, at) + fp + text.substr(end);
  std::ofstream(s.dir / "big.yaml") << text;
  // Asked for exponential stepping, it is refused with the reason; auto picks sparse steps.
  const result dense = run_ptsim(s.dir, "validate big.yaml");
  CHECK(dense.exit_code == 2);
  CHECK(dense.err.find("thermal.solver.method: exponential stepping is dense") != std::string::npos);
  const result big = run_ptsim(s.dir, "run big.yaml -q -o big.h5 --set 'duration=50 ms' --set thermal.solver.method=auto");
  REQUIRE_MESSAGE(big.exit_code == 0, big.err);
  CHECK(ptsim::postproc::result_reader(s.dir / "big.h5").coord("block").size() == 1000);
}
