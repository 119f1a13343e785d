#define SC_INCLUDE_DYNAMIC_PROCESSES
#include "ptsim/tlm/workload_engine.hpp"

#include <cmath>

namespace ptsim::tlm {

namespace {
// Stream seeds differ by name so adding a stream does not reshuffle the others.
std::uint64_t stream_seed(std::uint64_t seed, const std::string& name) {
  std::uint64_t h = 1469598103934665603ull;  // FNV-1a
  for (unsigned char c : name) h = (h ^ c) * 1099511628211ull;
  return seed ^ h;
}
}  // namespace

workload_engine::workload_engine(sc_core::sc_module_name name, const workload_config& cfg,
                                 const std::map<std::string, compute_unit*>& units, std::uint64_t seed)
    : sc_module(name), cfg_(cfg), units_(units) {
  for (const auto& s : cfg_.streams) {
    auto st = std::make_unique<stream_state>();
    st->cfg = &s;
    st->rng.seed(stream_seed(seed, s.name));
    stream_state* raw = st.get();
    streams_.push_back(std::move(st));
    sc_core::sc_spawn([this, raw] { source(*raw); }, (s.name + "_source").c_str());
  }
}

double workload_engine::next_gap(stream_state& s) {
  const double rate = s.cfg->rate.value();
  if (s.cfg->arrival == arrival_kind::fixed_rate) return 1.0 / rate;
  // Exponential inter-arrival from 53 random bits: bit-identical on every platform,
  // unlike std::exponential_distribution.
  const double u = static_cast<double>(s.rng() >> 11) * 0x1.0p-53;
  return -std::log1p(-u) / rate;
}

void workload_engine::source(stream_state& s) {
  wait(sc_core::sc_time(s.cfg->start.value(), sc_core::SC_SEC));
  const double period = 1.0 / s.cfg->rate.value();
  std::int64_t k = 0;
  const double t0 = sc_core::sc_time_stamp().to_seconds();
  for (;;) {
    const double now = sc_core::sc_time_stamp().to_seconds();
    ++arrived_;
    if (s.in_flight >= s.cfg->queue_limit) {
      ++dropped_;
      if (on_drop) on_drop(s.cfg->name, now);
    } else {
      const std::int64_t id = next_id_++;
      ++s.in_flight;
      sc_core::sc_spawn([this, &s, id, now] { serve(s, id, now); });
    }
    double next;
    if (s.cfg->arrival == arrival_kind::fixed_rate) {
      next = t0 + static_cast<double>(++k) * period;  // no accumulated rounding drift
    } else {
      next = now + next_gap(s);
    }
    wait(sc_core::sc_time(next - now, sc_core::SC_SEC));
  }
}

void workload_engine::serve(stream_state& s, std::int64_t id, double arrival) {
  sc_core::sc_event done;
  double first_start = -1, longest = -1;
  std::string longest_unit;
  for (const auto& stage : s.cfg->stages) {
    compute_unit* u = units_.at(stage.unit);
    double start = 0;
    const double submitted = sc_core::sc_time_stamp().to_seconds();
    u->submit(stage.graph, done, &start);
    wait(done);
    if (first_start < 0) first_start = start;
    const double took = sc_core::sc_time_stamp().to_seconds() - std::max(start, submitted);
    if (took > longest) longest = took, longest_unit = stage.unit;
  }
  --s.in_flight;
  finished_.push_back({id, s.cfg->name, longest_unit, arrival, first_start, sc_core::sc_time_stamp().to_seconds()});
}

}  // namespace ptsim::tlm
