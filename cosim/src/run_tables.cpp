#include "run_tables.hpp"

#include <cstdint>
#include <map>

#include "ptsim/cosim/interrupt.hpp"

namespace ptsim::cosim {

namespace {

// A request's energy: each compute unit's whole-run energy (its idle energy included)
// shared by busy time, plus the other components' energy (memories, links, fans, base: the rows
// after the resolved components) shared by each request's part of all compute busy time.
class energy_attribution {
 public:
  energy_attribution(const scenarios::scenario& sc, tlm_models::platform& plat, const std::vector<double>& component_J)
      : component_J_(component_J) {
    for (std::size_t i = 0; i < component_J.size(); ++i) {
      if (i >= sc.components.size() || sc.components[i].role != tlm_config::component_role::compute) {
        other_J_ += component_J[i];
        others_.push_back(i);
        continue;
      }
      const auto& u = plat.units().at(sc.components[i].index);
      double busy = 0;
      for (std::size_t b = 0; b < tlm_models::bound_kinds; ++b)
        busy += u->bound_seconds(static_cast<tlm_models::bound_by>(b));
      busy_all_s_ += busy;
      if (busy > 0) per_busy_s_[u->basename()] = {i, component_J[i] / busy};
    }
  }

  /// The request's energy; adds its part of each component to by_component (indexed like
  /// the components). The total is summed as before the split existed, so it stays
  /// bit-identical.
  double of(const tlm_models::request_record& r, double* by_component) const {
    double total = 0;
    for (const auto& [unit, busy] : r.busy_s) {
      auto it = per_busy_s_.find(unit);
      if (it != per_busy_s_.end()) {
        total += busy * it->second.second;
        by_component[it->second.first] += busy * it->second.second;
      }
      if (busy_all_s_ > 0) {
        total += other_J_ * busy / busy_all_s_;
        for (std::size_t j : others_) by_component[j] += component_J_[j] * busy / busy_all_s_;
      }
    }
    return total;
  }

 private:
  const std::vector<double>& component_J_;
  std::map<std::string, std::pair<std::size_t, double>> per_busy_s_;  // unit -> component, J per busy s
  std::vector<std::size_t> others_;
  double busy_all_s_ = 0, other_J_ = 0;
};

}  // namespace

// Jobs: every request, finished (with its energy_attribution, in total and by component for
// job_energy), then unfinished, then dropped. The stream totals count the requests that
// arrived within the measurement window (from `from_s`).
void write_jobs(const scenarios::scenario& sc, tlm_models::platform& plat, const std::vector<std::string>& component_names,
                const std::vector<double>& component_energy_J, double from_s, postproc::result_writer& writer,
                postproc::run_totals& totals) {
  const energy_attribution attribution(sc, plat, component_energy_J);
  const std::size_t n_components = component_energy_J.size();
  writer.set_job_energy_components(component_names);
  std::vector<double> split(n_components);  // one request's energy by component
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
    if ((++rows & 0xFFF) == 0) stop_if_interrupted();
  };
  for (const auto& r : plat.workload().finished()) {
    postproc::job_row row = row_of(r, "finished");
    std::fill(split.begin(), split.end(), 0.0);
    row.energy_J = attribution.of(r, split.data());
    writer.add_job_energy(r.id, split.data());
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

}  // namespace ptsim::cosim
