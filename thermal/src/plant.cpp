#include "ptsim/thermal/plant.hpp"

#include <stdexcept>
#include <unordered_map>

#include "ptsim/thermal/package.hpp"

namespace ptsim::thermal {

plant::plant(const thermal_config& cfg) : cfg_(cfg) {
  for (const auto& b : cfg.fp.blocks()) blocks_.push_back(b.name);
  block_T_.assign(blocks_.size(), cfg.ambient.value());
  if (cfg.kind == package_kind::hotspot) {
    net_ = build_block_model(cfg.fp, cfg.package);
  } else if (cfg.kind == package_kind::phone) {
    const phone_network p =
        build_phone_network(cfg.phone, cfg.fp, cfg.package.t_chip, cfg.package.k_chip, cfg.package.p_chip);
    net_ = p.net;
    for (std::size_t i : {p.frame, p.battery, p.skin_front, p.skin_back}) {
      nodes_.push_back(net_.name(i));
      node_index_.push_back(i);
    }
  } else {
    const datacenter_config& dc = cfg.datacenter;
    std::unordered_map<std::string, const datacenter_die*> dies;
    for (const auto& d : dc.dies) dies[d.name] = &d;
    std::unordered_map<std::string, std::size_t> seen_die;
    block_place_.assign(blocks_.size(), {static_cast<std::size_t>(-1), 0, 0});
    for (std::size_t s = 0; s < dc.streams.size(); ++s) {
      air_stream_config ac;
      ac.fan = dc.fan;
      ac.fan_speed = dc.fan_speed;
      ac.inlet_K = cfg.ambient.value();
      die_W_.emplace_back();
      for (const std::string& dn : dc.streams[s].second) {
        const auto it = dies.find(dn);
        if (it == dies.end()) throw std::invalid_argument("stream '" + dc.streams[s].first + "': no die '" + dn + "'");
        if (!seen_die.emplace(dn, s).second) throw std::invalid_argument("die '" + dn + "' is in two streams");
        stream_die sd;
        sd.name = dn;
        sd.package = it->second->package;
        sd.flow_exponent = dc.flow_exponent;
        sd.sink = it->second->sink;
        std::vector<block> bl;
        for (const std::string& bn : it->second->blocks) {
          std::size_t b;
          try {
            b = cfg.fp.index_of(bn);
          } catch (const std::out_of_range&) {
            throw std::invalid_argument("die '" + dn + "': '" + bn + "' is not a floorplan block");
          }
          if (block_place_[b].stream != static_cast<std::size_t>(-1))
            throw std::invalid_argument("block '" + bn + "' is in two dies");
          block_place_[b] = {s, ac.dies.size(), bl.size()};
          bl.push_back(cfg.fp.blocks()[b]);
        }
        if (bl.empty()) throw std::invalid_argument("die '" + dn + "' has no blocks");
        sd.fp = floorplan(bl);
        ac.dies.push_back(std::move(sd));
        die_W_.back().emplace_back(bl.size(), 0.0);
        nodes_.push_back(dn + ".inlet");
      }
      if (ac.dies.empty()) throw std::invalid_argument("stream '" + dc.streams[s].first + "' has no dies");
      streams_.push_back(std::make_unique<air_stream>(ac));
    }
    for (const auto& d : dc.dies)
      if (!seen_die.count(d.name)) throw std::invalid_argument("die '" + d.name + "' is in no stream");
    for (std::size_t b = 0; b < blocks_.size(); ++b)
      if (block_place_[b].stream == static_cast<std::size_t>(-1))
        throw std::invalid_argument("block '" + blocks_[b] + "' is in no die");
    for (const auto& st : streams_)
      for (std::size_t k = 0; k < st->dies(); ++k) {
        state_offset_.push_back(state_names_.size());
        for (const std::string& n : st->model(k).net.names()) state_names_.push_back(st->die_name(k) + "." + n);
      }
  }
  if (streams_.empty()) state_names_ = net_.names();
  node_T_.assign(nodes_.size(), cfg.ambient.value());
}

plant::~plant() = default;
plant::plant(plant&&) noexcept = default;

std::vector<double> plant::state_from(const std::vector<named_temperature>& lines, const std::string& source) const {
  std::unordered_map<std::string, std::size_t> index;
  for (std::size_t i = 0; i < state_names_.size(); ++i) index.emplace(state_names_[i], i);
  std::vector<double> T(state_names_.size(), 0.0);
  std::vector<std::size_t> line_of(state_names_.size(), 0);
  for (const named_temperature& e : lines) {
    const std::string where = source + ":" + std::to_string(e.line) + ": ";
    const auto it = index.find(e.name);
    if (it == index.end())
      throw std::invalid_argument(where + "'" + e.name + "' is not a node of the thermal model (its first node is '" +
                                  state_names_.front() + "')");
    if (line_of[it->second])
      throw std::invalid_argument(where + "'" + e.name + "' appears twice (first on line " +
                                  std::to_string(line_of[it->second]) + ")");
    if (!(e.T_K > 0)) throw std::invalid_argument(where + "temperatures are in kelvin and must be positive");
    line_of[it->second] = e.line;
    T[it->second] = e.T_K;
  }
  for (std::size_t i = 0; i < T.size(); ++i)
    if (!line_of[i])
      throw std::invalid_argument(source + ": no temperature for node '" + state_names_[i] + "' (" +
                                  std::to_string(state_names_.size()) + " nodes, each on one line)");
  return T;
}

void plant::start(double dt_s) {
  if (streams_.empty()) {
    // Exponential stepping is exact but dense (n^2 memory, n^3 set-up): beyond a few
    // hundred nodes the sparse backward-Euler sub-steps are the only affordable choice.
    constexpr std::size_t max_exponential_nodes = 500;
    const auto method = cfg_.method.value_or(net_.size() <= max_exponential_nodes ? integration_method::exponential
                                                                                  : integration_method::backward_euler);
    solver_ = std::make_unique<transient_solver>(net_, dt_s, cfg_.substeps, cfg_.ambient.value(), method);
    node_power_.assign(net_.size(), 0.0);
  } else {
    for (auto& s : streams_) s->start_transient(dt_s);
  }
  refresh();
}

void plant::set_state(const std::vector<double>& T_K) {
  if (T_K.size() != state_names_.size()) throw std::invalid_argument("plant: one temperature per node");
  if (streams_.empty()) {
    solver_->set_temperatures(T_K);
  } else {
    std::size_t k = 0;
    for (auto& s : streams_)
      for (std::size_t d = 0; d < s->dies(); ++d, ++k) {
        const std::size_t n = s->model(d).net.size();
        const auto first = T_K.begin() + static_cast<std::ptrdiff_t>(state_offset_[k]);
        s->set_temperatures(d, std::vector<double>(first, first + static_cast<std::ptrdiff_t>(n)));
      }
  }
  refresh();
}

void plant::set_steady(const double* block_W) {
  if (streams_.empty()) {
    std::fill(node_power_.begin(), node_power_.end(), 0.0);
    for (std::size_t b = 0; b < blocks_.size(); ++b) node_power_[b] = block_W[b];
    solver_->set_temperatures(steady_state(net_, node_power_, cfg_.ambient.value()));
  } else {
    for (std::size_t b = 0; b < blocks_.size(); ++b) {
      const place& p = block_place_[b];
      die_W_[p.stream][p.die][p.local] = block_W[b];
    }
    std::vector<double> inlets;
    for (std::size_t s = 0; s < streams_.size(); ++s) {
      const auto T = streams_[s]->steady(die_W_[s], &inlets);
      for (std::size_t d = 0; d < T.size(); ++d) streams_[s]->set_temperatures(d, T[d]);
    }
    refresh();
    node_T_ = inlets;  // the steady air temperatures, until the first step
    return;
  }
  refresh();
}

void plant::step(const double* block_W) {
  if (streams_.empty()) {
    // Block nodes are the network's first nodes, in floorplan order.
    for (std::size_t b = 0; b < blocks_.size(); ++b) node_power_[b] = block_W[b];
    solver_->step(node_power_.data());
  } else {
    for (std::size_t b = 0; b < blocks_.size(); ++b) {
      const place& p = block_place_[b];
      die_W_[p.stream][p.die][p.local] = block_W[b];
    }
    for (std::size_t s = 0; s < streams_.size(); ++s) streams_[s]->step(die_W_[s]);
  }
  refresh();
}

void plant::refresh() {
  if (streams_.empty()) {
    const auto& T = solver_->temperatures();
    for (std::size_t b = 0; b < blocks_.size(); ++b) block_T_[b] = T[b];
    for (std::size_t i = 0; i < node_index_.size(); ++i) node_T_[i] = T[node_index_[i]];
    return;
  }
  // Silicon node j of a die's block model is its block j.
  for (std::size_t b = 0; b < blocks_.size(); ++b) {
    const place& p = block_place_[b];
    block_T_[b] = streams_[p.stream]->temperatures(p.die)[p.local];
  }
  std::size_t k = 0;
  for (const auto& s : streams_) {
    // Before the first step the inlets are the ambient (start_transient) or, after
    // set_steady, the steady ones.
    for (std::size_t d = 0; d < s->dies(); ++d) node_T_[k++] = s->inlets_K()[d];
  }
}

void plant::set_fan_speed(double s) {
  for (auto& st : streams_) st->set_fan_speed(s);
}

double plant::fan_speed() const { return streams_.empty() ? 0.0 : streams_.front()->fan_speed(); }

double plant::fan_power_W() const {
  double p = 0;
  for (const auto& s : streams_) p += s->fan_power_W();
  return p;
}

}  // namespace ptsim::thermal
