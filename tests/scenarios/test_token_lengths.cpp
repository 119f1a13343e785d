// An llm stream's request lengths drawn from a histogram {bins, counts} (a published length
// distribution): what the loader resolves, and what it refuses, at the line:column of the key.
#include <doctest/doctest.h>

#include "relative_approx.hpp"

#include <string>

#include "helpers.hpp"

namespace ps = ptsim::scenarios;
using namespace scen_test;

namespace {
// The server serving scenario with its output lengths replaced (its base gives {min, max}),
// written to a file so that it can extend the base.
std::string with_outputs(const std::string& body) {
  return "extends: " PTSIM_SOURCE_DIR "/scenarios/server-llm-serving.yaml\n"
         "workload:\n  streams:\n    chat:\n      llm:\n        output_tokens:\n" +
         body;
}
ps::scenario load_outputs(const std::string& body) {
  temp_dir t("tokens");
  return ps::load_scenario_file(t.write("s.yaml", with_outputs(body)));
}
std::vector<ps::diagnostic> output_errors(const std::string& body) {
  return diagnostics_of([&] { load_outputs(body); });
}
}  // namespace

TEST_CASE("output_tokens from a histogram: the bins' integers, cumulative shares, and the longest request") {
  // Bins [8, 9), [9, 12), [12, 17]: weights 3, 0, 1. The empty middle bin is never drawn.
  const auto sc = load_outputs("          min: null\n          max: null\n"
                               "          bins: [ 8, 9, 12, 17 ]\n"
                               "          counts: [ 3, 0, 1 ]\n");
  const auto& r = sc.workload.streams.at(0).llm.output_tokens;
  REQUIRE(r.edges.size() == 4);
  REQUIRE(r.cumulative.size() == 3);
  CHECK(r.cumulative[0] == ptsim_test::Approx(0.75));
  CHECK(r.cumulative[1] == ptsim_test::Approx(0.75));
  CHECK(r.cumulative[2] == 1.0);
  CHECK(r.bin_integers(0) == std::pair<int, int>{8, 8});
  CHECK(r.bin_integers(1) == std::pair<int, int>{9, 11});
  CHECK(r.bin_integers(2) == std::pair<int, int>{12, 17});  // the last bin includes its upper edge
  CHECK(r.min == 8);
  CHECK(r.max == 17);
  // 0.75 x 8 + 0.25 x (12 + 17) / 2
  CHECK(r.mean() == ptsim_test::Approx(9.625));
}

TEST_CASE("a histogram's fractional edges and empty end bins") {
  // ML.ENERGY's bins are fractional (2.0, 83.88, ...); a zero-count last bin is not the longest.
  const auto sc = load_outputs("          min: null\n          max: null\n"
                               "          bins: [ 2.0, 83.88, 165.76, 4096 ]\n"
                               "          counts: [ 0, 5, 0 ]\n");
  const auto& r = sc.workload.streams.at(0).llm.output_tokens;
  CHECK(r.bin_integers(0) == std::pair<int, int>{2, 83});
  CHECK(r.bin_integers(1) == std::pair<int, int>{84, 165});
  CHECK(r.min == 84);
  CHECK(r.max == 165);
  CHECK(r.mean() == ptsim_test::Approx(124.5));
}

TEST_CASE("the shipped request-length templates keep their sources' counts and means") {
  // scenarios/presets/request-lengths.yaml, picked with `use:` (every GPU preset extends it).
  temp_dir t("shipped");
  const auto sc = ps::load_scenario_file(t.write(
      "s.yaml", "extends: " PTSIM_SOURCE_DIR "/scenarios/server-llm-serving.yaml\n"
                "workload:\n  streams:\n    chat:\n      llm:\n"
                "        prompt_tokens: { use: openorca_prompts, min: null, max: null }\n"
                "        output_tokens: { use: lmarena_llama31_70b_outputs, min: null, max: null }\n"));
  const auto& llm = sc.workload.streams.at(0).llm;
  // OpenOrca: 24,576 prompts, 48 to 1,021 tokens; the last bin [896, 1022] includes its edge.
  // Binned mean, sum of count x bin midpoint over 24,576: 223.0445; the per-sample mean of the
  // source file is 222.33, which the binning must stay within 1 % of.
  CHECK(llm.prompt_tokens.min == 48);
  CHECK(llm.prompt_tokens.max == 1022);
  CHECK(llm.prompt_tokens.mean() == ptsim_test::Approx(223.0445).epsilon(1e-5));
  CHECK(llm.prompt_tokens.mean() == ptsim_test::Approx(222.33).epsilon(0.01));
  // ML.ENERGY: 7,168 outputs, 2 to 4,096 tokens; binned mean 356.104 (the source's
  // avg_output_len is 349-364 over its configurations).
  CHECK(llm.output_tokens.min == 2);
  CHECK(llm.output_tokens.max == 4096);
  CHECK(llm.output_tokens.mean() == ptsim_test::Approx(356.104).epsilon(1e-5));
}

TEST_CASE("histogram errors: at the key, with what was expected and found") {
  {
    // The base's {min, max} not removed: both forms at once, at the base's min.
    const auto ds = output_errors("          bins: [ 8, 9 ]\n          counts: [ 1 ]\n");
    const auto d = only_at(ds, "workload.streams.chat.llm.output_tokens.min");
    CHECK(contains(d.message, "give {min, max} or {bins, counts}, not both"));
    CHECK(contains(d.message, "min: null, max: null"));
    CHECK(contains(d.file, "server-llm-serving.yaml"));
  }
  const std::string drop = "          min: null\n          max: null\n";
  {
    const auto ds = output_errors(drop + "          bins: [ 8, 9, 12 ]\n          counts: [ 1 ]\n");
    const auto d = only_at(ds, "workload.streams.chat.llm.output_tokens.counts");
    CHECK(d.message == "expected 2 counts (one per bin between 3 edges), found 1");
    CHECK(d.line == 10);
    CHECK(d.column == 19);
  }
  {
    const auto ds = output_errors(drop + "          bins: [ 8, 12, 12 ]\n          counts: [ 1, 1 ]\n");
    const auto d = only_at(ds, "workload.streams.chat.llm.output_tokens.bins[2]");
    CHECK(d.message == "bin edges must increase: 12 follows 12");
    CHECK(d.line == 9);
    CHECK(d.column == 26);
  }
  {
    const auto ds = output_errors(drop + "          bins: [ 8, 9 ]\n          counts: [ 0 ]\n");
    CHECK(only_at(ds, "workload.streams.chat.llm.output_tokens.counts").message ==
          "expected counts with a positive sum, found all zero");
  }
  {
    const auto ds = output_errors(drop + "          bins: [ 8, 9 ]\n");
    CHECK(contains(only_at(ds, "workload.streams.chat.llm.output_tokens").message,
                   "a histogram needs both bins and counts; counts is missing"));
  }
  {
    const auto ds = output_errors(drop + "          bins: [ 8, 9 ]\n          counts: [ -1 ]\n");
    CHECK(!ds.empty());  // a negative weight: the schema's minimum
  }
  {
    // An edge beyond what a token count can hold is refused, not cast into a wrapped count.
    const auto ds = output_errors(drop + "          bins: [ 8, 1e12 ]\n          counts: [ 1 ]\n");
    CHECK(contains(only_at(ds, "workload.streams.chat.llm.output_tokens.bins[1]").message, "expected a value <="));
  }
}
