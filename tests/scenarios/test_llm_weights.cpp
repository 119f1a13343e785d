// An llm stream's `weights`: int4 (w4a16) is a weight format only, never an arithmetic precision.
#include <doctest/doctest.h>

#include <string>

#include "helpers.hpp"
#include "ptsim/tlm_config/decoder.hpp"

namespace ps = ptsim::scenarios;
namespace tc = ptsim::tlm_config;
using namespace scen_test;

TEST_CASE("llm weights: int4 loads as a 4-bit weight format; int4 as a stream's arithmetic precision is refused") {
  const std::string path = PTSIM_SOURCE_DIR "/scenarios/phone-llm-chat.yaml";
  const auto sc = ps::load_scenario_file(path, with_sets({"workload.streams.chat.llm.weights=int4"}));
  CHECK(sc.workload.streams.at(0).llm.weights == tc::precision::int4);
  // The phone NPU has int8 and fp16 MACs and no int4 ones: w4a16 computes at the 16-bit path.
  CHECK(tc::decoder_gemm_precision(tc::precision::int4) == tc::precision::bf16);

  const auto errs = load_errors(default_text(), with_sets({"workload.streams.camera.precision=int4"}));
  REQUIRE(errs.size() == 1);
  CHECK_MESSAGE(errs[0].to_string().find("int8") != std::string::npos, errs[0].to_string());
}
