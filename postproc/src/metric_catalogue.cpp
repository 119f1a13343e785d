#include "ptsim/postproc/metric_catalogue.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "ptsim/units/quantities.hpp"

namespace ptsim::postproc {

namespace {

double per_second(double x, const run_totals& t) { return t.duration_s > 0 ? x / t.duration_s : 0; }
double avg_power(const run_totals& t) { return per_second(t.energy_J, t); }
double throughput(const run_totals& t) { return per_second(t.work_done, t); }
bool has_cap(const run_totals& t) { return t.cap_window_s > 0; }
double record_window(const run_totals& t) { return t.peak_window_s; }
double cap_window(const run_totals& t) { return t.cap_window_s; }
const double nan = std::numeric_limits<double>::quiet_NaN();

const stream_totals& stream(const run_totals& t, std::size_t k) { return t.streams[k]; }
double count(std::size_t n) { return static_cast<double>(n); }
double mean_over_periods(double sum, const stream_totals& s) { return s.periods > 0 ? sum / s.periods : nan; }

}  // namespace

std::string_view better_name(better b) { return b == better::higher ? "higher" : "lower"; }

// The contract's nine metrics first, in DESIGN.md's order; then the rest by name.
const std::vector<metric_def>& summary_metrics() {
  using b = better;
  static const std::vector<metric_def> table{
      {"energy_J", "J", b::lower, "energy of every component over the run",
       [](const run_totals& t) { return t.energy_J; }},
      {"avg_power_W", "W", b::lower, "energy_J over the run's duration", avg_power},
      {"peak_power_W", "W", b::lower, "highest platform power averaged over a record period (window_s)",
       [](const run_totals& t) { return t.peak_power_W; }, nullptr, record_window},
      {"throughput", "{throughput}", b::higher, "work done (requests, inferences or tokens) per second",
       throughput},
      {"perf_per_watt", "{per_joule}", b::higher, "throughput per watt of average power",
       [](const run_totals& t) {
         const double p = avg_power(t);
         return p > 0 ? throughput(t) / p : 0;
       }},
      {"latency_p50_s", "s", b::lower, "median latency from arrival to finish of the finished requests",
       [](const run_totals& t) { return percentile(t.latencies_s, 50); }},
      {"latency_p99_s", "s", b::lower, "99th-percentile latency from arrival to finish of the finished requests",
       [](const run_totals& t) { return percentile(t.latencies_s, 99); }},
      {"peak_temperature_C", "degC", b::lower,
       "highest silicon temperature of the recorded samples (one every window_s)",
       [](const run_totals& t) { return t.peak_temperature_K - units::zero_celsius_in_kelvin; }, nullptr,
       record_window},
      {"throttled_fraction", "1", b::lower, "share of the run with any domain below its governor's request",
       [](const run_totals& t) { return per_second(t.throttled_s, t); }},
      {"avg_wall_power_W", "W", b::lower, "wall_energy_J over the run's duration",
       [](const run_totals& t) { return per_second(t.wall_energy_J, t); }},
      {"completed", "1", b::higher, "requests finished within the run",
       [](const run_totals& t) { return static_cast<double>(t.completed); }},
      // Beside the latencies (dropped, unfinished), which are of finished requests only.
      {"dropped", "1", b::lower, "requests refused on arrival (queue full)",
       [](const run_totals& t) { return count(t.dropped); }},
      {"latency_p90_s", "s", b::lower, "90th-percentile latency from arrival to finish of the finished requests",
       [](const run_totals& t) { return percentile(t.latencies_s, 90); }},
      {"peak_power_cap_window_W", "W", b::lower,
       "highest platform power averaged over the power cap's own window (window_s), as the cap reads it",
       [](const run_totals& t) { return t.peak_power_cap_window_W; }, has_cap, cap_window},
      // 0 without a cap; above 0 when the cap could not be met (e.g. below the platform's floor).
      {"power_cap_violation_s", "s", b::lower,
       "time the power averaged over the cap's window was above the cap",
       [](const run_totals& t) { return t.power_cap_violation_s; }},
      {"throttled_fraction_power", "1", b::lower, "share of the run with a domain held down by a power cap",
       [](const run_totals& t) { return per_second(t.throttled_power_s, t); }},
      {"throttled_fraction_thermal", "1", b::lower,
       "share of the run with a domain held down by a thermal ceiling",
       [](const run_totals& t) { return per_second(t.throttled_thermal_s, t); }},
      {"unfinished", "1", b::lower, "requests accepted and still queued or running at the end of the run",
       [](const run_totals& t) { return count(t.unfinished); }},
      {"wall_energy_J", "J", b::lower, "energy drawn at the wall, through the VR and PSU efficiencies",
       [](const run_totals& t) { return t.wall_energy_J; }},
  };
  return table;
}

const std::vector<labelled_metric_def>& labelled_metrics() {
  using b = better;
  using k = label_kind;
  static const std::vector<labelled_metric_def> table{
      {"throughput", k::stream, "{throughput}", b::higher, "the stream's work done per second",
       [](const run_totals& t, std::size_t s) { return per_second(stream(t, s).work_done, t); }},
      {"latency_p50_s", k::stream, "s", b::lower, "median latency of the stream's finished requests",
       [](const run_totals& t, std::size_t s) { return percentile(stream(t, s).latencies_s, 50); }},
      {"latency_p90_s", k::stream, "s", b::lower, "90th-percentile latency of the stream's finished requests",
       [](const run_totals& t, std::size_t s) { return percentile(stream(t, s).latencies_s, 90); }},
      {"latency_p99_s", k::stream, "s", b::lower, "99th-percentile latency of the stream's finished requests",
       [](const run_totals& t, std::size_t s) { return percentile(stream(t, s).latencies_s, 99); }},
      {"completed", k::stream, "1", b::higher, "the stream's requests finished",
       [](const run_totals& t, std::size_t s) { return count(stream(t, s).completed); }},
      {"unfinished", k::stream, "1", b::lower, "the stream's requests still queued or running at the end",
       [](const run_totals& t, std::size_t s) { return count(stream(t, s).unfinished); }},
      {"dropped", k::stream, "1", b::lower, "the stream's requests refused on arrival (queue full)",
       [](const run_totals& t, std::size_t s) { return count(stream(t, s).dropped); }},
      {"ttft_p50_s", k::llm_stream, "s", b::lower, "median time from arrival to the first output token",
       [](const run_totals& t, std::size_t s) { return percentile(stream(t, s).ttft_s, 50); }},
      {"ttft_p99_s", k::llm_stream, "s", b::lower, "99th-percentile time from arrival to the first output token",
       [](const run_totals& t, std::size_t s) { return percentile(stream(t, s).ttft_s, 99); }},
      {"tpot_p50_s", k::llm_stream, "s", b::lower,
       "median time per output token after the first: (finish - first token) / (tokens - 1)",
       [](const run_totals& t, std::size_t s) { return percentile(stream(t, s).tpot_s, 50); }},
      {"tpot_p99_s", k::llm_stream, "s", b::lower,
       "99th-percentile time per output token after the first: (finish - first token) / (tokens - 1)",
       [](const run_totals& t, std::size_t s) { return percentile(stream(t, s).tpot_s, 99); }},
      {"energy_per_output_token_J", k::llm_stream, "J", b::lower,
       "energy attributed to the stream's finished requests per output token they generated",
       [](const run_totals& t, std::size_t s) {
         const stream_totals& x = stream(t, s);
         return x.tokens_out > 0 ? x.energy_J / x.tokens_out : nan;
       }},
      {"energy_per_request_J", k::llm_stream, "J", b::lower,
       "mean energy attributed to a finished request of the stream",
       [](const run_totals& t, std::size_t s) {
         const stream_totals& x = stream(t, s);
         return x.completed > 0 ? x.energy_J / count(x.completed) : nan;
       }},
      {"batch_mean", k::llm_stream, "1", b::higher,
       "achieved batch: sequences running per instance, averaged over the control periods",
       [](const run_totals& t, std::size_t s) { return mean_over_periods(stream(t, s).batch_sum, stream(t, s)); }},
      {"queue_length_mean", k::llm_stream, "1", b::lower,
       "requests waiting to be admitted (all instances), averaged over the control periods",
       [](const run_totals& t, std::size_t s) { return mean_over_periods(stream(t, s).queue_sum, stream(t, s)); }},
      {"kv_occupancy_mean", k::llm_stream, "1", b::higher,
       "share of the KV cache reserved by running sequences, averaged over the control periods",
       [](const run_totals& t, std::size_t s) { return mean_over_periods(stream(t, s).kv_share_sum, stream(t, s)); }},
      {"energy_J", k::component, "J", b::lower,
       "energy of one entry of the timeseries' component coordinate (together: energy_J)",
       [](const run_totals& t, std::size_t c) { return t.component_energy_J[c].second; }},
      {"energy_group_J", k::group, "J", b::lower,
       "energy of a group of components (supply_losses: wall_energy_J - energy_J)",
       [](const run_totals& t, std::size_t g) { return t.group_energy_J[g].second; }},
  };
  return table;
}

namespace {

const labelled_metric_def* find_family(std::string_view base, bool unsuffixed) {
  for (const auto& f : labelled_metrics())
    if (f.name == base && (!unsuffixed || f.over == label_kind::stream || f.over == label_kind::llm_stream))
      return &f;
  return nullptr;
}

}  // namespace

std::optional<metric_meaning> meaning_of(std::string_view name) {
  if (const metric_def* m = find_summary_metric(name)) return metric_meaning{m->direction, m->description};
  const auto open = name.find('[');
  const bool suffixed = open != std::string_view::npos && name.back() == ']';
  if (const labelled_metric_def* f = find_family(suffixed ? name.substr(0, open) : name, !suffixed))
    return metric_meaning{f->direction, f->description};
  return std::nullopt;
}

std::vector<std::string> known_metric_names() {
  std::vector<std::string> out;
  for (const auto& m : summary_metrics()) out.emplace_back(m.name);
  for (const auto& f : labelled_metrics())
    if (std::find(out.begin(), out.end(), f.name) == out.end()) out.emplace_back(f.name);
  return out;
}

const metric_def* find_summary_metric(std::string_view name) {
  for (const auto& m : summary_metrics())
    if (m.name == name) return &m;
  return nullptr;
}

std::vector<std::string> order_metrics(const std::set<std::string>& names) {
  // The catalogue's, then the labelled families' unsuffixed and suffixed forms in the
  // families' order (labels by name), then anything else by name.
  std::vector<std::string> out;
  std::set<std::string> taken;
  const auto take = [&](const std::string& n) {
    if (names.count(n) && taken.insert(n).second) out.push_back(n);
  };
  for (const auto& m : summary_metrics()) take(std::string(m.name));
  for (const auto& f : labelled_metrics()) take(std::string(f.name));
  for (const auto& f : labelled_metrics()) {
    const std::string prefix = std::string(f.name) + "[";
    for (auto it = names.lower_bound(prefix); it != names.end() && it->compare(0, prefix.size(), prefix) == 0; ++it)
      take(*it);
  }
  for (const auto& n : names) take(n);
  return out;
}

std::optional<better> column_direction(std::string_view column) {
  // Time a unit spent busy, stalled or bound, and what throttling cost: less is better.
  static constexpr std::string_view lower[] = {
      "busy_s",       "compute_bound_s",    "memory_bound_s",          "interconnect_bound_s",
      "dvfs_stall_s", "idle_exit_s",        "throttled_fraction",      "throttled_thermal_fraction",
      "throttled_power_fraction", "time_lost_thermal_s", "time_lost_power_s"};
  for (auto c : lower)
    if (c == column) return better::lower;
  return std::nullopt;
}

std::optional<better> direction_of(std::string_view metric) {
  if (const auto m = meaning_of(metric)) return m->direction;
  if (const auto b = metric.find('['); b != std::string_view::npos) return column_direction(metric.substr(0, b));
  return std::nullopt;
}

std::string units_for(const metric_def& m, const std::string& throughput_units) {
  if (m.units == "{throughput}") return throughput_units;
  if (m.units != "{per_joule}") return std::string(m.units);
  // Work per second per watt is work per joule ("inferences/s" -> "inferences/J").
  const auto p = throughput_units.rfind("/s");
  if (p != std::string::npos && p + 2 == throughput_units.size()) return throughput_units.substr(0, p) + "/J";
  return throughput_units + "/W";
}

double percentile(std::vector<double> v, double q) {
  if (v.empty()) return std::numeric_limits<double>::quiet_NaN();
  std::sort(v.begin(), v.end());
  const double pos = q / 100.0 * static_cast<double>(v.size() - 1);
  const auto lo = static_cast<std::size_t>(std::floor(pos));
  const std::size_t hi = std::min(lo + 1, v.size() - 1);
  return v[lo] + (pos - static_cast<double>(lo)) * (v[hi] - v[lo]);
}

run_summary summarize(const run_totals& t) {
  run_summary s;
  s.throughput_units = t.throughput_units;
  for (const auto& m : summary_metrics()) {
    if (m.present && !m.present(t)) continue;
    s.metrics[std::string(m.name)] = {m.compute(t), units_for(m, t.throughput_units),
                                      m.window_s ? m.window_s(t) : nan};
  }
  for (const auto& f : labelled_metrics()) {
    const bool per_stream = f.over == label_kind::stream || f.over == label_kind::llm_stream;
    const std::size_t n = per_stream ? t.streams.size()
                          : f.over == label_kind::component ? t.component_energy_J.size()
                                                            : t.group_energy_J.size();
    for (std::size_t k = 0; k < n; ++k) {
      if (f.over == label_kind::llm_stream && !t.streams[k].llm) continue;
      const std::string label = per_stream ? t.streams[k].name
                                : f.over == label_kind::component ? t.component_energy_J[k].first
                                                                  : t.group_energy_J[k].first;
      const std::string units =
          f.units == "{throughput}" ? t.streams[k].throughput_units : std::string(f.units);
      const metric m{f.compute(t, k), units, nan};
      s.metrics[std::string(f.name) + "[" + label + "]"] = m;
      // One stream: the plain name too, unless the catalogue's metric of that name is there.
      if (per_stream && t.streams.size() == 1 && !s.metrics.count(std::string(f.name)))
        s.metrics[std::string(f.name)] = m;
    }
  }
  return s;
}

}  // namespace ptsim::postproc
