#pragma once
// Shared by the scenario tests: run ptsim on a library scenario (shortened by --set) and
// read the result back.
#include <doctest/doctest.h>

#include <map>
#include <string>

#include "../e2e/run_ptsim.hpp"
#include "ptsim/postproc/result_file.hpp"

namespace e2e_scenarios {

using e2e::fs::path;

inline std::string library(const std::string& file) { return PTSIM_SOURCE_DIR "/scenarios/" + file; }

/// Runs `ptsim run SCENARIO --set ...` once per (scenario, args) and keeps the result
/// for the whole test process.
inline const path& result_of(const std::string& file, const std::string& args) {
  static e2e::scratch dir("scenarios");
  static std::map<std::string, path> runs;
  const std::string key = file + " " + args;
  auto it = runs.find(key);
  if (it != runs.end()) return it->second;
  const path out = dir.dir / ("run" + std::to_string(runs.size()) + ".h5");
  const e2e::result r = e2e::run_ptsim(dir.dir, "run -q -o " + out.string() + " " + library(file) + " " + args);
  REQUIRE_MESSAGE(r.exit_code == 0, r.err);
  return runs[key] = out;
}

}  // namespace e2e_scenarios
