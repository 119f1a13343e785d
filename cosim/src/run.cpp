#include "ptsim/cosim/run.hpp"

#include <unistd.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <limits>
#include <map>
#include <ctime>

#include "ptsim/cosim/control_loop.hpp"
#include "ptsim/cosim/interrupt.hpp"
#include "loop_module.hpp"
#include "energy_groups.hpp"
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
  /// The platform power averaged over the last full window; NaN before the first one.
  double full_window_mean() const {
    return window.size() == ticks ? sum / static_cast<double>(ticks) : std::numeric_limits<double>::quiet_NaN();
  }
};

// The summary's peaks, over what the timeseries records: platform power averaged over each
// record period (the `power` samples summed), block temperatures at each sample time.
struct peak_watch {
  int ticks_per_record = 1;
  int ticks = 0;
  double sum_W = 0;
  /// After a tick: whether it closed a record period, and then that period's mean power.
  bool after_tick(double platform_W, double* mean_W) {
    sum_W += platform_W;
    if (++ticks < ticks_per_record) return false;
    *mean_W = sum_W / ticks;
    sum_W = 0;
    ticks = 0;
    return true;
  }
};

// Throttling as events (start, end) and as time (any, thermal, power) in the totals.
void record_throttling(double now, double T, const scenarios::scenario& sc, const control_loop& loop,
                       std::vector<bool>& was_throttled, postproc::result_writer& writer, postproc::run_totals& totals,
                       bool counted) {
  bool any = false;
  for (std::size_t d = 0; d < sc.domains.size(); ++d) {
    const bool th = loop.domain_throttled()[d];
    any |= th;
    if (th != was_throttled[d]) {
      const throttle_reason why = loop.domain_throttle_reason()[d];
      std::string what = "no longer limited";
      if (th) {
        what = std::string(to_string(why)) + " ceiling " + fmt_hz(loop.domain_ceiling_hz()[d]) +
               " below the governor's request";
        if (why == throttle_reason::board_power) {
          char b[96];
          std::snprintf(b, sizeof b, " (limit %.6g W, board average %.6g W)", loop.board_limit_W(d),
                        loop.board_average_W(d));
          what += b;
        }
      }
      writer.add_event({now, th ? "throttle_start" : "throttle_end", sc.domains[d].name, what,
                        loop.domain_ceiling_hz()[d]});
      was_throttled[d] = th;
    }
  }
  if (!counted) return;
  if (any) totals.throttled_s += T;
  bool thermal = false, power = false;
  for (auto r : loop.domain_throttle_reason()) {
    thermal |= r == throttle_reason::thermal;
    power |= r == throttle_reason::power || r == throttle_reason::board_power;
  }
  if (thermal) totals.throttled_thermal_s += T;
  if (power) totals.throttled_power_s += T;
}

// A signal that arrived while the platform was being built, or while the tables of a long
// run are written, stops the run (and leaves nothing behind).
void interrupted() {
  if (const int sig = interrupt_signal()) throw simulation_error("interrupted by signal " + std::to_string(sig));
}

// Jobs: every request, finished (with its energy: each compute unit's energy split by busy
// time, its idle energy included, plus the other components' energy split by total busy
// time; components by index as resolved, the rows after them: fans), then unfinished, then
// dropped. The stream totals count the requests that arrived within the measurement window
// (from `from_s`).
void write_jobs(const scenarios::scenario& sc, tlm_models::platform& plat, const std::vector<double>& component_energy_J,
                double from_s, postproc::result_writer& writer, postproc::run_totals& totals) {
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
  std::map<std::string, std::size_t> stream_at;
  for (std::size_t k = 0; k < totals.streams.size(); ++k) stream_at[totals.streams[k].name] = k;
  const auto in_window = [&](const tlm_models::request_record& r) { return r.arrival_s >= from_s; };
  const auto row_of = [](const tlm_models::request_record& r, const char* state) {
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
    row.state = state;
    return row;
  };
  std::size_t rows = 0;
  const auto add = [&](const postproc::job_row& row) {
    writer.add_job(row);
    if ((++rows & 0xFFF) == 0) interrupted();
  };
  for (const auto& r : plat.workload().finished()) {
    postproc::job_row row = row_of(r, "finished");
    for (const auto& [unit, busy] : r.busy_s) {
      auto it = joules_per_busy_s.find(unit);
      if (it != joules_per_busy_s.end()) row.energy_J += busy * it->second;
      if (busy_all_s > 0) row.energy_J += other_J * busy / busy_all_s;
    }
    add(row);
    if (!in_window(r)) continue;
    totals.latencies_s.push_back(row.latency_s);
    ++totals.completed;
    postproc::stream_totals& st = totals.streams[stream_at.at(r.stream)];
    ++st.completed;
    st.latencies_s.push_back(row.latency_s);
    st.energy_J += row.energy_J;
    st.tokens_out += static_cast<double>(r.tokens_out);
    if (st.llm) {
      st.ttft_s.push_back(r.first_token_s - r.arrival_s);
      if (r.tokens_out > 1) st.tpot_s.push_back((r.finish_s - r.first_token_s) / static_cast<double>(r.tokens_out - 1));
    }
  }
  // A request arriving at the very end (the last tick's instant, t = duration) is not of
  // the run [0, duration): a fixed-rate stream would always show one unfinished.
  const double end_s = sc.duration.value();
  // Requests that did not finish, under their state, counted in the run's and their stream's total.
  const auto add_unfinished = [&](const auto& requests, const char* state, auto&& count) {
    for (const auto& r : requests) {
      if (r.arrival_s >= end_s) continue;
      add(row_of(r, state));
      if (!in_window(r)) continue;
      ++count(totals);
      ++count(totals.streams[stream_at.at(r.stream)]);
    }
  };
  add_unfinished(plat.workload().unfinished(), "unfinished", [](auto& t) -> std::size_t& { return t.unfinished; });
  add_unfinished(plat.workload().dropped_requests(), "dropped", [](auto& t) -> std::size_t& { return t.dropped; });
}

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

