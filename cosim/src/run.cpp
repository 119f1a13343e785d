#include "ptsim/cosim/run.hpp"

#include <unistd.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <map>
#include <ctime>

#include "ptsim/cosim/control_loop.hpp"
#include "ptsim/cosim/interrupt.hpp"
#include "loop_module.hpp"
#include "progress.hpp"
#include "recorder.hpp"
#include "ptsim/postproc/metric_catalogue.hpp"
#include "ptsim/postproc/result_file.hpp"
#include "ptsim/tlm_models/platform.hpp"

namespace ptsim::cosim {

const char* version() { return PTSIM_VERSION; }

namespace {

std::string host_name() {
  char buf[256] = {0};
  if (gethostname(buf, sizeof buf - 1) != 0) return "unknown";
  return buf;
}

std::string utc_now_iso() {
  std::time_t t = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

std::string fmt_hz(double hz) {
  char b[64];
  std::snprintf(b, sizeof b, "%.0f MHz", hz / 1e6);
  return b;
}


// The power cap's limit, watched over its own window: how long the average was above it
// (power_cap_violation_s).
struct cap_watch {
  double limit_W = 0;
  std::size_t ticks = 0;  // the window in control periods (0: no cap)
  std::deque<double> window;
  double sum = 0;

  cap_watch(const scenarios::scenario& sc, double T) {
    if (!sc.policy.power_cap) return;
    limit_W = sc.policy.power_cap->limit_W;
    ticks = std::max<std::size_t>(1, static_cast<std::size_t>(std::lround(sc.policy.power_cap->window_s / T)));
  }
  /// Whether the window's average, with this period's platform power, is above the limit.
  bool violated(double platform_W) {
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
};

// Throttling as events (start, end) and as time (any, thermal, power) in the totals.
void record_throttling(double now, double T, const scenarios::scenario& sc, const control_loop& loop,
                       std::vector<bool>& was_throttled, postproc::result_writer& writer, postproc::run_totals& totals) {
  bool any = false;
  for (std::size_t d = 0; d < sc.domains.size(); ++d) {
    const bool th = loop.domain_throttled()[d];
    any |= th;
    if (th != was_throttled[d]) {
      writer.add_event({now, th ? "throttle_start" : "throttle_end", sc.domains[d].name,
                        th ? std::string(to_string(loop.domain_throttle_reason()[d])) + " ceiling " +
                                 fmt_hz(loop.domain_ceiling_hz()[d]) + " below the governor's request"
                           : "no longer limited",
                        loop.domain_ceiling_hz()[d]});
      was_throttled[d] = th;
    }
  }
  if (any) totals.throttled_s += T;
  bool thermal = false, power = false;
  for (auto r : loop.domain_throttle_reason()) {
    thermal |= r == throttle_reason::thermal;
    power |= r == throttle_reason::power;
  }
  if (thermal) totals.throttled_thermal_s += T;
  if (power) totals.throttled_power_s += T;
}

// A signal that arrived while the platform was being built, or while the tables of a long
// run are written, stops the run (and leaves nothing behind).
void interrupted() {
  if (const int sig = interrupt_signal()) throw simulation_error("interrupted by signal " + std::to_string(sig));
}

// Jobs: every request that finished within the run, with its energy: each compute unit's
// energy split by busy time (its idle energy included), plus the other components' energy
// split by total busy time. Components by index as resolved (the rows after them: fans).
void write_jobs(const scenarios::scenario& sc, tlm_models::platform& plat, const std::vector<double>& component_energy_J,
                postproc::result_writer& writer, postproc::run_totals& totals) {
  std::map<std::string, double> joules_per_busy_s;
  double busy_all_s = 0, other_J = 0;
  for (std::size_t i = 0; i < component_energy_J.size(); ++i) {
    if (i >= sc.components.size() || sc.components[i].role != tlm_config::component_role::compute) {
      other_J += component_energy_J[i];
      continue;
    }
    const auto& u = plat.units().at(sc.components[i].index);
    double busy = 0;
    for (std::size_t b = 0; b < tlm_models::bound_kinds; ++b) busy += u->bound_seconds(static_cast<tlm_models::bound_by>(b));
    busy_all_s += busy;
    if (busy > 0) joules_per_busy_s[u->basename()] = component_energy_J[i] / busy;
  }
  for (const auto& r : plat.workload().finished()) {
    postproc::job_row row;
    row.id = r.id;
    row.stream = r.stream;
    row.unit = r.unit;
    row.arrival_s = r.arrival_s;
    row.start_s = r.start_s;
    row.finish_s = r.finish_s;
    row.latency_s = r.finish_s - r.arrival_s;
    row.first_token_s = r.first_token_s;
    row.tokens_in = r.tokens_in;
    row.tokens_out = r.tokens_out;
    for (const auto& [unit, busy] : r.busy_s) {
      auto it = joules_per_busy_s.find(unit);
      if (it != joules_per_busy_s.end()) row.energy_J += busy * it->second;
      if (busy_all_s > 0) row.energy_J += other_J * busy / busy_all_s;
    }
    writer.add_job(row);
    totals.latencies_s.push_back(row.latency_s);
    if ((totals.latencies_s.size() & 0xFFF) == 0) interrupted();
  }
}

// Units with a measured profile: how many operators it timed and which it did not hold
// (the roofline timed those), once per unit, as an event at the end and a note.
std::vector<std::string> profile_notes(const tlm_models::platform& plat, postproc::result_writer& writer, double end_s) {
  std::vector<std::string> notes;
  for (const auto& u : plat.units()) {
    if (!u->config().profile) continue;
    std::uint64_t missed = 0;
    std::string kinds;
    for (const auto& [kind, n] : u->profile_misses()) {
      missed += n;
      kinds += (kinds.empty() ? "" : ", ") + kind + " " + std::to_string(n);
    }
    std::string m = std::to_string(u->profiled_ops()) + " operators timed from the profile " +
                    u->config().profile->source() + ", " + std::to_string(missed) + " by the roofline";
    if (missed) m += " (no row for: " + kinds + ")";
    writer.add_event({end_s, "profile", u->basename(), m, static_cast<double>(missed)});
    notes.push_back(std::string(u->basename()) + ": " + m);
  }
  return notes;
}

// Each domain's starting point: its governor's choice with no load.
std::map<std::string, tlm_models::operating_point> initial_points(const scenarios::scenario& sc, control_loop& loop) {
  const auto init = loop.initial_points();
  std::map<std::string, tlm_models::operating_point> initial;
  for (std::size_t d = 0; d < sc.domains.size(); ++d) initial[sc.domains[d].name] = {init[d].first, init[d].second};
  return initial;
}

run_outcome outcome_of(const postproc::run_summary& summary, const run_options& opts, double wall,
                       const scenarios::scenario& sc, const tlm_models::platform& plat) {
  run_outcome out;
  out.result_file = opts.output;
  for (const auto& [k, m] : summary.metrics) {
    out.summary[k] = m.value;
    out.units[k] = m.units;
  }
  out.throughput_units = summary.throughput_units;
  out.wall_s = wall;
  out.simulated_s = sc.duration.value();
  out.transactions = plat.transactions();
  return out;
}

postproc::run_metadata metadata_for(const scenarios::scenario& sc) {
  postproc::run_metadata meta;
  meta.ptsim_version = version();
  meta.scenario_name = sc.name;
  meta.scenario_yaml = sc.resolved_yaml;
  meta.seed = sc.seed;
  meta.host = host_name();
  meta.start_time = utc_now_iso();
  return meta;
}

}  // namespace

run_outcome run_scenario(const scenarios::scenario& sc, const run_options& opts) {
  const auto wall_start = std::chrono::steady_clock::now();
  const double T = sc.control_period.value();

  control_loop loop(sc);
  const auto initial = initial_points(sc, loop);
  std::vector<double> latency;
  for (const auto& d : sc.domains) latency.push_back(d.transition_latency.value());

  const postproc::run_metadata meta = metadata_for(sc);
  postproc::timeseries_layout layout = timeseries_layout_for(loop);
  if (opts.record)
    layout.expected_samples = static_cast<std::size_t>(std::ceil(sc.duration.value() / sc.record_period.value()));
  postproc::output_file claim = opts.claimed ? std::move(*opts.claimed)
                                           : postproc::output_file(opts.output, postproc::output_rules{true, false, true});
  postproc::result_writer writer(std::move(claim), meta, layout, sc.record_period.value());
  {
    std::vector<postproc::floorplan_row> rows;
    for (const auto& b : sc.thermal.fp.blocks()) rows.push_back({b.name, b.x_m, b.y_m, b.width_m, b.height_m});
    writer.set_floorplan(rows);
  }

  tlm_models::platform plat(sc.platform, sc.workload, initial, T, sc.seed);
  loop_module lm("control_loop", loop, plat, T, latency, sc);
  // Failures in SystemC threads (writing a drop event or an operator, e.g. to a full disk)
  // must not escape to SystemC, which would wrap them in its own report: they stop the run
  // like a failure of the loop does.
  const auto stop_with = [&lm](const std::string& what) {
    if (lm.error.empty()) lm.error = what;
    sc_core::sc_stop();
  };
  plat.workload().on_drop = [&](const std::string& stream, double t) {
    if (!lm.error.empty()) return;
    try {
      writer.add_event({t, "drop", stream, "request dropped: queue full", 0});
    } catch (const std::exception& e) {
      stop_with(e.what());
    }
  };
  const int ticks_per_record = static_cast<int>(std::lround(sc.record_period.value() / T));
  recorder rec(writer, loop, ticks_per_record);
  writer.set_ops_limit(opts.ops_limit);
  activity_recorder activity(writer, plat, sc.duration.value(), opts.record);
  activity.on_error = stop_with;
  lm.enabled = opts.closed_loop;
  std::vector<double> component_energy_J(loop.component_names().size(), 0.0);  // for job energy
  postproc::run_totals totals;
  totals.duration_s = sc.duration.value();
  totals.peak_temperature_K = sc.thermal.ambient.value();
  std::vector<bool> was_throttled(sc.domains.size(), false);
  progress_meter progress(opts.progress, sc.duration.value());
  cap_watch cap(sc, T);

  lm.after_tick = [&](double now, const std::vector<dvfs_decision>& decisions) {
    if (opts.record) rec.after_tick(now);
    activity.after_tick(loop, T);
    totals.energy_J += loop.platform_power_W() * T;
    totals.wall_energy_J += loop.wall_power_W() * T;
    for (std::size_t i = 0; i < component_energy_J.size(); ++i) component_energy_J[i] += loop.component_power_W()[i] * T;
    totals.peak_power_W = std::max(totals.peak_power_W, loop.platform_power_W());
    if (cap.ticks && cap.violated(loop.platform_power_W())) totals.power_cap_violation_s += T;
    for (double t : loop.block_temperature_K()) totals.peak_temperature_K = std::max(totals.peak_temperature_K, t);
    record_throttling(now, T, sc, loop, was_throttled, writer, totals);
    for (const auto& dec : decisions)
      writer.add_event({now, "dvfs", sc.domains[dec.domain].name,
                        "set " + fmt_hz(dec.hz) +
                            (dec.reason != throttle_reason::none
                                 ? std::string(" (") + to_string(dec.reason) + " limit)"
                                 : std::string()),
                        dec.hz});
    progress.update(now);
  };

  // A signal that arrived while the platform was being built stops the run before it starts.
  interrupted();
  sc_core::sc_start(sc_core::sc_time(sc.duration.value(), sc_core::SC_SEC));
  // The tick at exactly t = duration closes the last control period.
  if (lm.error.empty()) sc_core::sc_start(sc_core::SC_ZERO_TIME);
  progress.finish();
  if (!lm.error.empty()) throw simulation_error(lm.error);
  // Between the end of the simulation and the rename, too: writing the tables of a long
  // run takes a while, and a signal then must still leave nothing behind.
  interrupted();

  const std::vector<std::string> notes = profile_notes(plat, writer, sc.duration.value());
  write_jobs(sc, plat, component_energy_J, writer, totals);
  totals.completed = plat.workload().finished().size();
  totals.throughput_units = plat.workload().throughput_units();
  totals.work_done = plat.workload().throughput_count();
  const postproc::run_summary summary = postproc::summarize(totals);
  writer.set_summary(summary);
  activity.finish(loop);
  interrupted();
  const double wall =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - wall_start).count();
  writer.commit(wall);

  run_outcome out = outcome_of(summary, opts, wall, sc, plat);
  out.notes = notes;
  return out;
}

}  // namespace ptsim::cosim
