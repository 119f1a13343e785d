#define SC_INCLUDE_DYNAMIC_PROCESSES
#include "ptsim/tlm_models/workload_engine.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <tuple>

#include "ptsim/tlm_config/decoder.hpp"
#include "ptsim/tlm_config/host_work.hpp"
#include "sc_seconds.hpp"

namespace ptsim::tlm_models {

namespace {
// Stream seeds differ by name so adding a stream does not reshuffle the others.
std::uint64_t stream_seed(std::uint64_t seed, const std::string& name) {
  std::uint64_t h = 1469598103934665603ull;  // FNV-1a
  for (unsigned char c : name) h = (h ^ c) * 1099511628211ull;
  return seed ^ h;
}

std::string joined(const std::vector<compute_unit*>& units) {
  std::string s;
  for (const auto* u : units) s += (s.empty() ? "" : "+") + std::string(u->basename());
  return s;
}

/// Host work of one iteration or step, queued on its host unit when there is any.
struct host_job {
  op_graph graph;
  job_completion done;
  bool queued = false;
  double start_s = -1, busy_s = 0;  ///< when it started, the unit's busy time for it
  /// Queues `seconds` of h's work on `host` (nothing when either is missing); returns
  /// whether the accelerators must wait for it before they start: synchronous work, or
  /// asynchronous work with nothing running to overlap (`can_overlap` false). With
  /// `ref_hz` > 0 the seconds are at that clock and scale with the host's (a task).
  bool start(compute_unit* host, const host_work_config& h, double seconds, const std::string& name,
             bool can_overlap = true, double ref_hz = 0) {
    if (!host || !(seconds > 0)) return false;
    graph.name = name;
    const double share = std::min(1.0, static_cast<double>(h.cores) / std::max(1, host->config().cores));
    graph.ops.assign(1, host_work_op(name, seconds, share));
    graph.ops.front().host_ref_hz = ref_hz;
    host->submit({&graph, &done, &start_s, &busy_s, nullptr});
    queued = true;
    return h.scheduling == host_scheduling::synchronous || !can_overlap;
  }
};
}  // namespace

struct workload_engine::request {
  std::int64_t id = 0;
  double arrival_s = 0;
  int prompt = 0, output = 0;
  sc_core::sc_event* on_finish = nullptr;  ///< a closed-loop user waiting for it
};

/// One instance of an LLM stream, or with pipeline parallelism one micro-batch lane of it:
/// its pipeline stages' ranks (tensor_parallel each; one stage without pipelining) and its
/// scheduler. The lanes of one pipeline share its stages' units and run their iterations
/// through them in turn, so the stages work on different micro-batches at once.
struct workload_engine::llm_instance {
  std::vector<std::vector<compute_unit*>> stages;
  std::string label;
  std::unique_ptr<llm_scheduler> sched;
  sc_core::sc_event wake;
  int outstanding = 0;  ///< requests given to it and not finished
  std::unordered_map<std::int64_t, std::unique_ptr<request>> requests;
};

struct workload_engine::stream_state {
  const stream_config* cfg = nullptr;
  std::mt19937_64 rng;
  int in_flight = 0;  ///< accepted, not finished
  // batching
  std::deque<std::unique_ptr<request>> pending;
  sc_core::sc_event pending_ev;
  std::vector<std::map<int, op_graph>> graphs;  ///< per stage, by batch size
  std::vector<std::ptrdiff_t> stage_task;       ///< per stage: its scheduler task, or -1
  std::ptrdiff_t host_task = -1;                ///< the LLM host work's scheduler task, or -1
  // LLM
  std::vector<std::unique_ptr<llm_instance>> instances;
  decoder_options llm_opts;
};

workload_engine::workload_engine(sc_core::sc_module_name name, const workload_config& cfg,
                                 const std::map<std::string, compute_unit*>& units, std::uint64_t seed)
    : sc_module(name), cfg_(cfg), units_(units) {
  const std::vector<sched_task_spec> tasks = sched_tasks(cfg_);
  if (cfg_.scheduler.enabled) scheduler_ = std::make_unique<cpu_scheduler>(cfg_.scheduler);
  for (const auto& s : cfg_.streams) {
    auto st = std::make_unique<stream_state>();
    st->cfg = &s;
    st->rng.seed(stream_seed(seed, s.name));
    st->graphs.resize(s.stages.size());
    st->stage_task.assign(s.stages.size(), -1);
    for (const auto& t : tasks)
      if (t.stream == streams_.size())
        (t.llm_host ? st->host_task : st->stage_task[t.stage]) =
            static_cast<std::ptrdiff_t>(scheduler_->add_task(t.name, t.cpus, t.clamp));
    stream_state* raw = st.get();
    streams_.push_back(std::move(st));
    if (s.is_llm) {
      any_llm_ = true;
      const llm_config& l = s.llm;
      raw->llm_opts.tensor_parallel = l.tensor_parallel;
      raw->llm_opts.weights = l.weights;
      raw->llm_opts.kv = l.kv;
      raw->llm_opts.layer_groups = l.layer_groups;
      raw->llm_opts.fusion = l.fusion;
      raw->llm_opts.decode_attention = l.decode_attention;
      raw->llm_opts.pipeline_parallel = l.pipeline_parallel;
      const int tp = l.tensor_parallel, pp = l.pipeline_parallel;
      llm_limits lim;
      // Each micro-batch lane of a pipeline has max_batch slots (TensorRT-LLM's max_batch_size
      // and vLLM's max_num_seqs count per micro-batch); the lanes share the KV cache evenly.
      lim.max_batch = l.max_batch;
      lim.max_batched_tokens = l.max_batched_tokens;
      lim.chunked_prefill = l.chunked_prefill;
      lim.continuous = s.batching.kind != batching_kind::static_batch;
      lim.paged = l.kv_paged;
      lim.kv_block_tokens = l.kv_block_tokens;
      lim.kv_capacity_tokens = l.kv_cache_bytes_per_lane() / decoder_kv_bytes_per_token_per_rank(l.shape, raw->llm_opts);
      const std::size_t width = static_cast<std::size_t>(tp) * static_cast<std::size_t>(pp);
      for (std::size_t i = 0; i + width <= l.units.size(); i += width) {
        std::vector<std::vector<compute_unit*>> stages(static_cast<std::size_t>(pp));
        std::vector<compute_unit*> all;
        for (std::size_t r = 0; r < width; ++r) {
          stages[r / static_cast<std::size_t>(tp)].push_back(units_.at(l.units[i + r]));
          all.push_back(units_.at(l.units[i + r]));
        }
        for (int lane = 0; lane < pp; ++lane) {
          auto inst = std::make_unique<llm_instance>();
          inst->stages = stages;
          inst->label = joined(all);
          inst->sched = std::make_unique<llm_scheduler>(lim);
          llm_instance* ip = inst.get();
          raw->instances.push_back(std::move(inst));
          const std::string name = s.name + "_" + std::to_string(i) + (pp > 1 ? "_" + std::to_string(lane) : "") + "_llm";
          sc_core::sc_spawn([this, raw, ip] { serve_llm(*raw, *ip); }, name.c_str());
        }
      }
    } else if (s.batching.kind == batching_kind::static_batch || s.batching.kind == batching_kind::dynamic) {
      sc_core::sc_spawn([this, raw] { batcher(*raw); }, (s.name + "_batcher").c_str());
    }
    switch (s.arrival) {
      case arrival_kind::fixed_rate:
      case arrival_kind::poisson:
        sc_core::sc_spawn([this, raw] { source(*raw); }, (s.name + "_source").c_str());
        break;
      case arrival_kind::closed_loop:
        for (int u = 0; u < s.users; ++u)
          sc_core::sc_spawn([this, raw, u] { closed_loop_user(*raw, u); },
                            (s.name + "_user" + std::to_string(u)).c_str());
        break;
      case arrival_kind::trace:
        sc_core::sc_spawn([this, raw] { trace_source(*raw); }, (s.name + "_trace").c_str());
        break;
    }
  }
}

workload_engine::~workload_engine() = default;

std::string workload_engine::throughput_units() const {
  if (any_llm_) return "tokens/s";
  for (const auto& s : cfg_.streams)
    for (const auto& st : s.stages)
      if (st.training) return "samples/s";
  return "inferences/s";
}

double workload_engine::throughput_count() const {
  if (!any_llm_) return inferences_;
  double tokens = 0;
  for (const auto& s : streams_)
    for (const auto& i : s->instances) tokens += static_cast<double>(i->sched->tokens_generated());
  return tokens;
}

double workload_engine::throughput_count(const std::string& stream) const {
  double n = 0;
  for (const auto& s : streams_) {
    if (s->cfg->name != stream) continue;
    if (s->cfg->is_llm) {
      for (const auto& i : s->instances) n += static_cast<double>(i->sched->tokens_generated());
      return n;
    }
  }
  for (const auto& r : finished_)
    if (r.stream == stream) n += r.inferences;
  return n;
}

workload_engine::llm_occupancy workload_engine::occupancy(const std::string& stream) const {
  llm_occupancy o;
  double reserved = 0, capacity = 0;
  for (const auto& s : streams_) {
    if (s->cfg->name != stream || !s->cfg->is_llm) continue;
    for (const auto& i : s->instances) {
      o.running += static_cast<double>(i->sched->running());
      o.waiting += static_cast<double>(i->sched->waiting());
      reserved += i->sched->kv_reserved_tokens();
      capacity += i->sched->kv_capacity_tokens();
      ++o.instances;
    }
  }
  o.kv_share = capacity > 0 ? reserved / capacity : 0;
  return o;
}

std::vector<request_record> workload_engine::unfinished() const {
  std::vector<request_record> out;
  for (const auto& [id, r] : open_) out.push_back(r);
  return out;
}

void workload_engine::drop(stream_state& s, double now) {
  ++dropped_;
  request_record rec;
  const double nan = std::numeric_limits<double>::quiet_NaN();
  rec.id = -1;
  rec.stream = s.cfg->name;
  rec.arrival_s = now;
  rec.start_s = rec.finish_s = rec.first_token_s = nan;
  rec.inferences = 0;
  dropped_records_.push_back(std::move(rec));
  if (on_drop) on_drop(s.cfg->name, now);
}

double workload_engine::exponential(stream_state& s, double mean) {
  // Exponential draw from 53 random bits: bit-identical on every platform, unlike
  // std::exponential_distribution.
  const double u = static_cast<double>(s.rng() >> 11) * 0x1.0p-53;
  return -std::log1p(-u) * mean;
}

int workload_engine::draw(stream_state& s, const token_range& r) {
  int lo = r.min, hi = r.max;
  if (!r.edges.empty()) {
    // The bin first (53 random bits, as the arrival draws), then an integer within it.
    const double u = static_cast<double>(s.rng() >> 11) * 0x1.0p-53;
    const auto it = std::upper_bound(r.cumulative.begin(), r.cumulative.end(), u);
    const auto bin = static_cast<std::size_t>(std::min<std::ptrdiff_t>(it - r.cumulative.begin(),
                                                                       static_cast<std::ptrdiff_t>(r.cumulative.size()) - 1));
    std::tie(lo, hi) = r.bin_integers(bin);
  }
  if (hi <= lo) return lo;
  return lo + static_cast<int>(s.rng() % static_cast<std::uint64_t>(hi - lo + 1));
}

std::unique_ptr<workload_engine::request> workload_engine::make_request(stream_state& s, double arrival) {
  auto r = std::make_unique<request>();
  r->id = next_id_++;
  r->arrival_s = arrival;
  if (s.cfg->is_llm) {
    r->prompt = draw(s, s.cfg->llm.prompt_tokens);
    r->output = draw(s, s.cfg->llm.output_tokens);
  }
  return r;
}

void workload_engine::source(stream_state& s) {
  wait(detail::to_sc(s.cfg->start.value()));
  const double rate = s.cfg->rate.value();
  std::int64_t k = 0;
  const double t0 = detail::now_s();
  for (;;) {
    const double now = detail::now_s();
    ++arrived_;
    if (s.in_flight >= s.cfg->queue_limit) {
      drop(s, now);
    } else {
      accept(s, make_request(s, now));
    }
    double next;
    if (s.cfg->arrival == arrival_kind::fixed_rate) next = t0 + static_cast<double>(++k) / rate;  // no drift
    else next = now + exponential(s, 1.0 / rate);
    wait(detail::to_sc(next - now));
  }
}

void workload_engine::closed_loop_user(stream_state& s, int user) {
  sc_core::sc_event answered;
  const double think = s.cfg->think_time.value();
  // Users start staggered over one think time so they do not move in lockstep.
  double first = s.cfg->start.value();
  if (think > 0 && s.cfg->users > 1) first += think * user / s.cfg->users;
  wait(detail::to_sc(first));
  for (;;) {
    ++arrived_;
    auto r = make_request(s, detail::now_s());
    r->on_finish = &answered;
    accept(s, std::move(r));
    wait(answered);
    const double pause = s.cfg->think_exponential ? exponential(s, think) : think;
    if (pause > 0) wait(detail::to_sc(pause));
  }
}

void workload_engine::trace_source(stream_state& s) {
  const double t0 = s.cfg->start.value();
  for (const auto& e : s.cfg->trace) {
    const double at = t0 + e.arrival_s;
    if (at > detail::now_s()) wait(detail::to_sc(at - detail::now_s()));
    ++arrived_;
    if (s.in_flight >= s.cfg->queue_limit) {
      drop(s, detail::now_s());
      continue;
    }
    auto r = make_request(s, detail::now_s());
    r->prompt = e.prompt_tokens;
    r->output = e.output_tokens;
    accept(s, std::move(r));
  }
}

void workload_engine::accept(stream_state& s, std::unique_ptr<request> r) {
  ++s.in_flight;
  {
    request_record& open = open_[r->id];
    const double nan = std::numeric_limits<double>::quiet_NaN();
    open.id = r->id;
    open.stream = s.cfg->name;
    open.arrival_s = r->arrival_s;
    open.start_s = open.finish_s = open.first_token_s = nan;
    open.tokens_in = s.cfg->is_llm ? r->prompt : 0;
    open.inferences = 0;
  }
  if (s.cfg->is_llm) {
    // Placement: the instance with the fewest requests outstanding.
    llm_instance* best = s.instances.front().get();
    for (auto& i : s.instances)
      if (i->outstanding < best->outstanding) best = i.get();
    ++best->outstanding;
    llm_sequence q;
    q.id = r->id;
    q.prompt = r->prompt;
    q.output = std::max(1, r->output);
    q.arrival_s = r->arrival_s;
    best->sched->enqueue(q);
    best->requests[r->id] = std::move(r);
    best->wake.notify(sc_core::SC_ZERO_TIME);
    return;
  }
  if (s.cfg->batching.kind == batching_kind::none) {
    request* raw = r.release();
    sc_core::sc_spawn([this, &s, raw] { serve_batch(s, {raw}); });
    return;
  }
  s.pending.push_back(std::move(r));
  s.pending_ev.notify(sc_core::SC_ZERO_TIME);
}

void workload_engine::batcher(stream_state& s) {
  const batching_config& b = s.cfg->batching;
  const double timeout = b.timeout.value();
  for (;;) {
    while (s.pending.empty()) wait(s.pending_ev);
    // Static batching waits for a full batch (or the timeout, when one is set); dynamic
    // batching sends what it has when the oldest request has waited `timeout`.
    const double deadline = s.pending.front()->arrival_s + timeout;
    while (static_cast<int>(s.pending.size()) < b.max_batch) {
      if (timeout > 0 || b.kind == batching_kind::dynamic) {
        // Reached once less than half a tick is left: the seconds of the deadline and of the
        // clock round differently, and a zero wait would not advance the clock (a livelock).
        const sc_core::sc_time left = detail::to_sc(deadline - detail::now_s());
        if (left == sc_core::SC_ZERO_TIME) break;
        wait(left, s.pending_ev);
      } else {
        wait(s.pending_ev);
      }
    }
    std::vector<request*> batch;
    while (!s.pending.empty() && static_cast<int>(batch.size()) < b.max_batch) {
      batch.push_back(s.pending.front().release());
      s.pending.pop_front();
    }
    sc_core::sc_spawn([this, &s, batch] { serve_batch(s, batch); });
  }
}

const op_graph& workload_engine::graph_for(stream_state& s, std::size_t stage, int batch) {
  auto& cache = s.graphs[stage];
  auto it = cache.find(batch);
  if (it == cache.end()) it = cache.emplace(batch, batched(s.cfg->stages[stage].graph, batch)).first;
  return it->second;
}

void workload_engine::serve_batch(stream_state& s, std::vector<request*> batch) {
  const int b = static_cast<int>(batch.size());
  double first_start = -1, longest = -1;
  std::string longest_unit;
  std::map<std::string, double> busy;  // unit -> seconds for the whole batch
  for (std::size_t i = 0; i < s.cfg->stages.size(); ++i) {
    const stage_config& stage = s.cfg->stages[i];
    std::vector<compute_unit*> run_on;
    const std::vector<std::string> names = stage.all_units();
    const std::ptrdiff_t task = s.stage_task[i];
    if (task >= 0) {
      // A task: the scheduler places it at wake-up (energy-aware over its clusters, or pinned).
      const std::size_t cpu = scheduler_->wake(static_cast<std::size_t>(task), detail::now_s());
      run_on.push_back(units_.at(scheduler_->config().cpus[cpu].unit));
    } else if (stage.parallel == parallel_kind::replicas) {
      // Placement: the replica with the least work queued (the first on a tie).
      compute_unit* best = units_.at(names.front());
      for (const auto& n : names)
        if (units_.at(n)->queued() < best->queued()) best = units_.at(n);
      run_on.push_back(best);
    } else if (stage.parallel == parallel_kind::data) {
      for (const auto& n : names) run_on.push_back(units_.at(n));
    } else {
      run_on.push_back(units_.at(names.front()));
    }
    const op_graph& g = graph_for(s, i, b);
    // The step's host work (a training loop's Python): before the stage, or beside it.
    host_job hj;
    compute_unit* host = stage.host.enabled() ? units_.at(stage.host.unit) : nullptr;
    if (hj.start(host, stage.host, stage.host.per_iteration_s, s.cfg->name + "_host")) wait(hj.done.done);
    job_completion done;
    done.remaining = static_cast<int>(run_on.size());
    auto group = run_on.size() > 1 ? std::make_shared<rank_group>(static_cast<int>(run_on.size())) : nullptr;
    std::vector<double> starts(run_on.size(), -1), busy_s(run_on.size(), 0);
    const double submitted = detail::now_s();
    for (std::size_t r = 0; r < run_on.size(); ++r)
      run_on[r]->submit({&g, &done, &starts[r], &busy_s[r], group});
    if (task >= 0) scheduler_->job_queued(static_cast<std::size_t>(task), &starts[0]);
    wait(done.done);
    if (task >= 0) scheduler_->job_done(static_cast<std::size_t>(task), starts[0], detail::now_s());
    if (hj.queued && hj.done.remaining > 0) wait(hj.done.done);
    const double start = *std::min_element(starts.begin(), starts.end());
    if (first_start < 0) first_start = start;
    const double took = detail::now_s() - std::max(start, submitted);
    const std::string label = run_on.size() > 1 ? joined(run_on) : std::string(run_on.front()->basename());
    if (took > longest) longest = took, longest_unit = label;
    for (std::size_t r = 0; r < run_on.size(); ++r) busy[run_on[r]->basename()] += busy_s[r];
    if (hj.queued) busy[host->basename()] += stage.host.per_iteration_s;
  }
  // Inputs a request carries: the largest batch among its stages (a training step's
  // samples over all ranks; one image through preprocessing and a classifier).
  double per_request = 1;
  for (const auto& st : s.cfg->stages) per_request = std::max(per_request, st.per_request_batch);
  for (request* r : batch) {
    request_record rec;
    rec.start_s = first_start;
    rec.unit = longest_unit;
    rec.inferences = per_request;
    for (const auto& [u, sec] : busy) rec.busy_s.emplace_back(u, sec / b);
    std::unique_ptr<request> owned(r);
    finish(s, *owned, std::move(rec));
  }
}

void workload_engine::serve_llm(stream_state& s, llm_instance& inst) {
  const llm_config& l = s.cfg->llm;
  const batching_config& b = s.cfg->batching;
  const int tp = l.tensor_parallel;
  std::vector<op_graph> g(inst.stages.size());  // per pipeline stage
  // Whether the previous iteration ran until now: asynchronous host work for this one
  // overlapped it. After a pause the host must prepare the first iteration before the
  // GPUs can start it.
  bool pipelined = false;
  for (;;) {
    while (inst.sched->idle()) {
      pipelined = false;
      wait(inst.wake);
    }
    if (b.kind == batching_kind::static_batch && inst.sched->running() == 0) {
      pipelined = false;
      gather_static_batch(s, inst);
    }
    decoder_batch db;
    if (!inst.sched->next(detail::now_s(), db)) {
      pipelined = false;
      wait(inst.wake);  // nothing admissible until something finishes or arrives
      continue;
    }
    for (std::size_t k = 0; k < g.size(); ++k) {
      decoder_options o = s.llm_opts;
      o.pipeline_stage = static_cast<int>(k);
      g[k] = decoder_iteration(l.shape, db, o);
    }
    // The engine's host work for this iteration: the GPUs wait for it (synchronous) or it
    // overlaps their iteration (asynchronous: the host prepares the next one meanwhile).
    const host_work_config& h = l.host;
    host_job hj;
    compute_unit* host = h.enabled() ? units_.at(h.unit) : nullptr;
    const double host_s =
        host_iteration_seconds(h, static_cast<double>(inst.sched->iteration_sequences()), db.new_tokens());
    // As a task: placed at wake-up; its seconds are the biggest CPU's at its top clock, so on
    // a CPU of capacity c at clock f they take host_s x 1024 / c x f_max / f.
    const std::ptrdiff_t task = host_s > 0 ? s.host_task : -1;
    double task_s = host_s, ref_hz = 0;
    std::size_t host_slot = 0;  // the CPU a task ran on (its host seconds' unit)
    if (task >= 0) {
      const std::size_t cpu = scheduler_->wake(static_cast<std::size_t>(task), detail::now_s());
      host_slot = cpu;
      const sched_cpu& c = scheduler_->config().cpus[cpu];
      host = units_.at(c.unit);
      task_s = host_s * capacity_scale / c.capacity;
      ref_hz = scheduler_->config().domains[c.domain].freq_hz.back();
    }
    const bool hold = hj.start(host, h, task_s, s.cfg->name + "_host", pipelined, ref_hz);
    if (task >= 0) scheduler_->job_queued(static_cast<std::size_t>(task), &hj.start_s);
    bool reported = task < 0;
    auto host_done = [&] {  // the task's job ended now: its run and PELT
      if (reported || hj.done.remaining > 0) return;
      scheduler_->job_done(static_cast<std::size_t>(task), hj.start_s, detail::now_s());
      reported = true;
    };
    if (hold) wait(hj.done.done), host_done();
    inst.sched->ranks_started(detail::now_s());
    // Decode-only iterations have fixed shapes: captured once, launched as one graph.
    const double graph_launch = h.cuda_graphs && db.prefill_tokens == 0 ? h.graph_launch_s : -1;
    // The stages in order: each starts on what the one before sent it.
    for (std::size_t k = 0; k < g.size(); ++k) {
      job_completion done;
      done.remaining = tp;
      auto group = tp > 1 ? std::make_shared<rank_group>(tp) : nullptr;
      for (compute_unit* u : inst.stages[k]) u->submit({&g[k], &done, nullptr, nullptr, group, graph_launch});
      // Overlapping host work that is a task ends while the ranks run: noted when it does.
      while (done.remaining > 0) {
        if (!reported) wait(done.done | hj.done.done), host_done();
        else wait(done.done);
      }
    }
    if (hj.queued && hj.done.remaining > 0) wait(hj.done.done);
    host_done();
    pipelined = true;
    ++iterations_;
    finish_sequences(s, inst, !hj.queued ? 0.0 : task >= 0 ? hj.busy_s : host_s, host_slot);
  }
}

void workload_engine::gather_static_batch(const stream_state& s, llm_instance& inst) {
  const double timeout = s.cfg->batching.timeout.value();
  double oldest = std::numeric_limits<double>::infinity();
  for (const auto& [id, r] : inst.requests) oldest = std::min(oldest, r->arrival_s);
  while (static_cast<int>(inst.sched->waiting()) < s.cfg->llm.max_batch) {
    if (timeout > 0) {
      // As the batcher's deadline: less than half a tick left is reached (no zero wait).
      const sc_core::sc_time left = detail::to_sc(oldest + timeout - detail::now_s());
      if (left == sc_core::SC_ZERO_TIME) break;
      wait(left, inst.wake);
    } else {
      wait(inst.wake);
    }
  }
}

void workload_engine::finish_sequences(stream_state& s, llm_instance& inst, double host_busy_s,
                                       std::size_t host_slot) {
  for (llm_sequence& q : inst.sched->complete(detail::now_s(), host_busy_s, host_slot)) {
    auto it = inst.requests.find(q.id);
    std::unique_ptr<request> r = std::move(it->second);
    inst.requests.erase(it);
    --inst.outstanding;
    request_record rec;
    rec.start_s = q.start_s;
    rec.first_token_s = q.first_token_s;
    rec.tokens_in = q.prompt;
    rec.tokens_out = q.generated;
    rec.unit = inst.label;
    // Each stage's units ran their share of the lane's iterations (the stages in turn).
    const double per_stage = q.attributed_s / static_cast<double>(inst.stages.size());
    for (const auto& stage : inst.stages)
      for (compute_unit* u : stage) rec.busy_s.emplace_back(u->basename(), per_stage);
    // Host seconds on the unit that ran them (a task may have moved between iterations).
    for (std::size_t k = 0; k < q.attributed_host_by_slot.size(); ++k) {
      if (!(q.attributed_host_by_slot[k] > 0)) continue;
      const std::string unit = s.host_task >= 0 ? scheduler_->config().cpus[k].unit : s.cfg->llm.host.unit;
      rec.busy_s.emplace_back(unit, q.attributed_host_by_slot[k]);
    }
    finish(s, *r, std::move(rec));
  }
}

void workload_engine::finish(stream_state& s, request& r, request_record rec) {
  --s.in_flight;
  open_.erase(r.id);
  rec.id = r.id;
  rec.stream = s.cfg->name;
  rec.arrival_s = r.arrival_s;
  rec.finish_s = detail::now_s();
  if (!s.cfg->is_llm) rec.first_token_s = rec.finish_s;
  inferences_ += rec.inferences;
  finished_.push_back(std::move(rec));
  if (r.on_finish) r.on_finish->notify(sc_core::SC_ZERO_TIME);
}

}  // namespace ptsim::tlm_models
