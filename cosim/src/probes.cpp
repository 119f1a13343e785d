#include "probes.hpp"

#include <algorithm>
#include <stdexcept>

#include "ptsim/units/quantities.hpp"

namespace ptsim::cosim {

namespace {

void copy(const std::vector<double>& v, double* out) { std::copy(v.begin(), v.end(), out); }

void celsius(const std::vector<double>& kelvin, double* out) {
  for (double k : kelvin) *out++ = k - units::zero_celsius_in_kelvin;
}

}  // namespace

const std::vector<probe>& probes() {
  using L = const control_loop&;
  static const std::vector<probe> table{
      {"temperature", "block", "degC", "silicon temperature of the block at the sample time", false,
       [](L l, double* o) { celsius(l.block_temperature_K(), o); }},
      {"power", "component", "W", "component power, mean over the record period", true,
       [](L l, double* o) { copy(l.component_power_W(), o); }},
      {"frequency", "domain", "Hz", "domain clock frequency, mean over the record period", true,
       [](L l, double* o) { copy(l.domain_avg_hz(), o); }},
      {"voltage", "domain", "V", "domain supply voltage, mean over the record period", true,
       [](L l, double* o) { copy(l.domain_avg_volts(), o); }},
      {"utilization", "domain", "1", "busy share of the domain's busiest unit, mean over the record period", true,
       [](L l, double* o) { copy(l.domain_utilization(), o); }},
      {"throttled", "domain", "1", "share of the record period with the domain below its governor's request", true,
       [](L l, double* o) {
         for (bool t : l.domain_throttled()) *o++ = t ? 1.0 : 0.0;
       }},
      {"low_power_residency", "component", "1",
       "share of the record period in a low-power state: compute units in an idle state, memories in self-refresh",
       true, [](L l, double* o) { copy(l.component_low_power_share(), o); }},
      {"wall_power", "", "W",
       "power drawn at the wall (platform power through the VR and PSU efficiencies), mean over the record period",
       true, [](L l, double* o) { *o = l.wall_power_W(); }},
      {"node_temperature", "node", "degC",
       "package node (phone: frame, battery, skins) or air reaching a sink (datacenter: <die>.inlet) at the sample "
       "time",
       false, [](L l, double* o) { celsius(l.node_temperature_K(), o); }},
      {"sensor_temperature", "zone", "degC", "what the thermal zone's sensor reads at the sample time (lag, noise)",
       false, [](L l, double* o) { celsius(l.zone_sensor_K(), o); }},
      {"fan_speed", "fan", "1", "fan speed relative to the reference speed, at the sample time", false,
       [](L l, double* o) { *o = l.fan_speed(); }},
      {"sched_util", "cpu", "1",
       "utilisation schedutil read from the runqueue (policy.scheduler: eas): its tasks' PELT util_avg, uclamp-clamped, "
       "over the CPU's capacity; mean over the record period",
       true, [](L l, double* o) { copy(l.sched_cpu_util(), o); }},
      {"task_util", "task", "1",
       "the task's PELT util_avg (0..1024, frequency- and capacity-invariant), mean over the record period", true,
       [](L l, double* o) { copy(l.sched_task_util(), o); }},
  };
  return table;
}

std::vector<std::string> coordinate_labels(const control_loop& loop, const std::string& dim) {
  if (dim == "block") return loop.block_names();
  if (dim == "component") return loop.component_names();
  if (dim == "domain") return loop.domain_names();
  if (dim == "node") return loop.node_names();
  if (dim == "zone") return loop.zone_names();
  if (dim == "cpu") return loop.sched_cpu_names();
  if (dim == "task") return loop.sched_task_names();
  if (dim == "fan") return loop.has_fans() ? std::vector<std::string>{"fans"} : std::vector<std::string>{};
  if (dim.empty()) return {""};  // over time alone: one value
  throw std::logic_error("probe coordinate '" + dim + "' has no labels");
}

std::vector<const probe*> recorded_probes(const control_loop& loop) {
  std::vector<const probe*> out;
  for (const auto& p : probes())
    if (!coordinate_labels(loop, p.dim).empty()) out.push_back(&p);
  return out;
}

postproc::timeseries_layout timeseries_layout_for(const control_loop& loop) {
  postproc::timeseries_layout l;
  for (const probe* p : recorded_probes(loop)) {
    if (*p->dim && !l.coords.count(p->dim)) l.coords[p->dim] = coordinate_labels(loop, p->dim);
    l.variables.push_back({p->name, p->dim, p->units, p->long_name});
  }
  return l;
}

}  // namespace ptsim::cosim
