#include "ptsim/cosim/control_loop.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <optional>
#include <stdexcept>

namespace ptsim::cosim {

/// A zone's sensor: which temperature it follows (a block or package node; none = the
/// hottest block) through its lag and noise.
struct control_loop::zone_reader {
  enum class source { hottest, block, node } from = source::hottest;
  std::size_t index = 0;
  thermal::sensor s;
  double truth(const std::vector<double>& blocks, const std::vector<double>& nodes) const {
    switch (from) {
      case source::block: return blocks[index];
      case source::node: return nodes[index];
      case source::hottest: break;
    }
    return *std::max_element(blocks.begin(), blocks.end());
  }
};

// A component as the loop sees it: its kind's power model, its DVFS domain (if any) and
// the floorplan block its heat goes to.
struct control_loop::component {
  std::unique_ptr<power::component_power_model> model;
  std::size_t domain = scenarios::component_ref::none;
  std::size_t block = 0;
};

const char* to_string(throttle_reason r) {
  switch (r) {
    case throttle_reason::none: return "none";
    case throttle_reason::thermal: return "thermal";
    case throttle_reason::power: return "power";
    case throttle_reason::board_power: return "board power";
  }
  return "?";
}

// A domain's board power limit (policy.limits.<d>.power): a power_capper of its own over the
// board's power, cutting only this domain's clock.
struct board_limit {
  std::unique_ptr<power::power_capper> capper;
  std::vector<power::capped_domain> capped;  // this domain alone
  std::vector<std::size_t> board;            // component indices whose power counts
  double limit_W = 0;
  double recovery_s = 0;                     // policy.limits.<d>.recovery
  double ramp_hz = 1e30;                     // the climbing ceiling, between OPPs (recovery_s > 0)
};

struct control_loop::domain {
  const power::dvfs_domain_config* cfg;
  std::unique_ptr<power::cpufreq_governor> gov;
  double min_hz, max_hz;    // policy range (policy.limits; the table's ends when none)
  double ceiling_hz;        // thermal limit (table max when none)
  double memory_ceiling_hz; // a memory domain's own temperature limit (table max when none)
  double power_ceiling_hz;  // power-cap limit (table max when none)
  double board_ceiling_hz;  // board power limit (table max when none)
  std::unique_ptr<board_limit> limit;  // none without policy.limits.<d>.power
  double request_hz;        // the governor's last request
  double target_hz;         // what the domain was last set to
  std::vector<std::size_t> comps;
  double last_activity = 0;  // summed activity of its units, for IPA's power estimates
};

control_loop::control_loop(const scenarios::scenario& sc)
    : sc_(sc), period_s_(sc.control_period.value()), plant_(sc.thermal) {
  start_domains();
  start_plant();
  start_components();
  start_zones();
  zone_reading_.assign(zones_.size(), 0.0);
  block_temp_ = plant_.block_temperatures_K();
  update_sensors(true);
  start_power_cap();
  start_memory_throttles();
  start_board_limits();
  size_outputs();
  for (const auto& c : sc_.workload.scheduler.cpus) sched_cpu_names_.push_back(c.unit);
  for (const auto& t : tlm_config::sched_tasks(sc_.workload)) sched_task_names_.push_back(t.name);
  sched_cpu_util_.assign(sched_cpu_names_.size(), 0.0);
  sched_task_util_.assign(sched_task_names_.size(), 0.0);
}

std::size_t control_loop::domain_index(const std::string& n) const {
  for (std::size_t i = 0; i < domain_names_.size(); ++i)
    if (domain_names_[i] == n) return i;
  throw std::invalid_argument("unknown domain '" + n + "'");
}

// Domains and their cpufreq governors.
void control_loop::start_domains() {
  for (const auto& d : sc_.domains) {
    domain_names_.push_back(d.name);
    domain dm;
    dm.cfg = &d;
    const auto& choice = sc_.policy.governor_for(d);
    dm.gov = power::governor_registry::instance().create(choice.name, choice.values);
    dm.gov->start(d.opps, d.transition_latency.value());
    dm.ceiling_hz = d.opps.max_hz();
    dm.memory_ceiling_hz = d.opps.max_hz();
    dm.power_ceiling_hz = d.opps.max_hz();
    dm.board_ceiling_hz = d.opps.max_hz();
    const power::domain_limits* lim = sc_.policy.limits_for(d.name);
    dm.min_hz = lim ? lim->min_hz : d.opps.min_hz();
    dm.max_hz = lim ? lim->max_hz : d.opps.max_hz();
    dm.request_hz = dm.target_hz = 0;
    doms_.push_back(std::move(dm));
  }
}

// The floorplan in its package (thermal::plant): power in and temperatures out per block.
void control_loop::start_plant() {
  block_names_ = plant_.block_names();
  plant_.start(period_s_);
  if (sc_.thermal.initial == thermal::initial_state::file)
    plant_.set_state(plant_.state_from(sc_.thermal.initial_temperatures, sc_.thermal.initial_file));
  block_power_.assign(block_names_.size(), 0.0);
}

// Components, by index as resolved: their kind's power model, domain and block.
void control_loop::start_components() {
  for (const auto& ref : sc_.components) {
    component c;
    c.model = sc_.power[ref.power].make_model();
    c.domain = ref.domain;
    c.block = ref.block;
    if (c.domain != scenarios::component_ref::none) doms_[c.domain].comps.push_back(comps_.size());
    component_names_.push_back(ref.name);
    comps_.push_back(std::move(c));
  }
  inputs_ = comps_.size();
  if (plant_.has_fans()) component_names_.push_back("fans");
  if (sc_.base_power_W > 0) component_names_.push_back("base");
}

// A zone and its sensor. Each sensor draws its noise from its own stream of the
// scenario's seed, so that adding a zone does not change another's readings.
std::size_t control_loop::add_zone(const std::string& name, const power::zone_sensor& zs) {
  zone_reader z{zone_reader::source::hottest, 0,
                thermal::sensor(period_s_, zs.time_constant_s, zs.noise_K,
                                sc_.seed ^ (0x9E3779B97F4A7C15ull * (zones_.size() + 1)))};
  const auto& nodes = plant_.node_names();
  if (!zs.node.empty()) {
    const auto b = std::find(block_names_.begin(), block_names_.end(), zs.node);
    const auto n = std::find(nodes.begin(), nodes.end(), zs.node);
    if (b != block_names_.end()) z.from = zone_reader::source::block, z.index = static_cast<std::size_t>(b - block_names_.begin());
    else if (n != nodes.end()) z.from = zone_reader::source::node, z.index = static_cast<std::size_t>(n - nodes.begin());
    else throw std::invalid_argument("thermal zone '" + name + "': no block or node '" + zs.node + "'");
  }
  zones_.push_back(std::move(z));
  zone_names_.push_back(name);
  return zones_.size() - 1;
}

// Thermal zones: policy.thermal (cooling every domain unless it names its devices),
// then policy.thermal_zones in order; each with its sensor and governor, bound to its
// cooling devices by name. Zones without a governor ("none") do nothing and read nothing.
void control_loop::start_zones() {
  if (plant_.has_fans()) plant_.set_fan_speed(sc_.thermal.datacenter.fan_speed);
  std::vector<const power::thermal_zone_spec*> specs{&sc_.policy.thermal};
  for (const auto& z : sc_.policy.zones) specs.push_back(&z);
  for (const power::thermal_zone_spec* spec : specs) {
    if (spec->governor == "none") continue;
    std::vector<power::cooler*> devices;
    for (const auto& n : spec->cooling.empty() ? compute_domain_names() : spec->cooling) devices.push_back(&cooler_named(n));
    add_zone(spec->name, spec->sensor);
    tzones_.emplace_back(spec->name, power::thermal_governor_registry::instance().create(spec->governor, spec->values),
                         spec->zone, std::move(devices));
  }
}

// The cooling device of that name, made at its first use: a DVFS domain's thermal
// ceiling, or the fans (thermal.datacenter.fan: min_speed to max_speed in levels steps).
power::cooler& control_loop::cooler_named(const std::string& n) {
  for (auto& c : coolers_)
    if (c->name() == n) return *c;
  if (n == power::fans_cooling_name) {
    if (!plant_.has_fans()) throw std::invalid_argument("the fans as a cooling device need thermal.model: datacenter");
    const auto& dc = sc_.thermal.datacenter;
    coolers_.push_back(std::make_unique<power::fan_cooler>(dc.min_speed, dc.max_speed, dc.fan_levels,
                                                           [this](double s) { plant_.set_fan_speed(s); }));
    return *coolers_.back();
  }
  const std::size_t d = domain_index(n);
  power::dvfs_cooler::hooks h;
  h.power_at_opps = [this, d](std::vector<double>& out) { estimate_power_at_opps(d, out); };
  h.request_hz = [this, d] { return doms_[d].request_hz; };
  h.set_ceiling = [this, d](double hz) { doms_[d].ceiling_hz = hz; };
  coolers_.push_back(std::make_unique<power::dvfs_cooler>(n, doms_[d].cfg->opps, std::move(h)));
  return *coolers_.back();
}

// The domains that clock compute units: a zone or cap that names no domains acts on these
// (a memory domain is cut by its own temperature limit, or where a policy names it).
std::vector<std::string> control_loop::compute_domain_names() const {
  std::vector<std::string> out;
  for (const auto& d : sc_.domains)
    if (!d.memory) out.push_back(d.name);
  return out;
}

// Memories' own temperature limits, each on its memory's block and domain.
void control_loop::start_memory_throttles() {
  for (const auto& t : sc_.policy.memory_throttles) {
    memory_limit m;
    m.spec = &t;
    m.domain = domain_index(t.domain);
    // A ceiling between two OPPs is the one below it, as a driver maps a maximum.
    const auto& opps = doms_[m.domain].cfg->opps;
    m.ceiling_hz = opps.frequency_hz(opps.index_at_most(t.ceiling_hz));
    bool found = false;
    for (std::size_t i = 0; i < sc_.components.size(); ++i)
      if (sc_.components[i].name == t.component) m.block = comps_[i].block, found = true;
    if (!found) throw std::invalid_argument("memory throttle: no component '" + t.component + "'");
    mem_limits_.push_back(m);
  }
  mem_hot_.assign(mem_limits_.size(), false);
}

// Each memory's limit from its block's temperature after this period's step: over the limit
// its domain's ceiling is the throttle clock, until it cools below limit - hysteresis.
void control_loop::memory_throttle_update() {
  for (auto& d : doms_) d.memory_ceiling_hz = d.cfg->opps.max_hz();
  for (std::size_t k = 0; k < mem_limits_.size(); ++k) {
    const memory_limit& m = mem_limits_[k];
    const double T = block_temp_[m.block];
    if (T >= m.spec->temp_K) mem_hot_[k] = true;
    else if (T < m.spec->temp_K - m.spec->hysteresis_K) mem_hot_[k] = false;
    if (mem_hot_[k]) doms_[m.domain].memory_ceiling_hz = std::min(doms_[m.domain].memory_ceiling_hz, m.ceiling_hz);
  }
}

const std::string& control_loop::memory_limit_component(std::size_t k) const { return mem_limits_[k].spec->component; }
double control_loop::memory_limit_K(std::size_t k) const { return mem_limits_[k].spec->temp_K; }
double control_loop::memory_limit_block_K(std::size_t k) const { return block_temp_[mem_limits_[k].block]; }
std::size_t control_loop::memory_limit_domain(std::size_t k) const { return mem_limits_[k].domain; }

std::optional<std::size_t> control_loop::memory_domain_of(std::size_t d) const {
  const auto m = sc_.memory_domain_of(d);
  return m == scenarios::component_ref::none ? std::nullopt : std::optional<std::size_t>(m);
}

// Power cap: the capped domains (default all).
void control_loop::start_power_cap() {
  const auto& pc = sc_.policy.power_cap;
  if (!pc) return;
  capper_ = std::make_unique<power::power_capper>(*pc, period_s_);
  std::vector<std::string> names = pc->domains.empty() ? compute_domain_names() : pc->domains;
  for (const auto& n : names) {
    const std::size_t di = domain_index(n);
    power::capped_domain cd;
    cd.opps = &doms_[di].cfg->opps;
    cd.ceiling_hz = cd.opps->max_hz();
    cd.low_priority = std::find(pc->low_priority.begin(), pc->low_priority.end(), n) != pc->low_priority.end();
    capped_.push_back(cd);
    capped_domain_.push_back(di);
  }
}

// Board power limits: one capper per limited domain over its board's components. The capper
// aims 1 % under the limit: regulating to the limit itself leaves a run's average on it,
// above it half the time by the ripple of discrete clocks under changing load, where a GPU
// board's average settles just under its limit (headroom illustrative).
constexpr double board_limit_target = 0.99;

void control_loop::start_board_limits() {
  for (std::size_t d = 0; d < doms_.size(); ++d) {
    const power::domain_limits* lim = sc_.policy.limits_for(domain_names_[d]);
    if (!lim || !lim->power_W) continue;
    auto bl = std::make_unique<board_limit>();
    power::power_cap_config pc;
    pc.limit_W = *lim->power_W * board_limit_target;
    pc.window_s = lim->window_s;
    pc.settle_s = lim->settle_s;
    bl->capper = std::make_unique<power::power_capper>(pc, period_s_);
    bl->limit_W = *lim->power_W;
    bl->recovery_s = lim->recovery_s;
    power::capped_domain cd;
    cd.opps = &doms_[d].cfg->opps;
    cd.ceiling_hz = cd.opps->max_hz();
    bl->capped.push_back(cd);
    for (const auto& n : lim->components) {
      const auto it = std::find(component_names_.begin(), component_names_.begin() + static_cast<std::ptrdiff_t>(inputs_), n);
      if (it == component_names_.begin() + static_cast<std::ptrdiff_t>(inputs_))
        throw std::invalid_argument("policy.limits." + domain_names_[d] + ": unknown component '" + n + "'");
      bl->board.push_back(static_cast<std::size_t>(it - component_names_.begin()));
    }
    doms_[d].limit = std::move(bl);
  }
}

void control_loop::size_outputs() {
  comp_power_.assign(component_names_.size(), 0.0);
  low_power_share_.assign(component_names_.size(), 0.0);
  dom_util_.assign(doms_.size(), 0.0);
  dom_hz_.assign(doms_.size(), 0.0);
  dom_v_.assign(doms_.size(), 0.0);
  dom_ceiling_.assign(doms_.size(), 0.0);
  dom_request_.assign(doms_.size(), 0.0);
  dom_throttled_.assign(doms_.size(), false);
  dom_reason_.assign(doms_.size(), throttle_reason::none);
  for (std::size_t d = 0; d < doms_.size(); ++d) dom_ceiling_[d] = doms_[d].ceiling_hz;
}

control_loop::~control_loop() = default;

std::vector<std::pair<double, double>> control_loop::initial_points() {
  std::vector<std::pair<double, double>> pts;
  for (auto& d : doms_) {
    power::cpufreq_sample s;
    s.now_s = 0;
    s.period_s = period_s_;
    s.utilization = 0;
    s.cur_hz = d.cfg->opps.max_hz();
    s.policy_min_hz = d.min_hz;
    s.policy_max_hz = d.max_hz;
    // A fresh governor instance so the run's governor state starts clean.
    const auto& choice = sc_.policy.governor_for(*d.cfg);
    auto g = power::governor_registry::instance().create(choice.name, choice.values);
    g->start(d.cfg->opps, d.cfg->transition_latency.value());
    const double hz = std::clamp(g->update(s), d.min_hz, d.max_hz);
    const std::size_t i = d.cfg->opps.index_at_most(hz);
    d.target_hz = d.cfg->opps.frequency_hz(i);
    pts.emplace_back(d.cfg->opps.frequency_hz(i), d.cfg->opps.voltage_v(i));
  }
  return pts;
}

namespace {
// The scenario speaks degC; the thermal library kelvin.
std::string fmt_degC(double kelvin) {
  char b[64];
  std::snprintf(b, sizeof b, "%.1f degC", kelvin - 273.15);
  return b;
}
}  // namespace

// The thermal library's report (kelvin, network node) rephrased for the scenario's reader:
// the floorplan block (or package node) by name, degC, and the simulated time.
thermal::divergence_error control_loop::runaway_in_user_terms(const thermal::divergence_error& e) const {
  const std::string name = e.node_name.empty() ? "?" : e.node_name;
  const bool is_block = std::find(block_names_.begin(), block_names_.end(), name) != block_names_.end();
  const std::string where = is_block ? "block" : "node";
  std::string msg = "thermal runaway: " + where + " '" + name + "' ";
  if (std::isfinite(e.temperature_K)) {
    msg += "reached " + fmt_degC(e.temperature_K);
    if (std::isfinite(e.limit_K)) msg += " (limit " + fmt_degC(e.limit_K) + ")";
  } else {
    msg += "has a temperature that is not finite";
  }
  char t[64];
  std::snprintf(t, sizeof t, " at t = %.9g s", e.time_s);
  msg += t;
  return thermal::divergence_error(msg, e.node, e.time_s, e.temperature_K, e.limit_K);
}

const std::vector<dvfs_decision>& control_loop::tick(double now_s, const std::vector<component_input>& in,
                                                     const std::vector<domain_input>& dom_in) {
  decisions_.clear();
  component_power_phase(in, dom_in);
  thermal_phase();
  // 3. Thermal zones, each at its polling period: its cooling devices' ceilings (a
  //    domain's frequency, the fans' speed).
  for (std::size_t z = 0; z < tzones_.size(); ++z) tzones_[z].poll(now_s, zone_reading_[z]);
  // 4. Power cap: ceilings from the platform power just measured.
  if (capper_) power_cap_update();
  // 4b. Memories' own temperature limits (HBM throttling), on their blocks' temperatures.
  if (!mem_limits_.empty()) memory_throttle_update();
  // 4c. Board power limits: each limited domain's ceiling from its board's power.
  board_limit_update();
  dvfs_phase(now_s, in, dom_in);
  return decisions_;
}

// 1. Power of every component over the period from its kind's model, with leakage at its
//    block's current temperature (explicit coupling: the temperature at the start of the
//    period); what the domains' governors read (utilisation, activity) on the way.
void control_loop::component_power_phase(const std::vector<component_input>& in,
                                         const std::vector<domain_input>& dom_in) {
  static const domain_input no_domain{};
  for (auto& d : doms_) d.last_activity = 0;
  std::fill(dom_util_.begin(), dom_util_.end(), 0.0);
  platform_power_ = 0;
  for (std::size_t i = 0; i < comps_.size(); ++i) {
    component& c = comps_[i];
    const bool in_domain = c.domain != scenarios::component_ref::none;
    const power::power_sample s =
        c.model->step(in[i], in_domain ? dom_in[c.domain] : no_domain, block_temp_[c.block], period_s_);
    low_power_share_[i] = s.low_power_share;
    if (in_domain) {
      dom_util_[c.domain] = std::max(dom_util_[c.domain], s.busy);
      doms_[c.domain].last_activity = std::max(doms_[c.domain].last_activity, s.activity);
    }
    comp_power_[i] = s.watts;
    platform_power_ += s.watts;
  }
  // The rows after the components: the fans, at the speed the fan zone last set, then
  // the platform's base power.
  std::size_t row = comps_.size();
  if (plant_.has_fans()) {
    comp_power_[row] = plant_.fan_power_W();
    platform_power_ += comp_power_[row++];
  }
  if (sc_.base_power_W > 0) {
    comp_power_[row] = sc_.base_power_W;
    platform_power_ += comp_power_[row];
  }
  // Wall power after them: they draw through the same supply.
  wall_power_ = power::wall_power_W(sc_.supply, platform_power_);
  for (std::size_t d = 0; d < doms_.size(); ++d) {
    dom_hz_[d] = dom_in[d].avg_hz;
    dom_v_[d] = dom_in[d].avg_volts;
  }
}

// 2. Temperature: heat into each component's block. A steady start puts the network in
//    the steady state of this first period's power, so it starts with dT/dt = 0.
void control_loop::thermal_phase() {
  std::fill(block_power_.begin(), block_power_.end(), 0.0);
  for (std::size_t i = 0; i < comps_.size(); ++i) block_power_[comps_[i].block] += comp_power_[i];
  if (first_tick_ && sc_.thermal.initial == thermal::initial_state::steady) {
    plant_.set_steady(block_power_.data());
    update_sensors(true);
  }
  first_tick_ = false;
  try {
    plant_.step(block_power_.data());
  } catch (const thermal::divergence_error& e) {
    throw runaway_in_user_terms(e);
  }
  const auto& T = plant_.block_temperatures_K();
  std::copy(T.begin(), T.end(), block_temp_.begin());
  update_sensors(false);
}

// 6. cpufreq governors within the domain's range, then the ceilings (thermal, power cap,
//    board power limit; power::limited_frequency) onto the table.
void control_loop::dvfs_phase(double now_s, const std::vector<component_input>& in,
                              const std::vector<domain_input>& dom_in) {
  for (std::size_t d = 0; d < doms_.size(); ++d) {
    domain& dm = doms_[d];
    const auto& opps = dm.cfg->opps;
    power::cpufreq_sample s;
    s.now_s = now_s;
    s.period_s = period_s_;
    s.utilization = dom_util_[d];
    double stall = 0;
    for (std::size_t ci : dm.comps) stall = std::max(stall, in[ci].stall_share);
    s.iowait_share = stall;
    s.sched_util = dom_in[d].sched_util;
    s.cur_hz = dom_in[d].avg_hz;  // what the domain actually ran at (frequency-invariant util)
    s.policy_min_hz = dm.min_hz;
    s.policy_max_hz = dm.max_hz;
    // The range bounds every governor's request (scaling_min/max_freq), whatever it asks.
    dm.request_hz = std::clamp(dm.gov->update(s), dm.min_hz, dm.max_hz);
    dom_request_[d] = dm.request_hz;
    // A memory's own temperature limit is a thermal ceiling too (max of the table unless hot).
    const double thermal_ceiling = std::min(dm.ceiling_hz, dm.memory_ceiling_hz);
    const double ceiling = std::min({thermal_ceiling, dm.power_ceiling_hz, dm.board_ceiling_hz});
    const std::size_t idx = opps.index_at_most(power::limited_frequency(dm.request_hz, dm.min_hz, dm.max_hz, ceiling));
    const double hz = opps.frequency_hz(idx);
    dom_throttled_[d] = hz < dm.request_hz - 0.5;
    // The binding limit is the lowest ceiling; a tie goes to thermal (the safety limit),
    // then to the domain's own board limit.
    dom_reason_[d] = !dom_throttled_[d]                                ? throttle_reason::none
                     : thermal_ceiling <= ceiling                      ? throttle_reason::thermal
                     : dm.board_ceiling_hz <= dm.power_ceiling_hz      ? throttle_reason::board_power
                                                                       : throttle_reason::power;
    dom_ceiling_[d] = ceiling;
    if (hz != dm.target_hz) {
      dm.target_hz = hz;
      decisions_.push_back({d, hz, opps.voltage_v(idx), dom_reason_[d]});
    }
  }
}

void control_loop::update_sensors(bool reset) {
  const auto& nodes = plant_.node_temperatures_K();
  for (std::size_t z = 0; z < zones_.size(); ++z) {
    const double t = zones_[z].truth(block_temp_, nodes);
    if (reset) zones_[z].s.reset(t);
    else zones_[z].s.update(t);
    zone_reading_[z] = zones_[z].s.reading();
  }
}

void control_loop::estimate_power_at_opps(std::size_t d, std::vector<double>& out) const {
  const domain& dm = doms_[d];
  const auto& opps = dm.cfg->opps;
  out.assign(opps.size(), 0.0);
  for (std::size_t ci : dm.comps) {
    const component& c = comps_[ci];
    c.model->add_at_opps_W(opps, dm.last_activity, block_temp_[c.block], out);
  }
}

void control_loop::power_cap_update() {
  for (std::size_t k = 0; k < capped_.size(); ++k) {
    const std::size_t d = capped_domain_[k];
    estimate_power_at_opps(d, capped_[k].power_at_opp_W);
    double measured = 0;
    for (std::size_t ci : doms_[d].comps) measured += comp_power_[ci];
    capped_[k].measured_power_W = measured;
  }
  capper_->update(platform_power_, capped_);
  for (std::size_t k = 0; k < capped_.size(); ++k) doms_[capped_domain_[k]].power_ceiling_hz = capped_[k].ceiling_hz;
}

double control_loop::capped_average_W() const { return capper_ ? capper_->average_W() : 0.0; }

void control_loop::board_limit_update() {
  for (std::size_t d = 0; d < doms_.size(); ++d) {
    domain& dm = doms_[d];
    if (!dm.limit) continue;
    board_limit& bl = *dm.limit;
    power::capped_domain& cd = bl.capped.front();
    estimate_power_at_opps(d, cd.power_at_opp_W);
    double own = 0, board = 0;
    for (std::size_t ci : dm.comps) own += comp_power_[ci];
    for (std::size_t ci : bl.board) board += comp_power_[ci];
    cd.measured_power_W = own;
    bl.capper->update(board, bl.capped);
    if (bl.recovery_s > 0) {
      // The climb is continuous (bl.ramp_hz); the clock takes the highest OPP it has reached.
      const auto& opps = dm.cfg->opps;
      bl.ramp_hz = power::recovered_ceiling(bl.ramp_hz, cd.ceiling_hz, opps.min_hz(), opps.max_hz(), period_s_,
                                            bl.recovery_s);
      cd.ceiling_hz = opps.frequency_hz(opps.index_at_most(bl.ramp_hz));
    }
    dm.board_ceiling_hz = cd.ceiling_hz;
  }
}

double control_loop::board_average_W(std::size_t d) const {
  return doms_[d].limit ? doms_[d].limit->capper->average_W() : 0.0;
}

double control_loop::board_limit_W(std::size_t d) const { return doms_[d].limit ? doms_[d].limit->limit_W : 0.0; }

}  // namespace ptsim::cosim
