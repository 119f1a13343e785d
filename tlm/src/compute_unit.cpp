#include "ptsim/tlm_models/compute_unit.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "ptsim/tlm_models/interconnect.hpp"
#include "ptsim/tlm_models/memory_occupancy.hpp"
#include "ptsim/tlm_config/topology.hpp"
#include "sc_seconds.hpp"

namespace ptsim::tlm_models {

const char* to_string(bound_by b) {
  switch (b) {
    case bound_by::compute: return "compute";
    case bound_by::memory: return "memory";
    case bound_by::interconnect: return "interconnect";
    case bound_by::dvfs: return "dvfs";
    case bound_by::idle_exit: return "idle_exit";
  }
  return "?";
}

compute_unit::compute_unit(sc_core::sc_module_name name, const compute_unit_config& cfg, domain_clock& clock,
                           double control_period_s)
    : sc_module(name), socket("socket"), cfg_(cfg), clock_(clock), ledger_(control_period_s) {
  SC_HAS_PROCESS(compute_unit);
  SC_THREAD(run);
  trans_.set_data_ptr(&scratch_);
  trans_.set_byte_enable_ptr(nullptr);
  trans_.set_dmi_allowed(false);
  occupancy_ = new memory_occupancy;  // owned by the payload from here on
  trans_.set_extension(occupancy_);
  idle_state_s_.assign(cfg_.idle_states.size(), 0.0);
}

void compute_unit::submit(const job& j) {
  queue_.push_back(j);
  wake_.notify(sc_core::SC_ZERO_TIME);
}

double compute_unit::peak_per_cycle(const op& o) const { return unit_peak_per_cycle(cfg_, o); }

namespace {
// The kinds whose settings apply to `k`, most specific first: itself, then its fallback
// kind if it has one (a kind that is its own fallback is looked up once: this is per operator).
struct kind_chain {
  op_kind kinds[2];
  int n;
  const op_kind* begin() const { return kinds; }
  const op_kind* end() const { return kinds + n; }
};
kind_chain kinds_to_try(op_kind k) {
  const op_kind f = settings_fallback(k);
  return {{k, f}, f == k ? 1 : 2};
}

// A per-operator-kind setting; a kind without an entry takes its fallback kind's
// (expert_gemm: gemm's), then 1 (full efficiency, the roofline's overlap, full activity).
double for_kind(const std::map<op_kind, double>& m, op_kind k) {
  for (op_kind x : kinds_to_try(k)) {
    auto it = m.find(x);
    if (it != m.end()) return it->second;
  }
  return 1.0;
}

// The most specific of a kind's own entries: at its precision, then for the kind.
template <class PrecisionMap>
const double* own_entry(const PrecisionMap& at_precision, const std::map<op_kind, double>& per_kind, op_kind k,
                        precision p) {
  auto at = at_precision.find({k, p});
  if (at != at_precision.end()) return &at->second;
  auto it = per_kind.find(k);
  return it != per_kind.end() ? &it->second : nullptr;
}

// A share's or an activity's entry for an operator: at its kind's precision, then under its
// graph's rule set, then for the kind; a kind with none of its own (expert_gemm) goes
// through the same for its fallback. Null: none given.
const double* most_specific(const std::map<std::pair<op_kind, precision>, double>& at_precision,
                            const std::map<std::pair<op_kind, fusion_rules>, double>& under_rules,
                            const std::map<op_kind, double>& per_kind, const op& o) {
  for (op_kind k : kinds_to_try(o.kind)) {
    auto at = at_precision.find({k, o.prec});
    if (at != at_precision.end()) return &at->second;
    auto ar = under_rules.find({k, o.rules});
    if (ar != under_rules.end()) return &ar->second;
    auto it = per_kind.find(k);
    if (it != per_kind.end()) return &it->second;
  }
  return nullptr;
}
}  // namespace

double compute_unit::memory_efficiency_for(const op& o) const { return for_kind(cfg_.memory_efficiency, o.kind); }

double compute_unit::overlap_for(const op& o) const { return for_kind(cfg_.overlap, o.kind); }

double compute_unit::activity_for(const op& o) const {
  const double* v = most_specific(cfg_.op_precision_activity, cfg_.op_rules_activity, cfg_.op_activity, o);
  return v ? *v : 1.0;
}

double compute_unit::efficiency_for(const op& o) const {
  double share = forward_efficiency_for(o);
  if (o.backward) {
    const double* b = nullptr;
    for (op_kind k : kinds_to_try(o.kind))
      if (!b) b = own_entry(cfg_.backward_precision_efficiency, cfg_.backward_efficiency, k, o.prec);
    share *= b ? *b : 1.0;
  }
  return share;
}

double compute_unit::arithmetic_rate(const op& o) const {
  const double peak = peak_per_cycle(o), share = efficiency_for(o);
  const auto& t = cfg_.tiling;
  if (!t.enabled() || o.kind != op_kind::gemm || !(o.shape_m > 0 && o.shape_n > 0 && o.shape_k > 0) || !(peak > 0) ||
      !(o.ops > 0))
    return peak * share;
  // One kernel's operations over its fastest tiling's cycles; a shape that stands for
  // several GEMMs in one call (a batched matmul) has its operations' multiple of tiles.
  const double per_kernel = o.ops / o.repeat;
  const double batch = std::max(1.0, std::round(per_kernel / (2 * o.shape_m * o.shape_n * o.shape_k)));
  const double bytes = o.prec == precision::int4 ? element_bytes(precision::fp16) : element_bytes(o.prec);
  const auto l =
      fastest_tiling(t, o.shape_m, o.shape_n, o.shape_k, batch, cfg_.cores, peak / cfg_.cores, bytes, share);
  return per_kernel / l.cycles;
}

double compute_unit::forward_efficiency_for(const op& o) const {
  const double* v = most_specific(cfg_.op_precision_efficiency, cfg_.op_rules_efficiency, cfg_.op_efficiency, o);
  if (v) return *v;
  return o.cls == op_class::tensor ? cfg_.efficiency : cfg_.vector_efficiency;
}

void compute_unit::advance_to(double t) {
  qk_.set(detail::to_sc(std::max(0.0, t - detail::now_s())));
  if (qk_.need_sync()) qk_.sync();
}

tlm::tlm_generic_payload& compute_unit::payload(bool read, std::uint64_t target, double bytes) {
  trans_.set_command(read ? tlm::TLM_READ_COMMAND : tlm::TLM_WRITE_COMMAND);
  trans_.set_address(target << target_address_shift);
  trans_.set_data_length(static_cast<unsigned>(bytes));
  trans_.set_streaming_width(static_cast<unsigned>(bytes));
  trans_.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
  return trans_;
}

void compute_unit::run() {
  for (;;) {
    // Going idle: the governor picks a state for the period (idle periods start and end on
    // the kernel's time: the unit synchronises before it goes idle).
    double wake_delay = 0;
    if (queue_.empty()) {
      idle_state_ = idle_selector_ && !cfg_.idle_states.empty() ? idle_selector_->select() : -1;
      if (idle_state_ >= static_cast<int>(cfg_.idle_states.size()))
        throw std::logic_error(std::string(name()) + ": idle governor chose a state the unit does not have");
      while (queue_.empty()) wait(wake_);
      const double woke = detail::now_s();
      const double idle = woke - idle_since_;
      // A unit woken the instant it went idle never left: no state, nothing learnt.
      if (idle > 0) {
        if (idle_selector_) idle_selector_->reflect(idle);
        if (idle_state_ >= 0) {
          const idle_state_timing& s = cfg_.idle_states[static_cast<std::size_t>(idle_state_)];
          const double in_state = idle_since_ + s.entry_latency_s;
          idle_state_s_[static_cast<std::size_t>(idle_state_)] += std::max(0.0, woke - in_state);
          // Woken while still entering: finish the entry, then leave.
          wake_delay = std::max(0.0, in_state - woke) + s.exit_latency_s;
        }
      }
      idle_state_ = -1;
    }
    job j = queue_.front();
    queue_.pop_front();
    running_ = true;
    double t = detail::now_s() + qk_.get_local_time().to_seconds();
    busy_since_ = t;
    if (j.start_s) *j.start_s = t;
    double busy = 0;
    // Leaving the idle state: the unit wakes before it can start.
    if (wake_delay > 0) {
      ledger_.add_interval(t, t + wake_delay, activity_ledger::kind::overhead);
      bound_s_[static_cast<std::size_t>(bound_by::idle_exit)] += wake_delay;
      busy += wake_delay;
      t += wake_delay;
    }
    // A captured graph: one launch for the job, none per kernel.
    graphed_ = j.graph_launch_s >= 0;
    if (graphed_ && j.graph_launch_s > 0) {
      ledger_.add_interval(t, t + j.graph_launch_s, activity_ledger::kind::overhead);
      bound_s_[static_cast<std::size_t>(bound_by::compute)] += j.graph_launch_s;
      busy += j.graph_launch_s;
      t += j.graph_launch_s;
    }
    std::size_t collective_seq = 0;
    double held = 0;  // bytes of the previous operator's output kept on chip
    // An eager framework's host issues the kernels one after another (host_issue each; none
    // inside a captured graph): a kernel cannot start before it is issued.
    const double issue = graphed_ ? 0.0 : cfg_.host_issue.value();
    double issued = t;
    const auto& ops = j.graph->ops;
    for (std::size_t i = 0; i < ops.size(); ++i) {
      const op& o = ops[i];
      // Host work is not a kernel; a library's own kernels come with the call that issued them.
      const bool issued_kernels = issue > 0 && o.host_s <= 0 && !o.same_call;
      if (issued_kernels) {
        // The first of the operator's `repeat` kernels waits for its issue; the last cannot
        // end before all are issued (below).
        const double first = issued + issue;
        issued += issue * o.repeat;
        if (first > t) {
          ledger_.add_interval(t, first, activity_ledger::kind::overhead);
          busy += first - t;
          t = first;
        }
      }
      const double t0 = t;
      double onchip_read = 0;
      bool keep = false;
      if (cfg_.onchip_bytes > 0 && o.kind != op_kind::collective && o.kind != op_kind::transfer) {
        // The previous output feeds this operator from SRAM/L2; this output stays if one
        // kernel's worth fits (the graph's last output always goes to memory).
        onchip_read = std::min(std::max(0.0, o.bytes_read - o.weight_bytes), held);
        keep = i + 1 < ops.size() && o.bytes_written / o.repeat <= cfg_.onchip_bytes;
      }
      t = execute(o, j, collective_seq, t, onchip_read, keep);
      if (issued_kernels && issued > t) {  // a folded operator outran its last kernel's issue
        ledger_.add_interval(t, issued, activity_ledger::kind::overhead);
        t = issued;  // counted in busy below, with the operator
      }
      held = keep ? o.bytes_written : 0;
      busy += t - t0;
    }
    if (j.busy_s) *j.busy_s += busy;
    advance_to(t);
    qk_.sync();  // align with the kernel before telling the waiting job
    idle_since_ = detail::now_s();
    running_ = false;
    if (--j.completion->remaining == 0) j.completion->done.notify(sc_core::SC_ZERO_TIME);
  }
}

double compute_unit::idle_state_seconds(std::size_t i, double now_s) const {
  double s = i < idle_state_s_.size() ? idle_state_s_[i] : 0.0;
  if (idle_state_ >= 0 && static_cast<std::size_t>(idle_state_) == i)
    s += std::max(0.0, now_s - (idle_since_ + cfg_.idle_states[i].entry_latency_s));
  return s;
}

double compute_unit::dvfs_check(double t, double& stalled) {
  const double sw = clock_.last_switch_s();
  if (sw <= seen_switch_ || sw > t) return t;
  seen_switch_ = sw;
  const double stall = cfg_.dvfs_stall.value();
  // A change while the unit was idle costs the work nothing.
  if (stall <= 0 || sw < busy_since_) return t;
  ledger_.add_interval(t, t + stall, activity_ledger::kind::overhead);
  stalled += stall;
  return t + stall;
}

double compute_unit::stream(const unit_route& r, double read, double written, double ops, double rate_per_hz,
                            double overlap, double activity, double t, double& compute_sum, double& transfer_sum,
                            const table_time* table) {
  // Pieces: reads first (weights, inputs), then writes (outputs), a piece never mixing the
  // two, so the target's ledger books every byte as the read or write it is. A piece is at
  // most a tile of bytes and, at the clock now, at most a control period of work: a clock
  // change (a power limit's, a governor's, decided once a period) reaches a long operator
  // within a period, whatever its bytes. Each carries its bytes' share of the arithmetic (a
  // kernel interleaves the two evenly), so the operator's time does not depend on the cut.
  const double tile = cfg_.tile_bytes;
  const auto tiles_of = [tile](double b) { return b > 0 ? static_cast<std::size_t>(std::ceil(b / tile)) : 0; };
  const double bytes = read + written;
  const double hz0 = clock_.hz_at(t);
  const double work_s = table ? table->cycles / hz0 + table->fixed_s : rate_per_hz > 0 ? ops / (rate_per_hz * hz0) : 0;
  const double period = ledger_.period();
  const std::size_t by_time = period > 0 && std::isfinite(work_s)
                                  ? static_cast<std::size_t>(std::min(1e6, std::ceil(work_s / period)))
                                  : std::size_t{1};
  std::size_t read_n = tiles_of(read), write_n = tiles_of(written);
  if (bytes > 0 && by_time > read_n + write_n) {
    const auto at_least = [&](double b, std::size_t n) {
      return b > 0 ? std::max(n, static_cast<std::size_t>(std::ceil(static_cast<double>(by_time) * b / bytes))) : 0;
    };
    read_n = at_least(read, read_n);
    write_n = at_least(written, write_n);
  }
  const std::size_t pieces = bytes > 0 ? read_n + write_n : std::max<std::size_t>(1, by_time);
  // Piece k of n of `total` bytes, as a transaction's whole bytes (the n sum to floor(total)).
  const auto part = [](double total, std::size_t n, std::size_t k) {
    const double per = total / static_cast<double>(n);
    return std::floor(per * static_cast<double>(k + 1)) - std::floor(per * static_cast<double>(k));
  };
  double dvfs = 0;
  bool streaming = false;  // a transaction of this operator has waited out the path's latency
  const bool through_l2 = &r == &memory_ && cfg_.l2_bytes_per_cycle > 0;
  for (std::size_t i = 0; i < pieces; ++i) {
    t = dvfs_check(t, dvfs);
    const bool is_read = i < read_n;
    const double piece_B = bytes > 0 ? (is_read ? part(read, read_n, i) : part(written, write_n, i - read_n)) : 0.0;
    const double share = bytes > 0 ? (is_read ? read / static_cast<double>(read_n)
                                              : written / static_cast<double>(write_n)) / bytes
                                   : 1.0 / static_cast<double>(pieces);
    // From a profile: the piece's share of the table time, its compute part at the clock
    // in effect, the rest fixed. The part that scales with the clock is the arithmetic.
    const double piece_ops = ops * share;
    const double scaling_s = table ? table->cycles * share / clock_.hz_at(t)
                                   : rate_per_hz > 0 ? piece_ops / (rate_per_hz * clock_.hz_at(t)) : 0;
    const double fixed_s = table ? table->fixed_s * share : 0;
    const double compute_s = table ? scaling_s + fixed_s : scaling_s;
    double mem_s = 0;
    if (piece_B > 0) {
      auto& tr = payload(is_read, r.target, piece_B);
      sc_core::sc_time delay = detail::to_sc(std::max(0.0, t - detail::now_s()));
      socket[r.port]->b_transport(tr, delay);
      if (tr.is_response_error()) throw std::runtime_error(std::string(name()) + ": transaction failed (no route)");
      ++transactions_;
      // A kernel's pieces stream back to back: the next one's requests are in flight while
      // this one's bytes arrive, so only the first waits out the path's latency. (Each paying
      // it made the tile size a model parameter: 64 MiB HBM tiles lost 2.3 %.)
      const double waived_s = streaming ? r.latency_s : 0.0;
      mem_s = std::max(0.0, detail::now_s() + delay.to_seconds() - t - waived_s);
      streaming = true;
      // DRAM bytes pass the L2, whose bandwidth scales with the core clock.
      if (through_l2)
        mem_s = std::max(mem_s, r.latency_s - waived_s + piece_B / (cfg_.l2_bytes_per_cycle * clock_.hz_at(t)));
    }
    // The table time is a floor under the memory's: the measured kernel already waited
    // for its bytes, so only a slower memory (contention, a slower part) stretches it.
    // A roofline piece hides only `overlap` of the shorter time under the longer.
    const double end = std::max(compute_s, mem_s) + (table ? 0.0 : (1.0 - overlap) * std::min(compute_s, mem_s));
    ledger_.add_interval(t, t + scaling_s, activity_ledger::kind::compute, piece_ops, 1, activity);
    if (end > scaling_s) ledger_.add_interval(t + scaling_s, t + end, activity_ledger::kind::stall);
    compute_sum += scaling_s;
    transfer_sum += table ? std::max(mem_s, fixed_s) : mem_s;
    t += end;
    // Run ahead of the kernel by at most the global quantum, also inside a long
    // operator: other initiators book the shared bandwidth in between, so units that
    // stream at the same time share it instead of one taking it all for a whole op.
    advance_to(t);
  }
  bound_s_[static_cast<std::size_t>(bound_by::dvfs)] += dvfs;
  return t;
}

double compute_unit::collective(const op& o, job& j, std::size_t seq, double t) {
  if (o.collective == collective_kind::send) return send(o, t);
  const int n = j.group ? j.group->size() : 1;
  if (n <= 1 || !(o.message_bytes > 0)) return t;  // nothing to exchange
  if (fabric_.port < 0) throw std::runtime_error(std::string(name()) + ": collective '" + o.name + "' without a fabric");
  // Barrier: every rank must have reached this collective before data moves.
  advance_to(t);
  qk_.sync();
  const double arrive = detail::now_s();
  rank_group::meeting& m = j.group->at(seq);
  if (++m.arrived == n) m.met.notify(sc_core::SC_ZERO_TIME);
  else wait(m.met);
  t = detail::now_s();
  if (t > arrive) ledger_.add_interval(arrive, t, activity_ledger::kind::stall);
  // Ring algorithm (Patarasuk & Yuan 2009; NCCL): all-reduce = reduce-scatter then
  // all-gather, 2(n-1) steps each sending S/n; all-gather and reduce-scatter n-1 steps.
  const double steps = o.collective == collective_kind::all_reduce ? 2.0 * (n - 1) : n - 1.0;
  const double chunk = o.message_bytes / n * o.repeat;  // per step, all repeats together
  for (int s = 0; s < static_cast<int>(steps); ++s) {
    const double end = fabric_transfer(chunk, t);
    ledger_.add_interval(t, end, activity_ledger::kind::stall);
    t = end;
    advance_to(t);
  }
  // Folded collectives pay each one's latency terms: (repeat - 1) * steps hops more; and
  // every call its fixed latency.
  const double extra = (o.repeat - 1) * steps * fabric_.latency_s + cfg_.collective_latency.value() * o.repeat;
  if (extra > 0) ledger_.add_interval(t, t + extra, activity_ledger::kind::stall);
  return t + extra;
}

double compute_unit::fabric_transfer(double bytes, double t) {
  // The tiles stream back to back; the transfer ends when its last byte arrived.
  double left = bytes, issue = t, end = t;
  while (left > 0) {
    const double b = std::min(cfg_.tile_bytes, left);
    left -= b;
    auto& tr = payload(false, fabric_.target, b);
    sc_core::sc_time delay = detail::to_sc(std::max(0.0, issue - detail::now_s()));
    socket[fabric_.port]->b_transport(tr, delay);
    if (tr.is_response_error()) throw std::runtime_error(std::string(name()) + ": fabric transaction failed");
    ++transactions_;
    end = detail::now_s() + delay.to_seconds();
    issue = end - fabric_.latency_s;  // the next tile follows the bytes, not the latency
  }
  return end;
}

double compute_unit::send(const op& o, double t) {
  if (!(o.message_bytes > 0)) return t;
  if (fabric_.port < 0) throw std::runtime_error(std::string(name()) + ": send '" + o.name + "' without a fabric");
  // One hop to the peer: no barrier (the engine starts the next stage when this one is
  // done), the message's tiles back to back, then the call's fixed latency.
  const double end = fabric_transfer(o.message_bytes * o.repeat, t);
  const double fixed = cfg_.collective_latency.value() * o.repeat;
  ledger_.add_interval(t, end + fixed, activity_ledger::kind::stall);
  advance_to(end);
  return end + fixed;
}

bool compute_unit::from_profile(const op& o, double rate_per_hz, double t, table_time& tt) {
  const auto p = cfg_.profile->lookup(o, clock_.hz_at(t));
  if (!p) {
    ++profile_misses_[to_string(o.kind)];
    return false;
  }
  ++profiled_ops_;
  const double kernels = o.repeat, time_s = p->time_s * kernels;
  // Not given: the share of the measured time the roofline's arithmetic takes at the
  // table's clock (a compute-bound kernel scales with the clock, a memory-bound one not).
  double c = p->compute_fraction;
  if (c < 0) c = rate_per_hz > 0 && time_s > 0 ? std::clamp(o.ops / (rate_per_hz * p->ref_hz) / time_s, 0.0, 1.0) : 1.0;
  tt.cycles = c * time_s * p->ref_hz;
  tt.fixed_s = (1 - c) * time_s;
  return true;
}

double compute_unit::execute(const op& o, job& j, std::size_t& collective_seq, double t, double onchip_read,
                             bool keep_output) {
  const double t_start = t;
  if (o.host_s > 0) {
    // Host software: busy for its time on its share of the unit's cores; with a reference
    // clock, its cycles at the clock in effect. It runs in slices of the global quantum,
    // letting the kernel catch up between them, so that a clock the governors choose while
    // it runs (schedutil raising it for a uclamp.min) applies to the rest.
    if (o.host_ref_hz > 0) {
      const double quantum = tlm::tlm_global_quantum::instance().get().to_seconds();
      const double slice = quantum > 0 ? quantum : 1e-4;
      double cycles = o.host_s * o.host_ref_hz;
      while (cycles > 1e-6) {
        const double f = clock_.hz_at(t), sw = clock_.last_switch_s();
        double dt = std::min(cycles / f, slice);
        if (clock_.pending() && sw > t && sw < t + dt) dt = sw - t;  // on to the switch at f
        cycles -= dt * f;
        ledger_.add_interval(t, t + dt, activity_ledger::kind::compute, 0, o.host_share);
        t += dt;
        advance_to(t);
      }
    } else {
      t += o.host_s;
      ledger_.add_interval(t_start, t, activity_ledger::kind::compute, 0, o.host_share);
    }
    bound_s_[static_cast<std::size_t>(bound_by::compute)] += t - t_start;
    ++ops_executed_;
    if (on_op) on_op({&o, t_start, t, bound_by::compute});
    return t;
  }
  // Launch overhead, once per folded kernel (none inside a captured graph): the unit is
  // busy but does no arithmetic.
  const double overhead = graphed_ ? 0.0 : cfg_.launch_overhead.value() * o.repeat;
  if (overhead > 0) {
    ledger_.add_interval(t, t + overhead, activity_ledger::kind::overhead);
    t += overhead;
  }
  const double dvfs_before = bound_s_[static_cast<std::size_t>(bound_by::dvfs)];
  bound_by b;
  if (o.kind == op_kind::collective) {
    t = collective(o, j, collective_seq++, t);
    b = bound_by::interconnect;
  } else if (o.kind == op_kind::transfer) {
    auto it = io_.find(o.target);
    if (it == io_.end())
      throw std::runtime_error(std::string(name()) + ": transfer '" + o.name + "' to '" + o.target +
                               "', which this unit cannot reach");
    double c = 0, x = 0;
    occupancy_->factor = 1 / memory_efficiency_for(o);
    t = stream(it->second, o.bytes_read, o.bytes_written, 0, 0, 1.0, 1.0, t, c, x);
    occupancy_->factor = 1;
    b = bound_by::interconnect;
  } else {
    const double rate = arithmetic_rate(o);
    table_time tt;
    const bool profiled = cfg_.profile && from_profile(o, rate, t, tt);
    if (!profiled && !(rate > 0) && o.ops > 0)
      throw std::runtime_error(std::string(name()) + " has no throughput for " + to_string(o.prec) + " (operator '" +
                               o.name + "')");
    double compute_sum = 0, memory_sum = 0;
    occupancy_->factor = 1 / memory_efficiency_for(o);
    t = stream(memory_, o.bytes_read - onchip_read, keep_output ? 0 : o.bytes_written, o.ops, rate, overlap_for(o), activity_for(o),
               t, compute_sum, memory_sum, profiled ? &tt : nullptr);
    occupancy_->factor = 1;
    b = memory_sum > compute_sum ? bound_by::memory : bound_by::compute;
  }
  const double dvfs = bound_s_[static_cast<std::size_t>(bound_by::dvfs)] - dvfs_before;
  const double elapsed = t - t_start;
  bound_s_[static_cast<std::size_t>(b)] += elapsed - dvfs;
  if (dvfs > elapsed - dvfs) b = bound_by::dvfs;
  ++ops_executed_;
  if (on_op) on_op({&o, t_start, t, b});
  return t;
}

}  // namespace ptsim::tlm_models
