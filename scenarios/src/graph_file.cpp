#include "graph_file.hpp"

#include <yaml-cpp/yaml.h>

#include <stdexcept>
#include <vector>

#include "enum_tables.hpp"
#include "ptsim/text/input_file.hpp"
#include "ptsim/tlm_config/operators.hpp"
#include "yaml_subset.hpp"
#include "yaml_tree.hpp"

namespace ptsim::scenarios::detail {

schema_ptr graph_schema() {
  static const schema_ptr root = [] {
    auto count = [](const char* doc) { return number(doc, std::nullopt, 0.0); };
    auto op = object(
        "operator: its arithmetic and bytes (flops, bytes_read, bytes_written, weight_bytes), or its shape "
        "(gemm: m, n, k; attention: queries, attended, kv_tokens, heads, head_dim; embedding: tokens, width; "
        "collective: bytes; transfer: target, bytes; elementwise and others: elements)",
        {opt("name", str("operator name (default: op<index>)")),
         opt("kind", enumeration(names_of(op_kinds), "what the operator is (sets its efficiency)", "other")),
         opt("class", enumeration(names_of(op_classes),
                                  "execution resource (default: tensor for gemm, conv and attention, else vector)")),
         opt("flops", count("arithmetic operations (a MAC counts as 2)")),
         opt("bytes_read", count("bytes read (weights + input activations)")),
         opt("bytes_written", count("bytes written")),
         opt("weight_bytes", count("of bytes_read, the weights")),
         opt("repeat", number("times the operator runs in a row", "1", 1.0)),
         opt("m", count("gemm: rows of the output (with flops: the shape a unit's profile looks up; README, "
                        "\"Operators and their time\")")),
         opt("n", count("gemm: columns of the output")), opt("k", count("gemm: reduction length")),
         opt("weights", count("gemm: 1 when B is a weight read from memory, 0 when an activation")),
         opt("queries", count("attention: query tokens")), opt("attended", count("attention: tokens attended")),
         opt("kv_tokens", count("attention: tokens in the KV cache read")), opt("heads", count("attention: heads")),
         opt("kv_heads", count("attention: KV heads (default: heads)")),
         opt("head_dim", count("attention: head dimension")),
         opt("elements", count("elementwise: elements")),
         opt("ops_per_element", count("elementwise: operations per element (default 1)")),
         opt("inputs", count("elementwise: input tensors (default 1)")),
         opt("collective", enumeration(names_of(collective_kinds), "collective: pattern", "all_reduce")),
         opt("bytes", count("collective: bytes each rank exchanges")),
         opt("tokens", count("embedding: tokens")), opt("width", count("embedding: width")),
         opt("target", str("transfer: component read from or written to"))});
    return object("custom operator graph (a stage's `graph:`)",
                  {opt("name", str("graph name (default: the file name)")),
                   req("ops", list_of(op, "operators in order"))});
  }();
  return root;
}

namespace {

// One operator from its validated entry; problems reported on it (false).
bool read_op(const view& n, std::size_t i, tlm_config::precision prec, tlm_config::op& o) {
  const auto num = [&](const char* k, double def = -1) {
    if (n.has(k)) return n.num(k);
    if (def < 0) throw std::invalid_argument(std::string("missing '") + k + "'");
    return def;
  };
  const std::string name = n.has("name") ? n.str("name") : "op" + std::to_string(i);
  const tlm_config::op_kind kind = value_of(op_kinds, n.str("kind"));
  try {
    if (n.has("flops")) {
      o.name = name;
      o.kind = kind;
      o.prec = prec;
      const bool tensor_kind = tlm_config::settings_fallback(kind) == tlm_config::op_kind::gemm ||
                               kind == tlm_config::op_kind::conv || kind == tlm_config::op_kind::attention;
      o.cls = n.has("class") ? value_of(op_classes, n.str("class"))
                             : tensor_kind ? tlm_config::op_class::tensor : tlm_config::op_class::vector;
      o.ops = num("flops");
      o.bytes_read = num("bytes_read", 0);
      o.bytes_written = num("bytes_written", 0);
      o.weight_bytes = num("weight_bytes", 0);
      if (o.weight_bytes > o.bytes_read) throw std::invalid_argument("weight_bytes exceeds bytes_read");
      // A shape given beside the counts keys the operator in a measured profile.
      o.shape_m = num("m", 0);
      o.shape_n = num("n", 0);
      o.shape_k = num("k", 0);
    } else if (kind == tlm_config::op_kind::gemm) {
      o = tlm_config::gemm_op(name, num("m"), num("n"), num("k"), prec, num("weights", 1) != 0);
    } else if (kind == tlm_config::op_kind::attention) {
      o = tlm_config::attention_op(name, num("queries"), num("attended"), num("kv_tokens"), num("heads"),
                            num("kv_heads", num("heads")), num("head_dim"), prec, prec);
    } else if (kind == tlm_config::op_kind::embedding) {
      o = tlm_config::embedding_op(name, num("tokens"), num("width"), prec);
    } else if (kind == tlm_config::op_kind::collective) {
      o = tlm_config::collective_op(name, value_of(collective_kinds, n.str("collective")), num("bytes"), prec);
    } else if (kind == tlm_config::op_kind::transfer) {
      if (!n.has("target")) throw std::invalid_argument("missing 'target'");
      o = tlm_config::transfer_op(name, n.str("target"), num("bytes_read", 0), num("bytes_written", 0));
    } else if (n.has("elements")) {
      o = tlm_config::elementwise_op(name, num("elements"), num("ops_per_element", 1), num("inputs", 1), prec, kind);
    } else {
      throw std::invalid_argument("give flops (with bytes_read, bytes_written) or the shape of a " +
                                  std::string(tlm_config::to_string(kind)) + " operator");
    }
  } catch (const std::invalid_argument& e) {
    n.fail(e.what());
    return false;
  }
  const double repeat = n.num("repeat");
  if (kind == tlm_config::op_kind::collective) o.repeat = repeat;
  else tlm_config::fold(o, repeat);
  return true;
}

}  // namespace

bool read_graph(const std::filesystem::path& path, tlm_config::precision prec, tlm_config::op_graph& g, std::string& error) {
  std::string why;
  const auto content = text::read_input_file(path, why);
  if (!content) {
    error = "cannot read the graph file '" + path.string() + "': " + why;
    return false;
  }
  YAML::Node root;
  try {
    root = detail::load_yaml(*content);
  } catch (const YAML::Exception& e) {
    error = "cannot read the graph file '" + path.string() + "': " + e.what();
    return false;
  }
  std::vector<diagnostic> problems;
  origin o;
  o.file = path.string();
  o.sink = &problems;
  check_duplicate_keys(root, "", o);
  if (problems.empty()) validate(root, graph_schema(), "", o);
  const view v(root, graph_schema(), "", &o);
  if (problems.empty() && v.at("ops").items().empty()) v.fail("expected a non-empty list of operators", "ops");
  if (problems.empty()) {
    g.name = v.has("name") ? v.str("name") : path.stem().string();
    g.prec = prec;
    const auto ops = v.at("ops").items();
    for (std::size_t i = 0; i < ops.size() && problems.empty(); ++i) {
      tlm_config::op op;
      if (read_op(ops[i], i, prec, op)) g.ops.push_back(op);
    }
  }
  if (problems.empty()) return true;
  error = problems.front().to_string();
  return false;
}

}  // namespace ptsim::scenarios::detail
