// libFuzzer: the YAML subset reader against yaml-cpp. Whenever the reader gives a tree,
// YAML::Load must accept the same text and build the same tree (marks, tags, styles and
// key order included); any difference aborts with both trees' first difference.
#include <yaml-cpp/yaml.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "yaml_subset.hpp"
#include "yaml_tree_difference.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  const auto fast = ptsim::scenarios::detail::load_yaml_subset(text);
  if (!fast) return 0;
  YAML::Node reference;
  try {
    reference = YAML::Load(text);
  } catch (const YAML::Exception& e) {
    std::fprintf(stderr, "the subset reader accepted a text yaml-cpp refuses: %s\n", e.what());
    std::abort();
  }
  if (const std::string d = yaml_tree_difference(*fast, reference); !d.empty()) {
    std::fprintf(stderr, "the subset reader's tree differs from yaml-cpp's at %s\n", d.c_str());
    std::abort();
  }
  return 0;
}
