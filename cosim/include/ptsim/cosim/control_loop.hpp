#pragma once
// The closed loop, as plain C++: every control period it turns what the platform did
// into power, power into temperature, and utilisation, temperature and power into new
// operating points. The SystemC adapter (loop_module) only gathers inputs and applies
// the decisions, so this part runs and is tested without a kernel.
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "ptsim/power/component_power_model.hpp"
#include "ptsim/power/governor.hpp"
#include "ptsim/power/power_cap.hpp"
#include "ptsim/power/thermal_governor.hpp"
#include "ptsim/power/thermal_zone.hpp"
#include "ptsim/scenarios/scenario.hpp"
#include "ptsim/thermal/plant.hpp"
#include "ptsim/thermal/sensor.hpp"

namespace ptsim::cosim {

/// What one component did in the period that just ended (power/component_power_model.hpp).
using component_input = power::component_activity;

/// A domain's electrical averages over the period (from its clock).
using domain_input = power::domain_electrical;

/// Why a domain runs below its governor's request: a thermal zone, the platform power cap
/// (policy.power_cap), or the domain's own board power limit (policy.limits.<d>.power).
enum class throttle_reason { none, thermal, power, board_power };
const char* to_string(throttle_reason r);

/// A new operating point for a domain, decided at the end of a period.
struct dvfs_decision {
  std::size_t domain;
  double hz, volts;
  throttle_reason reason;  ///< what cut the request, if anything
};

class control_loop {
 public:
  explicit control_loop(const scenarios::scenario& sc);
  ~control_loop();

  const std::vector<std::string>& domain_names() const { return domain_names_; }
  /// Power rows: the platform's components (the tick's inputs, in this order), then
  /// "fans" when the thermal model has fans, then "base" when platform.base_power is above 0.
  const std::vector<std::string>& component_names() const { return component_names_; }
  /// How many leading component_names() take inputs (the platform's components).
  std::size_t input_components() const { return inputs_; }
  const std::vector<std::string>& block_names() const { return block_names_; }
  /// Package nodes reported besides the blocks (phone skins, datacenter inlets); may be empty.
  const std::vector<std::string>& node_names() const { return plant_.node_names(); }
  /// Thermal zones with a governor: "thermal" (policy.thermal), then policy.thermal_zones'
  /// keys in order (the library's fan zone is "fans").
  const std::vector<std::string>& zone_names() const { return zone_names_; }
  /// Starting point (Hz, V) of each domain: its governor's choice with no load.
  /// Called once, before the first tick.
  std::vector<std::pair<double, double>> initial_points();

  /// One control period [now - T, now). Inputs are indexed like component_names() and
  /// domain_names(). Returns the operating-point changes to apply now.
  /// Throws thermal::divergence_error on thermal runaway, its message naming the block,
  /// its temperature in degC and the simulated time.
  const std::vector<dvfs_decision>& tick(double now_s, const std::vector<component_input>& comps,
                                         const std::vector<domain_input>& doms);

  // Latest values, for the recorder (SI; temperatures in kelvin).
  const std::vector<double>& component_power_W() const { return comp_power_; }
  double platform_power_W() const { return platform_power_; }
  /// Power drawn at the wall for platform_power_W() through the VR and PSU stages.
  double wall_power_W() const { return wall_power_; }
  /// Share of the period each component spent in a low-power state: compute units in an
  /// idle state, memories in self-refresh (1).
  const std::vector<double>& component_low_power_share() const { return low_power_share_; }
  const std::vector<double>& block_temperature_K() const { return block_temp_; }
  const std::vector<double>& node_temperature_K() const { return plant_.node_temperatures_K(); }
  /// What each zone's sensor reads now (lag and noise included), like zone_names().
  const std::vector<double>& zone_sensor_K() const { return zone_reading_; }
  bool has_fans() const { return plant_.has_fans(); }
  double fan_speed() const { return plant_.fan_speed(); }
  const std::vector<double>& domain_utilization() const { return dom_util_; }
  const std::vector<double>& domain_avg_hz() const { return dom_hz_; }
  const std::vector<double>& domain_avg_volts() const { return dom_v_; }
  const std::vector<bool>& domain_throttled() const { return dom_throttled_; }
  const std::vector<throttle_reason>& domain_throttle_reason() const { return dom_reason_; }
  /// The domain's board power averaged over its limit's window (W); 0 without a limit.
  double board_average_W(std::size_t domain) const;
  /// The domain's board power limit (W); 0 without one.
  double board_limit_W(std::size_t domain) const;
  /// The lowest of the thermal, power-cap and board-power-limit ceilings (Hz).
  const std::vector<double>& domain_ceiling_hz() const { return dom_ceiling_; }
  /// The cpufreq governors' latest requests (Hz), before the ceilings.
  const std::vector<double>& domain_request_hz() const { return dom_request_; }
  /// Moving average of platform power over the power cap's window (W); 0 without a cap.
  double capped_average_W() const;
  /// The CPU scheduler's runqueues (unit names) and tasks (policy.scheduler: eas; else empty).
  const std::vector<std::string>& sched_cpu_names() const { return sched_cpu_names_; }
  const std::vector<std::string>& sched_task_names() const { return sched_task_names_; }
  /// What the scheduler reported for the period just ended (set before tick()): each
  /// runqueue's utilisation as schedutil reads it (clamped, / capacity) and each task's
  /// util_avg (0..1024).
  void set_sched_sample(const std::vector<double>& cpu_util, const std::vector<double>& task_util) {
    sched_cpu_util_.assign(cpu_util.begin(), cpu_util.end());
    sched_task_util_.assign(task_util.begin(), task_util.end());
  }
  const std::vector<double>& sched_cpu_util() const { return sched_cpu_util_; }
  const std::vector<double>& sched_task_util() const { return sched_task_util_; }

