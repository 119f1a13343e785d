// Writes the sample result file (see sample_result.hpp) and its json report, for the
// Python/xarray test: sample_result_writer OUT.h5 REPORT.json
// (8500 samples: two whole timeseries chunks and part of a third; 5000 jobs; 9000 operators
// offered to an ops table of 8500 rows: two whole chunks and part of a third).
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
    test::write_sample(argv[1], 8500, 5000, 9000, 8500);
    const result_reader r(argv[1]);
    std::ofstream(argv[2]) << format_report({{"sample", r.summary()}}, report_format::json);
  } catch (const std::exception& e) {
    std::cerr << e.what() << "\n";
    return 1;
  }
  return 0;
}