// Units with a measured profile: how many operators it timed and which it did not hold
// (the roofline timed those), once per unit, as an event at the end and a note.
// The CPU scheduler's tasks: totals, residency per allowed CPU, and every run.
void write_tasks(const scenarios::scenario& sc, const tlm_config::cpu_scheduler& s, postproc::result_writer& writer) {
  const auto specs = tlm_config::sched_tasks(sc.workload);
  const auto& cpus = s.config().cpus;
  std::vector<postproc::task_row> tasks;
  std::vector<postproc::task_residency_row> residency;
  std::vector<postproc::task_run_row> runs;
  std::vector<std::int64_t> run_count(s.tasks(), 0);
  for (const auto& r : s.runs()) {
    ++run_count[r.task];
    runs.push_back({s.task_name(r.task), cpus[r.cpu].unit, r.start_s, r.end_s});
  }
  for (std::size_t t = 0; t < s.tasks(); ++t) {
    double total = 0;
    for (std::size_t c = 0; c < cpus.size(); ++c) total += s.residency_s(t, c);
    tasks.push_back({s.task_name(t), sc.workload.streams[specs[t].stream].name, run_count[t],
                     static_cast<std::int64_t>(s.wakeups(t)), static_cast<std::int64_t>(s.migrations(t)),
                     static_cast<std::int64_t>(s.fallbacks(t)), total});
    for (std::size_t c : specs[t].cpus)
      residency.push_back({s.task_name(t), cpus[c].unit, s.residency_s(t, c), total > 0 ? s.residency_s(t, c) / total : 0});
  }
  writer.set_tasks(tasks, residency, runs);
}

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
  const std::size_t n_components = loop.component_names().size();
  std::vector<double> component_energy_J(n_components, 0.0);  // the whole run's, for job energy
  std::vector<double> window_energy_J(n_components, 0.0);     // the measurement window's
  postproc::run_totals totals;
  // The measurement window [from, duration]: a tick counts when the period it closes,
  // [now - T, now), lies in it (from is a whole number of record periods, so of ticks).
  const double from = sc.measure_from.value();
  totals.duration_s = sc.duration.value() - from;
  totals.peak_temperature_K = sc.thermal.ambient.value();
  totals.peak_window_s = sc.record_period.value();
  totals.streams = streams_of(sc, plat);
  std::vector<bool> was_throttled(sc.domains.size(), false);
  std::vector<bool> memory_was_hot(loop.memory_limit_hot().size(), false);
  progress_meter progress(opts.progress, sc.duration.value());
  cap_watch cap(sc, T);
  if (cap.ticks) {
    totals.cap_window_s = static_cast<double>(cap.ticks) * T;
    totals.peak_power_cap_window_W = std::numeric_limits<double>::quiet_NaN();  // until a full window
  }
  peak_watch peaks{ticks_per_record};
  // What the loader changed in policy.limits (a clock rounded onto the table), said once.
  for (const auto& [domain, lim] : sc.policy.limits)
    for (const auto& note : lim.notes) writer.add_event({0.0, "warning", domain, note, 0});
  // What the workload had done when the window opened (throughput counts work within it).
  double work_at_from = 0;
  std::vector<double> stream_work_at_from(totals.streams.size(), 0.0);

  lm.after_tick = [&](double now, const std::vector<dvfs_decision>& decisions) {
    if (opts.record) rec.after_tick(now);
    activity.after_tick(loop, T);
    const bool counted = now - T >= from - 0.5 * T;
    if (from > 0 && std::fabs(now - from) < 0.5 * T) {
      work_at_from = plat.workload().throughput_count();
      for (std::size_t k = 0; k < totals.streams.size(); ++k)
        stream_work_at_from[k] = plat.workload().throughput_count(totals.streams[k].name);
    }
    const double platform_W = loop.platform_power_W();
    for (std::size_t i = 0; i < n_components; ++i) component_energy_J[i] += loop.component_power_W()[i] * T;
    const bool cap_exceeded = cap.ticks && cap.violated(platform_W);
    double record_mean_W = 0;
    const bool record_instant = peaks.after_tick(platform_W, &record_mean_W);
    if (counted) {
      totals.energy_J += platform_W * T;
      totals.wall_energy_J += loop.wall_power_W() * T;
      for (std::size_t i = 0; i < n_components; ++i) window_energy_J[i] += loop.component_power_W()[i] * T;
      if (cap_exceeded) totals.power_cap_violation_s += T;
      // Windows wholly inside the measurement window.
      if (cap.ticks && now - totals.cap_window_s >= from - 0.5 * T) {
        const double w = cap.full_window_mean();
        if (!std::isnan(w) && !(w <= totals.peak_power_cap_window_W)) totals.peak_power_cap_window_W = w;
      }
      for (auto& st : totals.streams) {
        if (!st.llm) continue;
        const auto o = plat.workload().occupancy(st.name);
        st.batch_sum += o.instances ? o.running / static_cast<double>(o.instances) : 0.0;
        st.queue_sum += o.waiting;
        st.kv_share_sum += o.kv_share;
        st.periods += 1;
      }
      if (record_instant) {
        totals.peak_power_W = std::max(totals.peak_power_W, record_mean_W);
        for (double t : loop.block_temperature_K()) totals.peak_temperature_K = std::max(totals.peak_temperature_K, t);
      }
    }
    record_throttling(now, T, sc, loop, was_throttled, writer, totals, counted);
    // A memory's own temperature limit (HBM throttling): when it trips and when it releases.
    for (std::size_t k = 0; k < loop.memory_limit_hot().size(); ++k) {
      const bool hot = loop.memory_limit_hot()[k];
      if (hot == memory_was_hot[k]) continue;
      memory_was_hot[k] = hot;
      char what[160];
      std::snprintf(what, sizeof what, "%s at %.1f degC, limit %.1f degC: %s", loop.memory_limit_component(k).c_str(),
                    loop.memory_limit_block_K(k) - 273.15, loop.memory_limit_K(k) - 273.15,
                    hot ? "memory clock ceiling " : "memory clock ceiling lifted");
      const double ceiling = loop.domain_ceiling_hz()[loop.memory_limit_domain(k)];
      writer.add_event({now, hot ? "memory_throttle_start" : "memory_throttle_end",
                        sc.domains[loop.memory_limit_domain(k)].name,
                        std::string(what) + (hot ? fmt_hz(ceiling) : std::string()), ceiling});
    }
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
  write_jobs(sc, plat, component_energy_J, from, writer, totals);
  if (const tlm_config::cpu_scheduler* s = plat.workload().scheduler()) write_tasks(sc, *s, writer);
  totals.throughput_units = plat.workload().throughput_units();
  totals.work_done = plat.workload().throughput_count() - work_at_from;
  for (std::size_t k = 0; k < totals.streams.size(); ++k)
    totals.streams[k].work_done = plat.workload().throughput_count(totals.streams[k].name) - stream_work_at_from[k];
  for (std::size_t i = 0; i < n_components; ++i)
    totals.component_energy_J.emplace_back(loop.component_names()[i], window_energy_J[i]);
  totals.group_energy_J = group_energy(sc, totals.component_energy_J, totals.wall_energy_J - totals.energy_J);
  const postproc::run_summary summary = postproc::summarize(totals);
  writer.set_summary(summary);
  activity.finish(loop);
  interrupted();
  const double wall =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - wall_start).count();
  writer.commit(wall);

  run_outcome out = outcome_of(summary, opts, wall, sc, plat);
  out.notes = notes;
  if (const std::uint64_t d = writer.ops_dropped())
    out.notes.push_back(std::to_string(d) + " operator executions past --ops-limit " + std::to_string(opts.ops_limit) +
                        " were counted, not kept in the ops table (ops/dropped in the file); raise --ops-limit to keep them");
  return out;
}

}  // namespace ptsim::cosim
