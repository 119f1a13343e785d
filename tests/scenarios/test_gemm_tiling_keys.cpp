// A GPU's gemm_tiling key (README, "Operators and their time"): read into the unit's
// config with its defaults; bad tiles and missing keys are errors at their position; only
// GPUs have it.
#include <doctest/doctest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "helpers.hpp"

namespace ps = ptsim::scenarios;
using namespace scen_test;

namespace {
// One H100 node running one GEMM; `tiling` is the h100 template's gemm_tiling mapping.
std::string h100_with(const std::string& tiling) {
  return "extends: " PTSIM_SOURCE_DIR "/scenarios/presets/node-1xh100.yaml\n"
         "templates:\n"
         "  h100:\n"
         "    gemm_tiling: " + tiling + "\n"
         "workload:\n"
         "  streams:\n"
         "    mm:\n"
         "      arrival: { kind: closed_loop, users: 1 }\n"
         "      stages: [ { units: [ gpu0 ], model: gemm, params: { m: 256, n: 512, k: 256 }, precision: bf16 } ]\n";
}
// Loads `text` from a file of its own (a scenario that extends a preset needs a folder).
ps::scenario load(const std::string& text) {
  namespace fs = std::filesystem;
  const fs::path file = fs::temp_directory_path() / ("ptsim-gemm-tiling-" + std::to_string(::getpid()) + ".yaml");
  std::ofstream(file) << text;
  struct remove_at_end {
    fs::path p;
    ~remove_at_end() { fs::remove(p); }
  } cleanup{file};
  return ps::load_scenario_file(file.string());
}
std::vector<ps::diagnostic> errors_of(const std::string& text) {
  return diagnostics_of([&] { load(text); });
}
const ptsim::tlm_config::compute_unit_config& gpu0(const ps::scenario& sc) {
  for (const auto& u : sc.platform.units)
    if (u.name == "gpu0") return u;
  FAIL("no gpu0");
  return sc.platform.units.front();
}
}  // namespace

TEST_CASE("gemm_tiling: its keys and defaults reach the unit; without it, no tiling") {
  const auto plain = load(h100_with("{ operand_bytes_per_cycle: 50 }"));
  const auto& t = gpu0(plain).tiling;
  CHECK(t.enabled());
  CHECK(t.tiles.size() == ptsim::tlm_config::default_gemm_tiles().size());
  CHECK(t.operand_bytes_per_cycle == 50);
  CHECK(t.wave_cycles == 0);
  CHECK(t.max_split_k == 16);
  CHECK(t.min_split_depth == 256);

  const auto own = load(h100_with("{ tiles: [ 64x64, 256x128 ], operand_bytes_per_cycle: 40, wave_cycles: 3000, "
                                  "max_split_k: 4, min_split_depth: 512 }"));
  const auto& o = gpu0(own).tiling;
  REQUIRE(o.tiles.size() == 2);
  CHECK(o.tiles[0].m == 64);
  CHECK(o.tiles[1].m == 256);
  CHECK(o.tiles[1].n == 128);
  CHECK(o.wave_cycles == 3000);
  CHECK(o.max_split_k == 4);
  CHECK(o.min_split_depth == 512);

  const std::string none = replace_once(h100_with("{ operand_bytes_per_cycle: 50 }"),
                                        "    gemm_tiling: { operand_bytes_per_cycle: 50 }\n", "    sms: 132\n");
  CHECK_FALSE(gpu0(load(none)).tiling.enabled());
}

TEST_CASE("gemm_tiling: a bad tile, a missing feed rate or an empty list is an error at its place; a CPU has no such key") {
  const std::string bad = h100_with("{ tiles: [ 128x128, 128by256 ], operand_bytes_per_cycle: 50 }");
  const auto ds = errors_of(bad);
  REQUIRE(ds.size() == 1);
  CHECK_MESSAGE(contains(ds[0].message, "expected a tile as ROWSxCOLUMNS such as 128x256, found '128by256'"),
                ds[0].to_string());
  const auto at = position_of(bad, "128by256");
  CHECK(ds[0].line == at.line);
  CHECK(ds[0].column == at.column);

  const auto missing = errors_of(h100_with("{ wave_cycles: 100 }"));
  REQUIRE(missing.size() == 1);
  CHECK_MESSAGE(contains(missing[0].message, "operand_bytes_per_cycle"), missing[0].to_string());

  const auto empty = errors_of(h100_with("{ tiles: [], operand_bytes_per_cycle: 50 }"));
  REQUIRE(empty.size() == 1);
  CHECK_MESSAGE(contains(empty[0].message, "give at least one tile shape"), empty[0].to_string());

  const auto zero = errors_of(h100_with("{ operand_bytes_per_cycle: 0 }"));
  REQUIRE(zero.size() == 1);
  CHECK(zero[0].path.find("operand_bytes_per_cycle") != std::string::npos);

  const auto cpu = load_errors(default_text(), with_sets({"platform.components.cpu_little.gemm_tiling.operand_bytes_per_cycle=50"}));
  REQUIRE(cpu.size() >= 1);
  CHECK_MESSAGE(contains(cpu[0].to_string(), "gemm_tiling"), cpu[0].to_string());
}
