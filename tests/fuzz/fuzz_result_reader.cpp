// libFuzzer: the result reader on damaged result files. Seeds are real result files
// (corpus/result_reader, written by `ptsim run`; scripts/make_result_seeds.sh remakes them);
// libFuzzer flips, inserts and erases bytes. Everything `ptsim report` and `ptsim trace` read
// is read; a damaged file must give an exception, never a crash, a hang or a sanitizer report.
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <exception>
#include <fstream>
#include <sstream>
#include <string>

#include "ptsim/postproc/result_file.hpp"
#include "ptsim/postproc/run_set.hpp"
#include "ptsim/postproc/trace.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const std::string path = "/tmp/ptsim-fuzz-result-" + std::to_string(getpid()) + ".h5";
  {
    std::ofstream f(path, std::ios::binary | std::ios::trunc);
    f.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
  }
  try {
    const ptsim::postproc::result_reader r(path);
    (void)ptsim::postproc::flatten_yaml(r.metadata().scenario_yaml);
    (void)r.unit_summary();
    (void)r.domain_summary();
    (void)r.jobs();
    (void)r.floorplan();
    (void)r.record_period_s();
    const auto layout = r.layout();
    for (const auto& v : layout.variables) {
      std::size_t cols = 0;
      (void)r.variable(v.name, &cols);
    }
    std::ostringstream trace;
    ptsim::postproc::write_trace(r, trace);
  } catch (const std::exception&) {
  }
  std::remove(path.c_str());
  return 0;
}
