// The subset reader (scenarios/src/yaml_subset.cpp) against yaml-cpp's own YAML::Load: for
// every text it accepts, the same tree (types, scalars, tags, styles, key order, marks);
// for every text yaml-cpp refuses, no tree.
#include <doctest/doctest.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "yaml_subset.hpp"
#include "yaml_tree_difference.hpp"

namespace fs = std::filesystem;
using ptsim::scenarios::detail::load_yaml_subset;

namespace {

std::string text_of(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

enum class outcome { subset, fallback };

// Checks the subset reader on one text against yaml-cpp; says which path the text took.
outcome check_text(const std::string& text, const std::string& name) {
  const auto fast = load_yaml_subset(text);
  YAML::Node reference;
  bool refused = false;
  try {
    reference = YAML::Load(text);
  } catch (const YAML::Exception&) {
    refused = true;
  }
  if (!fast) return outcome::fallback;
  INFO(name, "\n---- text ----\n", text);
  REQUIRE_MESSAGE(!refused, "the subset reader accepted a text yaml-cpp refuses");
  CHECK(yaml_tree_difference(*fast, reference) == "");
  return outcome::subset;
}

std::vector<fs::path> yaml_files(const std::vector<std::string>& dirs) {
  std::vector<fs::path> out;
  for (const auto& d : dirs)
    for (const auto& e : fs::recursive_directory_iterator(fs::path(PTSIM_SOURCE_DIR) / d))
      if (e.is_regular_file() && e.path().extension() == ".yaml") out.push_back(e.path());
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace

TEST_CASE("yaml subset: each construct gives yaml-cpp's tree") {
  const std::vector<std::string> texts = {
      "a: 1\nb: two words\nc: -0.5\n",
      "# lead\n\nroot:\n  child: x   # trailing\n\n  other: 'it''s'\n  q: \"dq: text\"\n",
      "list:\n  - a\n  - b c\n  - -3\n",
      "list:\n- a\n- b\nnext: 1\n",
      "seq:\n  - name: x\n    value: 1\n  - name: y\n    sub:\n      k: v\n",
      "seq:\n  -   spaced: 1\n      more: 2\n",
      "flow: { a: 1, b: [x, y, 'z'], c: {} }\nempty: []\n",
      "multi: [ { freq: \"210 MHz\", volt: \"700 mV\" },\n         { freq: \"1 GHz\", volt: 0.8 } ]\n",
      "nulls: { a: null, b: ~ }\nc: Null\nd: NULL\n",
      "\"quoted key\": 1\n'single': 2\nurl: http://x.org/a#b\ntime: 12:30\n",
      "  indented:\n    root: 1\n",
      "for i in 0..7: { \"gpu{i}\": { use: gpu } }\nkey with spaces  : v\n",
      "a:\n  - [1, 2]\n  - {k: v}\n  - 'q'\n",
      "deep:\n  a:\n    b:\n      c:\n        - d\n        - e: f\n          g: h\n",
      "a: 1\nb:\n  c: 2\n# last comment",
      "x: \"\"\ny: ''\n",
      "a:\n  { k: v,\n    l: [1, 2] }\nb:\n  'own line'\n",
  };
  for (const auto& t : texts) CHECK(check_text(t, "construct") == outcome::subset);
}

TEST_CASE("yaml subset: what it leaves to yaml-cpp") {
  const std::vector<std::string> texts = {
      "a: &x 1\nb: *x\n",           // anchors and aliases
      "a: !!str 1\n",               // tags
      "a: |\n  text\n",             // block scalars
      "a: >\n  text\n",
      "a: some\n  folded text\n",   // multi-line plain scalar
      "a:\nb: 1\n",                 // an empty value
      "- \n- a\n",                  // an empty item
      "a:\t1\n",                    // a tab
      "a: 1\r\nb: 2\r\n",           // carriage returns
      "a: \"esc\\n\"\n",            // an escape
      "---\na: 1\n",                // a document marker
      "%YAML 1.2\n---\na: 1\n",     // a directive
      "? a\n: 1\n",                 // an explicit key
      "a: [1, 2,]\n",               // a trailing comma
      "a: [k: v]\n",                // a mapping inside a flow sequence
      "a: b: c\n",                  // a mapping value on the value's line (an error)
      "",                           // an empty document
      "just a scalar\n",
      "a: 1\n  b: 2\n",             // bad indentation (an error)
      "a: [1,\n2]\n",               // a flow continuation not indented past its key
      "- - a\n",                    // a sequence in a sequence, on one line
      "null: 1\n",                  // a null key
      "\xFE\xFF" "a: 1\n",         // a UTF-16 byte-order mark (yaml-cpp decodes UTF-16)
      "a: x\x04y\n",               // 0x04, where yaml-cpp's stream ends
  };
  for (const auto& t : texts) CHECK_MESSAGE(check_text(t, "outside") == outcome::fallback, t);
  // Keys whose ':' lies more than 1024 characters on (yaml-cpp refuses them), plain or quoted,
  // in a block or a flow mapping.
  const std::string k(1100, 'k');
  for (const auto& t : {k + ": 1\n", "\"" + k + "\": 1\n", "a: { " + k + ": 1 }\n"})
    CHECK(check_text(t, "long key") == outcome::fallback);
  // Nesting far deeper than any scenario (yaml-cpp refuses past 500 levels): left to yaml-cpp
  // rather than recursed into, flow and block alike.
  const std::string deep_flow = "a: " + std::string(100000, '[') + std::string(100000, ']') + "\n";
  CHECK(load_yaml_subset(deep_flow) == std::nullopt);
  std::string deep_block;
  for (int i = 0; i < 300; ++i) deep_block += std::string(static_cast<std::size_t>(i), ' ') + "k:\n";
  deep_block += std::string(300, ' ') + "k: 1\n";
  CHECK(load_yaml_subset(deep_block) == std::nullopt);
  CHECK(load_yaml_subset("a:\n  b:\n    c: 1\n").has_value());  // a few levels stay fast
}

TEST_CASE("yaml subset: every YAML file of the repository reads as yaml-cpp reads it") {
  std::set<std::string> fallback;
  int files = 0;
  for (const auto& p : yaml_files({"scenarios", "validation", "tests", "bench"})) {
    ++files;
    if (check_text(text_of(p), p.string()) == outcome::fallback)
      fallback.insert(fs::relative(p, PTSIM_SOURCE_DIR).string());
  }
  CHECK(files > 100);
  // The library's scenarios, presets and sweeps are all inside the subset: their loading is
  // what the reader is for (ptsim validate and every run's start).
  for (const auto& f : fallback) CHECK_MESSAGE(f.rfind("scenarios/", 0) != 0, f, " left the subset");
  MESSAGE(files, " files, ", fallback.size(), " outside the subset");
}

TEST_CASE("yaml subset: damaged scenario files never give a tree yaml-cpp would not") {
  // Deterministic damage to real files: each character deleted, and characters that carry
  // YAML structure inserted, at a stride through the text.
  const std::string inserts = " :-#[]{},'\"\n";
  int compared = 0;
  for (const auto* name : {"scenarios/default.yaml", "scenarios/presets/server-8xh100.yaml",
                           "scenarios/sweeps/zeus-power-limit.yaml"}) {
    const std::string text = text_of(fs::path(PTSIM_SOURCE_DIR) / name);
    const std::size_t stride = std::max<std::size_t>(1, text.size() / 120);
    for (std::size_t i = 0; i < text.size(); i += stride) {
      std::string cut = text;
      cut.erase(i, 1);
      compared += check_text(cut, std::string(name) + " less offset " + std::to_string(i)) == outcome::subset;
      const char c = inserts[(i / stride) % inserts.size()];
      std::string more = text;
      more.insert(i, 1, c);
      compared += check_text(more, std::string(name) + " plus '" + c + "' at " + std::to_string(i)) == outcome::subset;
    }
  }
  CHECK(compared > 100);  // the comparison ran on trees, not only on fallbacks
}
