#include "ptsim/cosim/run.hpp"

#include <unistd.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <ctime>

#include "ptsim/cosim/control_loop.hpp"
#include "ptsim/cosim/interrupt.hpp"
#include "loop_module.hpp"
#include "progress.hpp"
#include "recorder.hpp"
#include "run_events.hpp"
#include "run_ledger.hpp"
#include "run_tables.hpp"
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

postproc::timeseries_layout layout_for(const scenarios::scenario& sc, const control_loop& loop, const run_options& opts) {
  postproc::timeseries_layout layout = timeseries_layout_for(loop);
  if (opts.record)
    layout.expected_samples = static_cast<std::size_t>(std::ceil(sc.duration.value() / sc.record_period.value()));
  return layout;
}

// The output claimed by the caller (opts.claimed), or claimed now.
postproc::output_file claim_output(const run_options& opts) {
  return opts.claimed ? std::move(*opts.claimed)
                      : postproc::output_file(opts.output, postproc::output_rules{true, false, true});
}

std::vector<postproc::floorplan_row> floorplan_rows(const scenarios::scenario& sc) {
  std::vector<postproc::floorplan_row> rows;
  for (const auto& b : sc.thermal.fp.blocks()) rows.push_back({b.name, b.x_m, b.y_m, b.width_m, b.height_m});
  return rows;
}

// Simulates [0, duration]; a failure inside (the loop's, or a SystemC thread's) throws.
void simulate(const scenarios::scenario& sc, loop_module& lm, progress_meter& progress) {
  // A signal that arrived while the platform was being built stops the run before it starts.
  stop_if_interrupted();
  sc_core::sc_start(sc_core::sc_time(sc.duration.value(), sc_core::SC_SEC));
  // The tick at exactly t = duration closes the last control period.
  if (lm.error.empty()) sc_core::sc_start(sc_core::SC_ZERO_TIME);
  progress.finish();
  if (!lm.error.empty()) throw simulation_error(lm.error);
  // Between the end of the simulation and the rename, too: writing the tables of a long
  // run takes a while, and a signal then must still leave nothing behind.
  stop_if_interrupted();
}

}  // namespace

run_outcome run_scenario(const scenarios::scenario& sc, const run_options& opts) {
  const auto wall_start = std::chrono::steady_clock::now();
  const double T = sc.control_period.value();

  control_loop loop(sc);
  const auto initial = initial_points(sc, loop);
  std::vector<double> latency;
  for (const auto& d : sc.domains) latency.push_back(d.transition_latency.value());
  postproc::result_writer writer(claim_output(opts), metadata_for(sc), layout_for(sc, loop, opts),
                                 sc.record_period.value());
  writer.set_floorplan(floorplan_rows(sc));

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
  recorder rec(writer, loop, static_cast<int>(std::lround(sc.record_period.value() / T)));
  writer.set_ops_limit(opts.ops_limit);
  activity_recorder activity(writer, plat, sc.duration.value(), opts.record);
  activity.on_error = stop_with;
  lm.enabled = opts.closed_loop;
  run_ledger ledger(sc, loop, plat);
  run_events events(sc, loop, writer);
  progress_meter progress(opts.progress, sc.duration.value());
  lm.after_tick = [&](double now, const std::vector<dvfs_decision>& decisions) {
    if (opts.record) rec.after_tick(now);
    activity.after_tick(loop, T);
    ledger.after_tick(now);
    events.after_tick(now, decisions);
    progress.update(now);
  };
  simulate(sc, lm, progress);

  const std::vector<std::string> notes = profile_notes(plat, writer, sc.duration.value());
  write_jobs(sc, plat, loop.component_names(), ledger.run_energy_J(), ledger.from_s(), writer, ledger.totals());
  if (const tlm_config::cpu_scheduler* s = plat.workload().scheduler()) write_tasks(sc, *s, writer);
  ledger.finish();
  const postproc::run_summary summary = postproc::summarize(ledger.totals());
  writer.set_summary(summary);
  activity.finish(loop);
  stop_if_interrupted();
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall_start).count();
  writer.commit(wall);

  run_outcome out = outcome_of(summary, opts, wall, sc, plat);
  out.notes = notes;
  if (const std::uint64_t d = writer.ops_dropped())
    out.notes.push_back(std::to_string(d) + " operator executions past --ops-limit " + std::to_string(opts.ops_limit) +
                        " were counted, not kept in the ops table (ops/dropped in the file); raise --ops-limit to keep them");
  return out;
}

}  // namespace ptsim::cosim
