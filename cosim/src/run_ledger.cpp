#include "run_ledger.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "energy_groups.hpp"

namespace ptsim::cosim {

cap_watch::cap_watch(const scenarios::scenario& sc, double T) {
  if (!sc.policy.power_cap) return;
  limit_W = sc.policy.power_cap->limit_W;
  ticks = std::max<std::size_t>(1, static_cast<std::size_t>(std::lround(sc.policy.power_cap->window_s / T)));
}

bool cap_watch::violated(double platform_W) {
  window.push_back(platform_W);
  sum += window.back();
  if (window.size() > ticks) {
    sum -= window.front();
    window.pop_front();
  }
  // As the capper reads its window: the past before t = 0 counts as exactly at the limit.
  // A capper regulating to the limit ripples around it (a few 0.01 %): violated means
  // more than 1 % above, which is also about the accuracy of RAPL's own energy counters.
  const double missing = static_cast<double>(ticks - window.size());
  const double avg = (sum + limit_W * missing) / static_cast<double>(ticks);
  return avg > limit_W * 1.01;
}

double cap_watch::full_window_mean() const {
  return window.size() == ticks ? sum / static_cast<double>(ticks) : std::numeric_limits<double>::quiet_NaN();
}

bool peak_watch::after_tick(double platform_W, double* mean_W) {
  sum_W += platform_W;
  if (++ticks < ticks_per_record) return false;
  *mean_W = sum_W / ticks;
  sum_W = 0;
  ticks = 0;
  return true;
}

namespace {

// Each stream's name, kind and throughput units, as the workload counts them.
std::vector<postproc::stream_totals> streams_of(const scenarios::scenario& sc, tlm_models::platform& plat) {
  std::vector<postproc::stream_totals> out;
  for (const auto& s : sc.workload.streams) {
    postproc::stream_totals st;
    st.name = s.name;
    st.llm = s.is_llm;
    st.throughput_units = s.is_llm ? "tokens/s" : plat.workload().throughput_units();
    if (!s.is_llm && st.throughput_units == "tokens/s") {
      // A non-LLM stream beside an LLM one counts its inputs (or training samples).
      st.throughput_units = "inferences/s";
      for (const auto& stage : s.stages)
        if (stage.training) st.throughput_units = "samples/s";
    }
    out.push_back(std::move(st));
  }
  return out;
}

}  // namespace

run_ledger::run_ledger(const scenarios::scenario& sc, const control_loop& loop, tlm_models::platform& plat)
    : sc_(sc),
      loop_(loop),
      plat_(plat),
      T_(sc.control_period.value()),
      from_(sc.measure_from.value()),
      run_energy_J_(loop.component_names().size(), 0.0),
      window_energy_J_(loop.component_names().size(), 0.0),
      cap_(sc, T_),
      peaks_{static_cast<int>(std::lround(sc.record_period.value() / T_))} {
  totals_.duration_s = sc.duration.value() - from_;
  totals_.peak_temperature_K = sc.thermal.ambient.value();
  totals_.peak_window_s = sc.record_period.value();
  totals_.streams = streams_of(sc, plat);
  stream_work_at_from_.assign(totals_.streams.size(), 0.0);
  if (cap_.ticks) {
    totals_.cap_window_s = static_cast<double>(cap_.ticks) * T_;
    totals_.peak_power_cap_window_W = std::numeric_limits<double>::quiet_NaN();  // until a full window
  }
}

void run_ledger::after_tick(double now) {
  const double T = T_;
  // A tick counts when the period it closes, [now - T, now), lies in the window (from is a
  // whole number of record periods, so of ticks).
  const bool counted = now - T >= from_ - 0.5 * T;
  if (from_ > 0 && std::fabs(now - from_) < 0.5 * T) {
    work_at_from_ = plat_.workload().throughput_count();
    for (std::size_t k = 0; k < totals_.streams.size(); ++k)
      stream_work_at_from_[k] = plat_.workload().throughput_count(totals_.streams[k].name);
  }
  const double platform_W = loop_.platform_power_W();
  const auto& component_W = loop_.component_power_W();
  for (std::size_t i = 0; i < run_energy_J_.size(); ++i) run_energy_J_[i] += component_W[i] * T;
  const bool cap_exceeded = cap_.ticks && cap_.violated(platform_W);
  double record_mean_W = 0;
  const bool record_instant = peaks_.after_tick(platform_W, &record_mean_W);
  if (!counted) return;

  totals_.energy_J += platform_W * T;
  totals_.wall_energy_J += loop_.wall_power_W() * T;
  for (std::size_t i = 0; i < window_energy_J_.size(); ++i) window_energy_J_[i] += component_W[i] * T;
  if (cap_exceeded) totals_.power_cap_violation_s += T;
  // Windows wholly inside the measurement window.
  if (cap_.ticks && now - totals_.cap_window_s >= from_ - 0.5 * T) {
    const double w = cap_.full_window_mean();
    if (!std::isnan(w) && !(w <= totals_.peak_power_cap_window_W)) totals_.peak_power_cap_window_W = w;
  }
  for (auto& st : totals_.streams) {
    if (!st.llm) continue;
    const auto o = plat_.workload().occupancy(st.name);
    st.batch_sum += o.instances ? o.running / static_cast<double>(o.instances) : 0.0;
    st.queue_sum += o.waiting;
    st.kv_share_sum += o.kv_share;
    st.periods += 1;
  }
  if (record_instant) {
    totals_.peak_power_W = std::max(totals_.peak_power_W, record_mean_W);
    for (double t : loop_.block_temperature_K()) totals_.peak_temperature_K = std::max(totals_.peak_temperature_K, t);
  }
  // Throttle time: any domain below its governor's request, and by the reasons the loop gives.
  bool any = false, thermal = false, power = false;
  for (bool th : loop_.domain_throttled()) any |= th;
  for (throttle_reason r : loop_.domain_throttle_reason()) {
    thermal |= r == throttle_reason::thermal;
    power |= r == throttle_reason::power || r == throttle_reason::board_power;
  }
  if (any) totals_.throttled_s += T;
  if (thermal) totals_.throttled_thermal_s += T;
  if (power) totals_.throttled_power_s += T;
}

void run_ledger::finish() {
  totals_.throughput_units = plat_.workload().throughput_units();
  totals_.work_done = plat_.workload().throughput_count() - work_at_from_;
  for (std::size_t k = 0; k < totals_.streams.size(); ++k)
    totals_.streams[k].work_done = plat_.workload().throughput_count(totals_.streams[k].name) - stream_work_at_from_[k];
  for (std::size_t i = 0; i < window_energy_J_.size(); ++i)
    totals_.component_energy_J.emplace_back(loop_.component_names()[i], window_energy_J_[i]);
  totals_.group_energy_J = group_energy(sc_, totals_.component_energy_J, totals_.wall_energy_J - totals_.energy_J);
}

}  // namespace ptsim::cosim
