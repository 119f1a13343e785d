#include "recorder.hpp"

#include <algorithm>
#include <stdexcept>


namespace ptsim::cosim {

recorder::recorder(postproc::result_writer& w, const control_loop& loop, int ticks_per_record)
    : w_(w), loop_(loop), ticks_per_record_(ticks_per_record) {
  std::size_t at = 0, sums = 0, widest = 0;
  for (const probe* p : recorded_probes(loop)) {
    const std::size_t n = coordinate_labels(loop, p->dim).size();
    slots_.push_back({p, at, n, sums});
    at += n;
    if (p->mean) sums += n;
    widest = std::max(widest, n);
  }
  // The row's order is the layout's (timeseries_layout_for), which the writer checks by width.
  if (at != w.sample_width())
    throw std::logic_error("recorder: the writer's sample width differs from the loop's timeseries layout");
  row_.assign(at, 0.0);
  sums_.assign(sums, 0.0);
  scratch_.assign(widest, 0.0);
}

void recorder::after_tick(double now_s) {
  // Mean probes: with one tick per record (the usual 1 ms case) the tick's values are the
  // sample; with several, their sums, then the means.
  const bool direct = ticks_per_record_ == 1;
  for (const slot& s : slots_) {
    if (!s.p->mean) continue;
    if (direct) {
      s.p->fill(loop_, row_.data() + s.at);
      continue;
    }
    s.p->fill(loop_, scratch_.data());
    for (std::size_t i = 0; i < s.n; ++i) sums_[s.sum_at + i] += scratch_[i];
  }
  if (!direct) {
    if (++ticks_ < ticks_per_record_) return;
    const double n = ticks_;
    for (const slot& s : slots_)
      if (s.p->mean)
        for (std::size_t i = 0; i < s.n; ++i) row_[s.at + i] = sums_[s.sum_at + i] / n;
    std::fill(sums_.begin(), sums_.end(), 0.0);
    ticks_ = 0;
  }
  for (const slot& s : slots_)
    if (!s.p->mean) s.p->fill(loop_, row_.data() + s.at);
  w_.append_sample(now_s, row_.data());
}

activity_recorder::activity_recorder(postproc::result_writer& w, tlm_models::platform& plat,
                                     double duration_s, bool record_ops)
    : w_(w), duration_s_(duration_s), record_ops_(record_ops) {
  for (std::size_t b = 0; b < tlm_models::bound_kinds; ++b)
    bound_label_[b] = w.op_label(tlm_models::to_string(static_cast<tlm_models::bound_by>(b)));
  units_.resize(plat.units().size());
  for (std::size_t i = 0; i < units_.size(); ++i) {
    tlm_models::compute_unit& cu = *plat.units()[i];
    units_[i].unit = &cu;
    units_[i].label = w.op_label(cu.basename());
    unit_sums* u = &units_[i];
    cu.on_op = [this, u](const tlm_models::op_record& r) { on_op(*u, r); };
  }
}

void activity_recorder::on_op(unit_sums& u, const tlm_models::op_record& r) {
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
    if (d < why.size() && (why[d] == throttle_reason::power || why[d] == throttle_reason::board_power))
      power_s_[d] += period_s;
  }
}

void activity_recorder::finish(const control_loop& loop) {
  std::vector<postproc::unit_time_row> rows;
  for (const auto& u : units_) {
    using tlm_models::bound_by;
    postproc::unit_time_row row;
    row.unit = u.unit->basename();
    row.compute_bound_s = u.unit->bound_seconds(bound_by::compute);
    row.memory_bound_s = u.unit->bound_seconds(bound_by::memory);
    row.interconnect_bound_s = u.unit->bound_seconds(bound_by::interconnect);
    row.dvfs_stall_s = u.unit->bound_seconds(bound_by::dvfs);
    row.idle_exit_s = u.unit->bound_seconds(bound_by::idle_exit);
    // Whole operators are counted when they start: the last one may end after the run (a
    // quantum ahead for accelerator tiles, up to a whole step for a host's data-loading op).
    // A unit cannot be busy longer than the run: past it, every class is scaled back to it.
    if (const double busy = row.busy_s(); busy > duration_s_ && busy > 0) {
      const double k = duration_s_ / busy;
      for (double* v : {&row.compute_bound_s, &row.memory_bound_s, &row.interconnect_bound_s, &row.dvfs_stall_s,
                        &row.idle_exit_s})
        *v *= k;
    }
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
