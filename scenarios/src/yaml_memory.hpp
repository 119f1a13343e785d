#pragma once
// Internal: yaml-cpp nodes made in the memory of an existing tree.
//
// Every `YAML::Node(type)` owns a new memory (a set of all nodes it can reach), and
// putting a node of another memory into it copies that whole set: a tree built from many
// new nodes, each given parts of one document, copies the document's set once per node.
// Template expansion of the 8-GPU server preset did so ~2,000 times (558 M of `ptsim
// validate`'s 590 M instructions). Nodes made beside the tree they will hold share its
// memory, and nothing is copied.
#include <yaml-cpp/yaml.h>

#include <string>

namespace ptsim::scenarios::detail {

/// A new node of `type` (Map, Sequence or Null) in the memory of `beside`.
YAML::Node new_node_beside(const YAML::Node& beside, YAML::NodeType::value type);
/// A new scalar node in the memory of `beside`.
YAML::Node new_scalar_beside(const YAML::Node& beside, const std::string& value);
/// The Node handle for a node built in `memory` with yaml-cpp's detail interface, as its
/// own reader makes it (that constructor is private to yaml-cpp).
YAML::Node wrap_node(YAML::detail::node& n, const YAML::detail::shared_memory_holder& memory);

}  // namespace ptsim::scenarios::detail
