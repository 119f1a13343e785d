#include "output_file.hpp"

#include <iostream>

namespace ptsim::cosim::cli {

std::optional<postproc::output_file> claim_output(const std::string& command, const std::string& output,
                                                  const postproc::output_rules& rules) {
  try {
    return postproc::output_file(output, rules);
  } catch (const postproc::output_error& e) {
    std::cerr << "ptsim " << command << ": " << e.what() << "\n";
    return std::nullopt;
  }
}

}  // namespace ptsim::cosim::cli
