#include "ptsim/thermal/compact_model.hpp"

#include <algorithm>
#include <stdexcept>

namespace ptsim::thermal {

void compact_model::node_power(const double* input_W, std::vector<double>& node_power_W) const {
  node_power_W.assign(net.size(), 0.0);
  for (std::size_t i = 0; i < inputs.size(); ++i)
    for (const node_weight& s : inputs[i].spread) node_power_W[s.node] += s.weight * input_W[i];
}

double compact_model::probe_temperature(std::size_t p, const std::vector<double>& node_T_K) const {
  const probe& pr = probes.at(p);
  switch (pr.how) {
    case reduction::min: {
      double v = node_T_K[pr.nodes.front().node];
      for (const node_weight& n : pr.nodes) v = std::min(v, node_T_K[n.node]);
      return v;
    }
    case reduction::max: {
      double v = node_T_K[pr.nodes.front().node];
      for (const node_weight& n : pr.nodes) v = std::max(v, node_T_K[n.node]);
      return v;
    }
    case reduction::mean:
      break;
  }
  double v = 0.0;
  for (const node_weight& n : pr.nodes) v += n.weight * node_T_K[n.node];
  return v;
}

std::vector<double> compact_model::nodes_from_probes(const std::vector<double>& probe_T_K) const {
  if (probe_T_K.size() != probes.size())
    throw std::invalid_argument("compact_model: " + std::to_string(probe_T_K.size()) +
                                " probe temperatures given for " + std::to_string(probes.size()));
  std::vector<double> t(net.size(), 0.0);
  for (std::size_t k = 0; k < t.size(); ++k)
    for (const node_weight& w : init_from_probes[k]) t[k] += w.weight * probe_T_K[w.node];
  return t;
}

std::string compact_model::describe_node(std::size_t node) const {
  // A grid cell is best named by the block above it; a block-model node by its own name.
  for (const probe& p : probes) {
    if (p.nodes.size() == 1 && p.nodes.front().node == node) return "'" + p.name + "'";
  }
  for (const probe& p : probes) {
    for (const node_weight& n : p.nodes)
      if (n.node == node) return "'" + net.name(node) + "' (in block '" + p.name + "')";
  }
  return "'" + net.name(node) + "'";
}

compact_model make_block_compact_model(const floorplan& fp, const package_config& pkg) {
  compact_model m;
  m.net = build_block_model(fp, pkg);
  const std::size_t n = fp.size();
  for (std::size_t i = 0; i < n; ++i)
    m.inputs.push_back({fp.blocks()[i].name, 0, {{i, 1.0}}, i, fp.blocks()[i].area()});
  m.groups = 1;
  for (std::size_t k = 0; k < m.net.size(); ++k) {
    m.probes.push_back({m.net.name(k), {{k, 1.0}}, reduction::mean});
    m.init_from_probes.push_back({{k, 1.0}});
  }
  m.top_probes = n;
  return m;
}

}  // namespace ptsim::thermal