  // Memories' own temperature limits (memory components' throttle_temp), in the order of
  // scenario.policy.memory_throttles: whether each holds its domain's clock down now.
  const std::vector<bool>& memory_limit_hot() const { return mem_hot_; }
  const std::string& memory_limit_component(std::size_t k) const;
  double memory_limit_K(std::size_t k) const;
  /// The memory's block temperature now (what the limit reads).
  double memory_limit_block_K(std::size_t k) const;
  std::size_t memory_limit_domain(std::size_t k) const;
  /// The memory DVFS domain paired with compute domain d (scenario::memory_domain_of): the
  /// one the lead's policy.limits.<d>.memory_freq locks; none when d's memory has no clock.
  std::optional<std::size_t> memory_domain_of(std::size_t d) const;

 private:
  struct component;
  struct domain;
  struct zone_reader;
  // Construction, in order.
  void start_domains();
  void start_plant();
  void start_components();
  void start_zones();
  power::cooler& cooler_named(const std::string& name);
  void start_power_cap();
  void start_memory_throttles();
  void start_board_limits();
  void size_outputs();
  std::vector<std::string> compute_domain_names() const;
  void memory_throttle_update();
  std::size_t add_zone(const std::string& name, const power::zone_sensor& zs);
  std::size_t domain_index(const std::string& name) const;
  // One tick, in order (governor updates between thermal_phase and dvfs_phase).
  void component_power_phase(const std::vector<component_input>& in, const std::vector<domain_input>& dom_in);
  void thermal_phase();
  void dvfs_phase(double now_s, const std::vector<component_input>& in, const std::vector<domain_input>& dom_in);
  /// Every zone's sensor sees the temperatures of the step just taken.
  void update_sensors(bool reset);
  void power_cap_update();
  void board_limit_update();
  thermal::divergence_error runaway_in_user_terms(const thermal::divergence_error& e) const;
  /// Power of domain d at each of its OPPs under its last activity, at current temperatures.
  void estimate_power_at_opps(std::size_t d, std::vector<double>& out) const;

  const scenarios::scenario& sc_;
  double period_s_;
  std::vector<std::string> sched_cpu_names_, sched_task_names_;
  std::vector<double> sched_cpu_util_, sched_task_util_;
  std::vector<std::string> domain_names_, component_names_, block_names_;
  std::vector<component> comps_;
  std::size_t inputs_ = 0;  // comps_.size(), readable where component is incomplete
  std::vector<domain> doms_;
  thermal::plant plant_;
  std::vector<double> block_power_;
  // The thermal zones with a governor, their sensors and readings alike indexed.
  std::vector<zone_reader> zones_;
  std::vector<std::string> zone_names_;
  std::vector<double> zone_reading_;
  std::vector<std::unique_ptr<power::cooler>> coolers_;  // made at first use, by name
  std::vector<power::thermal_zone> tzones_;
  std::unique_ptr<power::power_capper> capper_;
  std::vector<power::capped_domain> capped_;
  std::vector<std::size_t> capped_domain_;
  bool first_tick_ = true;
  struct memory_limit {
    const power::memory_throttle* spec;
    std::size_t domain = 0, block = 0;
    double ceiling_hz = 0;  ///< the throttle clock on the table
  };
  std::vector<memory_limit> mem_limits_;
  std::vector<bool> mem_hot_;

  std::vector<double> comp_power_, block_temp_, dom_util_, dom_hz_, dom_v_, dom_ceiling_, dom_request_;
  std::vector<bool> dom_throttled_;
  std::vector<throttle_reason> dom_reason_;
  double platform_power_ = 0, wall_power_ = 0;
  std::vector<double> low_power_share_;
  std::vector<dvfs_decision> decisions_;
};

}  // namespace ptsim::cosim
