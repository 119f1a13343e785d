// Chrome trace-event JSON of a result file.
#include "ptsim/postproc/trace.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

#include "json_text.hpp"
#include "number_text.hpp"

namespace ptsim::postproc {

namespace {

std::string us(double s) { return json::short_number(s * 1e6); }

class trace_writer {
 public:
  trace_writer(std::ostream& out, const trace_options& opt) : out_(out), opt_(opt) {}

  bool in_window(double t) const { return t >= opt_.from_s && t <= opt_.to_s; }

  void meta(const char* what, int pid, int tid, const std::string& name) {
    emit("{\"ph\": \"M\", \"name\": \"" + std::string(what) + "\", \"pid\": " + std::to_string(pid) +
         ", \"tid\": " + std::to_string(tid) + ", \"args\": {\"name\": " + json::quote(name) + "}}");
  }
  void sort_index(int pid) {
    emit("{\"ph\": \"M\", \"name\": \"process_sort_index\", \"pid\": " + std::to_string(pid) +
         ", \"tid\": 0, \"args\": {\"sort_index\": " + std::to_string(pid) + "}}");
  }
  // A complete event, cut to the window; nothing when it lies outside.
  void slice(int pid, int tid, const std::string& name, const std::string& cat, double t0, double t1,
             const std::string& args) {
    t0 = std::max(t0, opt_.from_s);
    t1 = std::min(t1, opt_.to_s);
    if (t1 < t0) return;
    emit("{\"ph\": \"X\", \"name\": " + json::quote(name) + ", \"cat\": " + json::quote(cat) + ", \"pid\": " +
         std::to_string(pid) + ", \"tid\": " + std::to_string(tid) + ", \"ts\": " + us(t0) +
         ", \"dur\": " + us(t1 - t0) + ", \"args\": " + args + "}");
    ++counts.slices;
  }
  void counter(int pid, const std::string& name, double t, const std::string& key, double v) {
    if (!in_window(t)) return;
    emit("{\"ph\": \"C\", \"name\": " + json::quote(name) + ", \"pid\": " + std::to_string(pid) +
         ", \"tid\": 0, \"ts\": " + us(t) + ", \"args\": {" + json::quote(key) + ": " + json::short_number(v) +
         "}}");
    ++counts.counters;
  }
  void instant(int pid, int tid, const std::string& name, const std::string& cat, double t,
               const std::string& args) {
    if (!in_window(t)) return;
    emit("{\"ph\": \"i\", \"s\": \"t\", \"name\": " + json::quote(name) + ", \"cat\": " + json::quote(cat) +
         ", \"pid\": " + std::to_string(pid) + ", \"tid\": " + std::to_string(tid) + ", \"ts\": " + us(t) +
         ", \"args\": " + args + "}");
    ++counts.instants;
  }
  void emit(const std::string& event) {
    out_ << (first_ ? "\n  " : ",\n  ") << event;
    first_ = false;
  }

  trace_counts counts;

