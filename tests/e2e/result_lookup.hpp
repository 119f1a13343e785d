#pragma once
// Lookups into a result file that the end-to-end tests share.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstddef>
#include <string>
#include <vector>

#include "ptsim/postproc/result_file.hpp"

namespace e2e {

/// A summary metric's value (throws std::out_of_range when the run did not record it).
inline double metric(const ptsim::postproc::result_reader& f, const std::string& name) {
  return f.summary().metrics.at(name).value;
}

/// The position of `name` among a coordinate's names (fails the test when it is absent).
inline std::size_t index_of(const std::vector<std::string>& names, const std::string& name) {
  const auto it = std::find(names.begin(), names.end(), name);
  REQUIRE_MESSAGE(it != names.end(), "no '" << name << "'");
  return static_cast<std::size_t>(it - names.begin());
}

}  // namespace e2e
