// Writes the sample result file (see sample_result.hpp) and its json report, for the
// Python/xarray test: sample_result_writer OUT.h5 REPORT.json
// (300 samples, 5000 jobs, 1200 operators offered to an ops table of 1000 rows).
#include <fstream>
#include <iostream>

#include "ptsim/postproc/report.hpp"
#include "sample_result.hpp"

int main(int argc, char** argv) {
  using namespace ptsim::postproc;
  if (argc != 3) {
    std::cerr << "usage: " << argv[0] << " OUT.h5 REPORT.json\n";
    return 2;
  }
  try {
    test::write_sample(argv[1], 300, 5000, 1200, 1000);
    const result_reader r(argv[1]);
    std::ofstream(argv[2]) << format_report({{"sample", r.summary()}}, report_format::json);
  } catch (const std::exception& e) {
    std::cerr << e.what() << "\n";
    return 1;
  }
  return 0;
}
