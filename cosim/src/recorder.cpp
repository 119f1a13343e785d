#include "recorder.hpp"

#include <algorithm>
#include <stdexcept>

#include "ptsim/units/quantities.hpp"

namespace ptsim::cosim {

postproc::timeseries_layout timeseries_layout_for(const control_loop& loop) {
  postproc::timeseries_layout l;
  l.coords["block"] = loop.block_names();
  l.coords["component"] = loop.component_names();
  l.coords["domain"] = loop.domain_names();
  l.variables = {
      {"temperature", "block", "degC", "silicon temperature of the block at the sample time"},
      {"power", "component", "W", "component power, mean over the record period"},
      {"frequency", "domain", "Hz", "domain clock frequency, mean over the record period"},
      {"voltage", "domain", "V", "domain supply voltage, mean over the record period"},
      {"utilization", "domain", "1", "busy share of the domain's busiest unit, mean over the record period"},
      {"throttled", "domain", "1", "share of the record period with the domain below its governor's request"},
      {"low_power_residency", "component", "1",
       "share of the record period in a low-power state: compute units in an idle state, memories in self-refresh"},
      {"wall_power", "", "W", "power drawn at the wall (platform power through the VR and PSU efficiencies), mean "
                              "over the record period"},
  };
  // Only where the model has them (an empty dimension is not worth a variable).
  if (!loop.node_names().empty()) {
    l.coords["node"] = loop.node_names();
    l.variables.push_back({"node_temperature", "node", "degC",
                           "package node (phone: frame, battery, skins) or air reaching a sink (datacenter: "
                           "<die>.inlet) at the sample time"});
  }
  if (!loop.zone_names().empty()) {
    l.coords["zone"] = loop.zone_names();
    l.variables.push_back(
        {"sensor_temperature", "zone", "degC", "what the thermal zone's sensor reads at the sample time (lag, noise)"});
  }
  if (loop.has_fans()) {
    l.coords["fan"] = {"fans"};
    l.variables.push_back({"fan_speed", "fan", "1", "fan speed relative to the reference speed, at the sample time"});
  }
  return l;
}

recorder::recorder(postproc::result_writer& w, const control_loop& loop, int ticks_per_record)
    : w_(w), loop_(loop), ticks_per_record_(ticks_per_record) {
  n_blk_ = loop.block_names().size();
  n_comp_ = loop.component_names().size();
  n_dom_ = loop.domain_names().size();
  row_.assign(w.sample_width(), 0.0);
  sums_.assign(2 * n_comp_ + 4 * n_dom_ + 1, 0.0);
  // The row's order is the layout's, which the writer checks by width only.
  const std::size_t optional = loop.node_names().size() + loop.zone_names().size() + (loop.has_fans() ? 1 : 0);
  if (row_.size() != n_blk_ + sums_.size() + optional)
    throw std::logic_error("recorder: the writer's sample width differs from the loop's timeseries layout");
}

void recorder::after_tick(double now_s) {
  // The averaged span: with one tick per record (the usual 1 ms case) the tick's values are
  // the sample; with several, their sums, then the means.
  const bool direct = ticks_per_record_ == 1;
  double* s = direct ? row_.data() + n_blk_ : sums_.data();
  const auto put = [direct](double& to, double v) { to = direct ? v : to + v; };
  const auto put_all = [&](const std::vector<double>& v, std::size_t n) {
    for (std::size_t i = 0; i < n; ++i) put(s[i], v[i]);
    s += n;
  };
  put_all(loop_.component_power_W(), n_comp_);
  put_all(loop_.domain_avg_hz(), n_dom_);
  put_all(loop_.domain_avg_volts(), n_dom_);
  put_all(loop_.domain_utilization(), n_dom_);
  const auto& throttled = loop_.domain_throttled();
  for (std::size_t d = 0; d < n_dom_; ++d) put(s[d], throttled[d] ? 1.0 : 0.0);
  s += n_dom_;
  put_all(loop_.component_low_power_share(), n_comp_);
  put(*s, loop_.wall_power_W());
  if (!direct) {
    if (++ticks_ < ticks_per_record_) return;
    const double n = ticks_;
    std::transform(sums_.begin(), sums_.end(), row_.begin() + static_cast<std::ptrdiff_t>(n_blk_),
                   [n](double sum) { return sum / n; });
    std::fill(sums_.begin(), sums_.end(), 0.0);
    ticks_ = 0;
  }
  double* r = row_.data();
  const auto celsius = [&r](const std::vector<double>& kelvin) {
    for (double k : kelvin) *r++ = k - units::zero_celsius_in_kelvin;
  };
  celsius(loop_.block_temperature_K());
  r += sums_.size();
  celsius(loop_.node_temperature_K());
  celsius(loop_.zone_sensor_K());
  if (loop_.has_fans()) *r = loop_.fan_speed();
  w_.append_sample(now_s, row_.data());
}

activity_recorder::activity_recorder(postproc::result_writer& w, tlm::platform& plat,
                                     double duration_s, bool record_ops)
    : w_(w), duration_s_(duration_s), record_ops_(record_ops) {
  for (std::size_t b = 0; b < tlm::bound_kinds; ++b)
    bound_label_[b] = w.op_label(tlm::to_string(static_cast<tlm::bound_by>(b)));
  units_.resize(plat.units().size());
  for (std::size_t i = 0; i < units_.size(); ++i) {
    tlm::compute_unit& cu = *plat.units()[i];
    units_[i].unit = &cu;
    units_[i].label = w.op_label(cu.basename());
    unit_sums* u = &units_[i];
    cu.on_op = [this, u](const tlm::op_record& r) { on_op(*u, r); };
  }
}

void activity_recorder::on_op(unit_sums& u, const tlm::op_record& r) {
  if (record_ops_ && !failed_) try {
    op_label& l = op_label_[r.operation];
    if (l.name != r.operation->name || l.name.empty()) l = {r.operation->name, w_.op_label(r.operation->name)};
    w_.add_op(u.label, l.id, r.start_s, r.end_s, bound_label_[static_cast<std::size_t>(r.bound)]);
  } catch (const std::exception& e) {
    failed_ = true;
    if (!on_error) throw;
    on_error(e.what());
  }
  if (r.end_s <= duration_s_) ++u.ops_in_run;
}

void activity_recorder::after_tick(const control_loop& loop, double period_s) {
  const auto& th = loop.domain_throttled();
  const auto& why = loop.domain_throttle_reason();
  if (!domains_mapped_) {
    domains_mapped_ = true;
    for (auto* v : {&throttled_s_, &thermal_s_, &power_s_, &lost_thermal_s_, &lost_power_s_, &prev_request_hz_})
      v->assign(th.size(), 0.0);
    prev_reason_.assign(th.size(), throttle_reason::none);
    const auto& names = loop.domain_names();
    for (auto& u : units_)
      u.domain = static_cast<std::size_t>(std::find(names.begin(), names.end(), u.unit->config().domain) - names.begin());
  }
  // Compute-bound time is charged when its operator finishes, at the clock and request of the
  // period it finishes in: exact while a limit holds, approximate for operators that span a
  // change of limit.
  const auto& hz = loop.domain_avg_hz();
  for (auto& u : units_) {
    const double c = u.unit->compute_bound_s();
    const double dc = c - u.compute_bound_seen_s;
    u.compute_bound_seen_s = c;
    const std::size_t d = u.domain;
    if (d >= th.size() || prev_reason_[d] == throttle_reason::none || prev_request_hz_[d] <= 0) continue;
    const double lost = dc * std::max(0.0, 1.0 - hz[d] / prev_request_hz_[d]);
    (prev_reason_[d] == throttle_reason::thermal ? lost_thermal_s_ : lost_power_s_)[d] += lost;
  }
  prev_reason_ = why;
  prev_request_hz_ = loop.domain_request_hz();
  for (std::size_t d = 0; d < th.size(); ++d) {
    if (th[d]) throttled_s_[d] += period_s;
    if (d < why.size() && why[d] == throttle_reason::thermal) thermal_s_[d] += period_s;
    if (d < why.size() && why[d] == throttle_reason::power) power_s_[d] += period_s;
  }
}

void activity_recorder::finish(const control_loop& loop) {
  std::vector<postproc::unit_time_row> rows;
  for (const auto& u : units_) {
    using tlm::bound_by;
    postproc::unit_time_row row;
    row.unit = u.unit->basename();
    row.compute_bound_s = u.unit->bound_seconds(bound_by::compute);
    row.memory_bound_s = u.unit->bound_seconds(bound_by::memory);
    row.interconnect_bound_s = u.unit->bound_seconds(bound_by::interconnect);
    row.dvfs_stall_s = u.unit->bound_seconds(bound_by::dvfs);
    row.idle_exit_s = u.unit->bound_seconds(bound_by::idle_exit);
    // Whole operators are counted: the last one may end a little after the run (units run
    // ahead by up to a quantum), and one still running at the end is not counted at all.
    row.idle_s = std::max(0.0, duration_s_ - row.busy_s());
    row.ops = u.ops_in_run;
    rows.push_back(row);
  }
  w_.set_unit_summary(rows);
  std::vector<postproc::domain_summary_row> doms;
  const auto& names = loop.domain_names();
  const auto share = [this](const std::vector<double>& v, std::size_t d) {
    return d < v.size() && duration_s_ > 0 ? v[d] / duration_s_ : 0.0;
  };
  std::vector<double> busy(names.size(), 0.0);
  for (std::size_t i = 0; i < units_.size(); ++i)
    if (units_[i].domain < busy.size()) busy[units_[i].domain] += rows[i].busy_s();
  const auto at = [](const std::vector<double>& v, std::size_t d) { return d < v.size() ? v[d] : 0.0; };
  for (std::size_t d = 0; d < names.size(); ++d)
    doms.push_back({names[d], share(throttled_s_, d), share(thermal_s_, d), share(power_s_, d), busy[d],
                    at(lost_thermal_s_, d), at(lost_power_s_, d)});
  w_.set_domain_summary(doms);
}

}  // namespace ptsim::cosim