 private:
  std::ostream& out_;
  trace_options opt_;
  bool first_ = true;
};

std::string mhz_text(double hz) { return significant_text(hz / 1e6, 6) + " MHz"; }

// Index of `name` in `names`, appended when new: the track (tid) of a unit or domain.
int track_of(std::vector<std::string>& names, const std::string& name) {
  auto it = std::find(names.begin(), names.end(), name);
  if (it != names.end()) return static_cast<int>(it - names.begin()) + 1;
  names.push_back(name);
  return static_cast<int>(names.size());
}

struct counter_def {
  const char* variable;
  int pid;
  const char* what;
  const char* key;  ///< counter argument: the unit shown
  double scale;     ///< SI value times scale = shown value
  bool period_mean;
};

constexpr counter_def counter_defs[] = {
    {"frequency", trace_pid::domains, "frequency", "MHz", 1e-6, true},
    {"voltage", trace_pid::domains, "voltage", "V", 1, true},
    {"power", trace_pid::power, "power", "W", 1, true},
    {"temperature", trace_pid::temperature, "temperature", "degC", 1, false},
    {"sched_util", trace_pid::tasks, "sched_util", "util", 1, true},
    {"task_util", trace_pid::tasks, "util_avg", "util", 1, true},
};

bool is_domain_event(const event_row& e) {
  return e.kind == "dvfs" || e.kind == "throttle_start" || e.kind == "throttle_end";
}

// Task runs, named by their CPU; a run on another CPU than the task's last is a migration.
void write_task_runs(trace_writer& w, const std::vector<task_run_row>& task_runs, std::vector<std::string>& tasks) {
  std::map<std::string, std::string> last_cpu;
  for (const task_run_row& r : task_runs) {
    const int tid = track_of(tasks, r.task);
    auto it = last_cpu.find(r.task);
    if (it != last_cpu.end() && it->second != r.cpu)
      w.instant(trace_pid::tasks, tid, "migrate " + it->second + " -> " + r.cpu, "migration", r.start_s,
                "{\"from\": " + json::quote(it->second) + ", \"to\": " + json::quote(r.cpu) + "}");
    last_cpu[r.task] = r.cpu;
    w.slice(trace_pid::tasks, tid, r.cpu, "task", r.start_s, r.end_s, "{\"cpu\": " + json::quote(r.cpu) + "}");
  }
}

// Counters from the timeseries.
void write_counters(trace_writer& w, const result_reader& run, const timeseries_layout& layout,
                    const std::vector<double>& time) {
  const double period = run.record_period_s();
  for (const counter_def& c : counter_defs) {
    const auto v = std::find_if(layout.variables.begin(), layout.variables.end(),
                                [&](const ts_variable& x) { return x.name == c.variable; });
    if (v == layout.variables.end() || !layout.coords.count(v->dim)) continue;
    const std::vector<std::string>& labels = layout.coords.at(v->dim);
    std::size_t cols = 0;
    const std::vector<double> values = run.variable(c.variable, &cols);
    for (std::size_t j = 0; j < cols && j < labels.size(); ++j)
      for (std::size_t k = 0; k < time.size(); ++k)
        w.counter(c.pid, labels[j] + " " + c.what, c.period_mean ? time[k] - period : time[k], c.key,
                  values[k * cols + j] * c.scale);
  }
}

// DVFS changes and throttling on their domain's track (a throttled episode as a slice).
void write_domain_events(trace_writer& w, const std::vector<std::string>& domains,
                         const std::vector<event_row>& events, double end_s) {
  std::map<std::string, std::pair<double, std::string>> open_episode;  // domain -> start, reason
  for (std::size_t d = 0; d < domains.size(); ++d) {
    const int tid = static_cast<int>(d + 1);
    for (const event_row& e : events) {
      if (e.source != domains[d]) continue;
      const std::string args = "{\"reason\": " + json::quote(e.message) + ", \"value\": " + json::short_number(e.value) + "}";
      if (e.kind == "dvfs") {
        w.instant(trace_pid::domains, tid, "dvfs " + mhz_text(e.value), "dvfs", e.time_s, args);
      } else if (e.kind == "throttle_start") {
        w.instant(trace_pid::domains, tid, "throttle start", "throttle", e.time_s, args);
        open_episode[e.source] = {e.time_s, e.message};
      } else if (e.kind == "throttle_end") {
        w.instant(trace_pid::domains, tid, "throttle end", "throttle", e.time_s, args);
        if (auto it = open_episode.find(e.source); it != open_episode.end()) {
          w.slice(trace_pid::domains, tid, "throttled", "throttle", it->second.first, e.time_s,
                  "{\"reason\": " + json::quote(it->second.second) + "}");
          open_episode.erase(it);
        }
      }
    }
    if (auto it = open_episode.find(domains[d]); it != open_episode.end())  // still throttled at the end
      w.slice(trace_pid::domains, tid, "throttled", "throttle", it->second.first, std::max(end_s, it->second.first),
              "{\"reason\": " + json::quote(it->second.second) + "}");
  }
}

}  // namespace

trace_counts write_trace(const result_reader& run, std::ostream& out, const trace_options& opt) {
  if (!(opt.from_s < opt.to_s))
    throw std::invalid_argument("trace window: expected from < to, found from " + shortest_text(opt.from_s) +
                                " s, to " + shortest_text(opt.to_s) + " s");
  const ops_table ops = run.ops();
  const std::vector<event_row> events = run.events();
  const timeseries_layout layout = run.layout();
  std::vector<std::string> units, domains;
  for (const auto& u : run.unit_summary()) units.push_back(u.unit);
  for (const auto& o : ops.rows) track_of(units, o.unit);
  if (layout.coords.count("domain")) domains = layout.coords.at("domain");
  for (const event_row& e : events)
    if (is_domain_event(e)) track_of(domains, e.source);

  const run_metadata& meta = run.metadata();
  out << "{\n\"displayTimeUnit\": \"ms\",\n\"otherData\": {\"ptsim_version\": " << json::quote(meta.ptsim_version)
      << ", \"scenario\": " << json::quote(meta.scenario_name) << ", \"seed\": " << meta.seed
      << ", \"ops_recorded\": " << ops.rows.size() << ", \"ops_dropped\": " << ops.dropped
      << ", \"from_s\": " << json::short_number(opt.from_s) << ", \"to_s\": " << json::short_number(opt.to_s)
      << "},\n\"traceEvents\": [";
  trace_writer w(out, opt);

  w.meta("process_name", trace_pid::units, 0, "compute units");
  w.meta("process_name", trace_pid::domains, 0, "DVFS domains");
  w.meta("process_name", trace_pid::power, 0, "power");
  w.meta("process_name", trace_pid::temperature, 0, "temperature");
  w.meta("process_name", trace_pid::run, 0, "run");
  for (int pid = trace_pid::units; pid <= trace_pid::run; ++pid) w.sort_index(pid);
  for (std::size_t i = 0; i < units.size(); ++i) w.meta("thread_name", trace_pid::units, static_cast<int>(i + 1), units[i]);
  for (std::size_t i = 0; i < domains.size(); ++i)
    w.meta("thread_name", trace_pid::domains, static_cast<int>(i + 1), domains[i]);
  w.meta("thread_name", trace_pid::run, 1, "events");
  const std::vector<task_run_row> task_runs = run.task_runs();
  std::vector<std::string> tasks;
  for (const auto& t : run.tasks()) tasks.push_back(t.task);
  if (!tasks.empty()) {
    w.meta("process_name", trace_pid::tasks, 0, "tasks");
    w.sort_index(trace_pid::tasks);
    for (std::size_t i = 0; i < tasks.size(); ++i) w.meta("thread_name", trace_pid::tasks, static_cast<int>(i + 1), tasks[i]);
  }
  write_task_runs(w, task_runs, tasks);

  // Operators: per unit in the order they ran, which is time order.
  for (const op_row& o : ops.rows)
    w.slice(trace_pid::units, track_of(units, o.unit), o.op, "op", o.start_s, o.end_s,
            "{\"bound_by\": " + json::quote(o.bound_by) + "}");

  const std::vector<double> time = run.time();
  write_counters(w, run, layout, time);

  // DVFS changes and throttling on their domain's track; other events on the run's track.
  write_domain_events(w, domains, events, time.empty() ? 0.0 : time.back());
  for (const event_row& e : events) {
    if (is_domain_event(e)) continue;
    w.instant(trace_pid::run, 1, e.kind + " " + e.source, e.kind, e.time_s,
              "{\"message\": " + json::quote(e.message) + ", \"value\": " + json::short_number(e.value) + "}");
  }
  out << "\n]\n}\n";
  return w.counts;
}

}  // namespace ptsim::postproc
