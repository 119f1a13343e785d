#include "yaml_memory.hpp"

#include <memory>

namespace ptsim::scenarios::detail {
struct yaml_memory_access;
}

namespace YAML {
// Node's constructor from a detail::node, and its memory, are private; as_if is one of
// Node's friend templates, so a specialisation of it for a type of ours reaches them.
template <>
struct as_if<ptsim::scenarios::detail::yaml_memory_access, ptsim::scenarios::detail::yaml_memory_access> {
  static Node wrap(detail::node& n, const detail::shared_memory_holder& memory) { return Node(n, memory); }
  static const detail::shared_memory_holder& memory(const Node& n) { return n.m_pMemory; }
};
}  // namespace YAML

namespace ptsim::scenarios::detail {
namespace {
using access = YAML::as_if<yaml_memory_access, yaml_memory_access>;

// The memory to make a node in: `beside`'s, or a new one where it has none.
YAML::detail::shared_memory_holder memory_of(const YAML::Node& beside) {
  const auto& m = access::memory(beside);
  return m ? m : std::make_shared<YAML::detail::memory_holder>();
}
}  // namespace

YAML::Node new_node_beside(const YAML::Node& beside, YAML::NodeType::value type) {
  auto memory = memory_of(beside);
  YAML::detail::node& n = memory->create_node();
  n.set_type(type);
  return access::wrap(n, memory);
}

YAML::Node new_scalar_beside(const YAML::Node& beside, const std::string& value) {
  auto memory = memory_of(beside);
  YAML::detail::node& n = memory->create_node();
  n.set_scalar(value);
  return access::wrap(n, memory);
}

YAML::Node wrap_node(YAML::detail::node& n, const YAML::detail::shared_memory_holder& memory) {
  return access::wrap(n, memory);
}

}  // namespace ptsim::scenarios::detail
