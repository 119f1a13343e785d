#include "ptsim/thermal/datacenter_package.hpp"

#include <cmath>
#include <stdexcept>
#include <string>

namespace ptsim::thermal {

double convection_resistance(double r_convec_ref_K_per_W, double fan_speed, double flow_exponent) {
  if (!(fan_speed > 0)) throw std::invalid_argument("convection_resistance: the fan speed must be positive");
  return r_convec_ref_K_per_W * std::pow(fan_speed, -flow_exponent);
}

double convection_resistance(const stream_die& d, double fan_speed) {
  if (!d.sink) return convection_resistance(d.package.r_convec, fan_speed, d.flow_exponent);
  if (!(fan_speed > 0)) throw std::invalid_argument("convection_resistance: the fan speed must be positive");
  sink_fan_config c = *d.sink;
  c.rpm *= fan_speed;
  const double r = forced_convection_r(c, d.package.s_sink, d.package.k_sink);
  if (!std::isfinite(r) || !(r > 0))
    throw std::invalid_argument("die '" + d.name + "': its sink and fan give no finite convection resistance (check " +
                                "fin, channel and pin sizes against s_sink, and motor_radius < fan_radius)");
  return r;
}

air_stream::at_speed air_stream::build(double s) {
  at_speed a;
  a.speed = s;
  models_r_.emplace_back();
  for (const stream_die& d : cfg_.dies) {
    package_config p = d.package;
    p.r_convec = convection_resistance(d, s);
    models_r_.back().push_back(p.r_convec);
    a.models.push_back(make_block_compact_model(d.fp, p));
  }
  if (dt_s_ > 0)
    for (const compact_model& m : a.models)
      a.solvers.push_back(
          std::make_unique<transient_solver>(m.net, dt_s_, 1, cfg_.inlet_K, integration_method::exponential));
  return a;
}

air_stream::air_stream(const air_stream_config& cfg) : cfg_(cfg) {
  if (cfg.dies.empty()) throw std::invalid_argument("air_stream: no dies");
  if (!(cfg.fan_speed > 0) || !(cfg.fan.flow_ref_m3_per_s > 0) || !(cfg.air_density_kg_per_m3 > 0) ||
      !(cfg.air_cp_J_per_kgK > 0))
    throw std::invalid_argument("air_stream: fan speed, air flow, density and c_p must be positive");
  speeds_.push_back(build(cfg.fan_speed));
  inlets_.assign(dies(), cfg.inlet_K);
  heat_.assign(dies(), 0.0);
}

air_stream::~air_stream() = default;

double air_stream::air_capacity_rate_W_per_K() const {
  return cfg_.air_density_kg_per_m3 * cfg_.fan.flow_m3_per_s(fan_speed()) * cfg_.air_cp_J_per_kgK;
}

double air_stream::fan_power_W() const { return cfg_.fan.power_W(fan_speed()); }

void air_stream::set_fan_speed(double s) {
  if (!(s > 0) || !std::isfinite(s)) throw std::invalid_argument("air_stream: the fan speed must be positive");
  if (s == fan_speed()) return;
  std::size_t k = 0;
  while (k < speeds_.size() && speeds_[k].speed != s) ++k;
  if (k == speeds_.size()) speeds_.push_back(build(s));
  // The nodes keep their temperatures; only the sinks' convection changes.
  if (dt_s_ > 0)
    for (std::size_t d = 0; d < dies(); ++d) speeds_[k].solvers[d]->set_temperatures(speeds_[cur_].solvers[d]->temperatures());
  cur_ = k;
}

std::vector<std::vector<double>> air_stream::steady(const std::vector<std::vector<double>>& block_W,
                                                    std::vector<double>* inlets_K) const {
  if (block_W.size() != dies()) throw std::invalid_argument("air_stream: one power vector per die");
  std::vector<std::vector<double>> out;
  double air = cfg_.inlet_K;
  std::vector<double> p;
  for (std::size_t k = 0; k < dies(); ++k) {
    if (inlets_K) inlets_K->push_back(air);
    const compact_model& m = models()[k];
    if (block_W[k].size() != m.inputs.size())
      throw std::invalid_argument("air_stream: die '" + cfg_.dies[k].name + "' needs one power per block");
    m.node_power(block_W[k].data(), p);
    out.push_back(steady_state(m.net, p, air));
    // In the steady state all of the die's power reaches the air.
    double q = 0;
    for (double w : block_W[k]) q += w;
    air += q / air_capacity_rate_W_per_K();
  }
  return out;
}

void air_stream::start_transient(double dt_s) {
  if (!(dt_s > 0)) throw std::invalid_argument("air_stream: the time step must be positive");
  dt_s_ = dt_s;
  for (at_speed& a : speeds_) {
    a.solvers.clear();
    for (const compact_model& m : a.models)
      a.solvers.push_back(
          std::make_unique<transient_solver>(m.net, dt_s, 1, cfg_.inlet_K, integration_method::exponential));
  }
  inlets_.assign(dies(), cfg_.inlet_K);
  heat_.assign(dies(), 0.0);
}

void air_stream::set_temperatures(std::size_t die, const std::vector<double>& T_K) {
  if (dt_s_ <= 0) throw std::logic_error("air_stream: call start_transient first");
  speeds_[cur_].solvers.at(die)->set_temperatures(T_K);
}

void air_stream::step(const std::vector<std::vector<double>>& block_W) {
  if (dt_s_ <= 0) throw std::logic_error("air_stream: call start_transient first");
  if (block_W.size() != dies()) throw std::invalid_argument("air_stream: one power vector per die");
  at_speed& cur = speeds_[cur_];
  double air = cfg_.inlet_K;
  for (std::size_t k = 0; k < dies(); ++k) {
    const compact_model& m = cur.models[k];
    transient_solver& s = *cur.solvers[k];
    inlets_[k] = air;
    m.node_power(block_W[k].data(), node_p_);
    // A warmer inlet is a warmer ambient: g_amb (T_air - T_in) more drive on air-side nodes.
    const double rise = air - cfg_.inlet_K;
    for (std::size_t i = 0; i < node_p_.size(); ++i) node_p_[i] += m.net.ambient_conductance(i) * rise;
    const double e0 = s.ambient_energy_J();
    s.step(node_p_.data());
    // The solver counts heat to its ambient T_in; the local air is warmer by `rise`.
    double g_total = 0;
    for (std::size_t i = 0; i < node_p_.size(); ++i) g_total += m.net.ambient_conductance(i);
    heat_[k] = (s.ambient_energy_J() - e0) / s.dt() - g_total * rise;
    air += heat_[k] / air_capacity_rate_W_per_K();
  }
}

const std::vector<double>& air_stream::temperatures(std::size_t die) const {
  if (dt_s_ <= 0) throw std::logic_error("air_stream: call start_transient first");
  return speeds_[cur_].solvers.at(die)->temperatures();
}

}  // namespace ptsim::thermal
