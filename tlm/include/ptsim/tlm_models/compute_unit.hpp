#pragma once
// A compute unit (CPU cluster, GPU, NPU): runs operator graphs from a FIFO, one operator
// at a time across its cores (SMs, engines). An operator's arithmetic takes
// ops / (cores * ops_per_cycle * efficiency * f) at the frequency in effect; its memory
// traffic goes out in tiles as loosely-timed transactions; per tile the slower of
// compute and memory sets the pace (double buffering). Collectives meet the other ranks
// of their group at a barrier, then stream the ring algorithm's bytes over the fabric.
// Runs ahead of the kernel by up to the global quantum.
#include <array>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <systemc>
#include <tlm>
#include <tlm_utils/multi_passthrough_initiator_socket.h>
#include <tlm_utils/tlm_quantumkeeper.h>
#include <vector>

#include "ptsim/tlm_models/activity_ledger.hpp"
#include "ptsim/tlm_models/domain_clock.hpp"
#include "ptsim/tlm_config/platform_config.hpp"

namespace ptsim::tlm_models {
// The models speak the vocabulary of the descriptions they run (ptsim/tlm_config).
using namespace tlm_config;

struct memory_occupancy;

/// What bound an operator's time: its arithmetic, its memory traffic, a transfer over
/// links (collectives, io), a stall for a clock change, or leaving an idle state.
enum class bound_by { compute, memory, interconnect, dvfs, idle_exit };
inline constexpr std::size_t bound_kinds = 5;
const char* to_string(bound_by b);

/// One operator execution, reported to an optional observer (for traces and `ops`).
struct op_record {
  const op* operation;
  double start_s, end_s;
  bound_by bound;
};

/// Ranks that run one graph together (data or tensor parallel) and meet at its
/// collectives: the k-th collective of every rank is the same exchange.
class rank_group {
 public:
  explicit rank_group(int size) : size_(size) {}
  int size() const { return size_; }
  /// The meeting for collective number k (created on first use).
  struct meeting {
    int arrived = 0;
    sc_core::sc_event met;
  };
  meeting& at(std::size_t k) {
    while (meetings_.size() <= k) meetings_.emplace_back();
    return meetings_[k];
  }

 private:
  int size_;
  std::deque<meeting> meetings_;
};

/// Completion of a job that may run on several units: `done` fires when `remaining`
/// reaches zero.
struct job_completion {
  sc_core::sc_event done;
  int remaining = 1;
};

/// Where a unit's transactions for one target go.
struct unit_route {
  std::uint64_t target = 0;  ///< target id (address = id << target_address_shift)
  int port = -1;             ///< the unit's socket index (-1: no route)
  double latency_s = 0;      ///< sum of the latencies along the path
};

/// Picks a unit's idle state when it goes idle and learns how long idle periods last
/// (the integrator wires a cpuidle governor here; without one the unit uses no state).
class idle_selector {
 public:
  virtual ~idle_selector() = default;
  /// Index into the unit's idle_states for the period starting now; -1: none.
  virtual int select() = 0;
  /// The length of the idle period that just ended (s).
  virtual void reflect(double idle_s) = 0;
};

class compute_unit : public sc_core::sc_module {
 public:
  /// Bound to the unit's first hops, in the order the platform adds them.
  tlm_utils::multi_passthrough_initiator_socket<compute_unit> socket;

  compute_unit(sc_core::sc_module_name name, const compute_unit_config& cfg, domain_clock& clock,
               double control_period_s);

  struct job {
    const op_graph* graph = nullptr;
    job_completion* completion = nullptr;
    double* start_s = nullptr;  ///< set when its first operator starts (may be null)
    double* busy_s = nullptr;   ///< the unit's busy time for it is added here (may be null)
    std::shared_ptr<rank_group> group;  ///< for collectives (null: a group of one)
    /// >= 0: the job's kernels go out as one captured graph (CUDA graphs): this launch
    /// cost once instead of launch_overhead per kernel. < 0: launched one by one.
    double graph_launch_s = -1;
  };
  /// Queues a job; the graph, completion and outputs must outlive it.
  void submit(const job& j);
  std::size_t queued() const { return queue_.size() + (running_ ? 1 : 0); }

  // Routes, set by the platform at elaboration.
  void set_memory_route(const unit_route& r) { memory_ = r; }
  void set_fabric_route(const unit_route& r) { fabric_ = r; }
  void add_io_route(const std::string& target, const unit_route& r) { io_[target] = r; }
  bool has_io_route(const std::string& target) const { return io_.count(target) > 0; }
  bool has_fabric() const { return fabric_.port >= 0; }

  activity_ledger& ledger() { return ledger_; }
  const compute_unit_config& config() const { return cfg_; }
  std::uint64_t transactions() const { return transactions_; }
  std::uint64_t ops_executed() const { return ops_executed_; }
  /// Peak arithmetic rate for an operator at frequency f (ops/s), before efficiency;
  /// 0 when the unit has no throughput for its precision.
  double peak_ops_per_s(const op& o, double hz) const { return peak_per_cycle(o) * hz; }
  /// Share of peak the unit reaches on operator `o` (a backward kernel: its forward's share
  /// times the unit's backward_efficiency).
  double efficiency_for(const op& o) const;
  /// Operations per cycle `o` runs at: peak x efficiency_for, or for a GEMM of known shape
  /// on a unit with gemm_tiling, its operations over its fastest tiling's cycles.
  double arithmetic_rate(const op& o) const;
  /// Share of the memory's reachable bandwidth operator `o` reaches (1 unless configured).
  double memory_efficiency_for(const op& o) const;
  /// Share of the shorter of `o`'s arithmetic and memory times per tile hidden under the
  /// longer (1, the roofline, unless configured for its kind).
  double overlap_for(const op& o) const;
  /// Share of the unit's switched capacitance `o`'s kind toggles while computing (1 unless
  /// configured for its kind).
  double activity_for(const op& o) const;
  /// Busy seconds over the whole run, by what bound them.
  double bound_seconds(bound_by b) const { return bound_s_[static_cast<std::size_t>(b)]; }
  double compute_bound_s() const { return bound_seconds(bound_by::compute); }
  double memory_bound_s() const { return bound_seconds(bound_by::memory); }
  std::function<void(const op_record&)> on_op;
  /// The idle-state governor (not owned; may be null).
  void set_idle_selector(idle_selector* s) { idle_selector_ = s; }
  /// Seconds spent resident in idle state i from the start until now_s (the kernel's
  /// time: idle periods begin and end on it, so this is exact up to now).
  double idle_state_seconds(std::size_t i, double now_s) const;
  /// The state the unit is in or entering (-1: none, or busy).
  int idle_state() const { return idle_state_; }
  /// With a profile: operators timed from it, and those without a row (timed by the
  /// roofline), by kind.
  std::uint64_t profiled_ops() const { return profiled_ops_; }
  const std::map<std::string, std::uint64_t>& profile_misses() const { return profile_misses_; }

 private:
  /// The share a forward kernel of `o`'s kind, precision and rule set reaches.
  double forward_efficiency_for(const op& o) const;
  void run();
  /// Runs operator `o` of job `j` from local time t; returns the time it ended.
  /// `onchip_read` bytes of its input are already on chip; with `keep_output` its output
  /// stays on chip for the next operator.
  double execute(const op& o, job& j, std::size_t& collective_seq, double t, double onchip_read, bool keep_output);
  /// Streams `read` then `written` bytes to route r in tiles, with `ops` of arithmetic
  /// spread over them; returns the end time; adds to the compute and transfer sums. Its
  /// computing seconds are booked at `activity` (op_activity).
  /// A profiled operator's time: `cycles` scale with the clock, `fixed_s` does not.
  struct table_time {
    double cycles = 0, fixed_s = 0;
  };
  double stream(const unit_route& r, double read, double written, double ops, double rate_per_hz, double overlap,
                double activity, double t, double& compute_sum, double& transfer_sum, const table_time* table = nullptr);
  /// The profile's time for `o` at time t, or false (no row: the roofline times it).
  bool from_profile(const op& o, double rate_per_hz, double t, table_time& tt);
  double collective(const op& o, job& j, std::size_t seq, double t);
  /// A pipeline stage's point-to-point send of its message over the fabric; returns its end.
  double send(const op& o, double t);
  /// `bytes` over the fabric from t, tile by tile; returns when the last byte arrived.
  double fabric_transfer(double bytes, double t);
  /// Books a stall for a clock change that took effect since the last check.
  double dvfs_check(double t, double& stalled);
  void advance_to(double t);
  double peak_per_cycle(const op& o) const;
  tlm::tlm_generic_payload& payload(bool read, std::uint64_t target, double bytes);

  compute_unit_config cfg_;
  domain_clock& clock_;
  activity_ledger ledger_;
  tlm_utils::tlm_quantumkeeper qk_;
  std::deque<job> queue_;
  bool running_ = false;
  sc_core::sc_event wake_;
  unit_route memory_, fabric_;
  std::map<std::string, unit_route> io_;
  tlm::tlm_generic_payload trans_;
  memory_occupancy* occupancy_ = nullptr;  ///< on trans_ (which owns it): this op's factor
  unsigned char scratch_ = 0;  // payload buffer; targets are timing-only and never touch it
  std::uint64_t transactions_ = 0, ops_executed_ = 0;
  std::array<double, bound_kinds> bound_s_{};
  double idle_since_ = 0;       ///< when the unit last became idle
  idle_selector* idle_selector_ = nullptr;
  int idle_state_ = -1;                     ///< chosen for the current idle period
  std::vector<double> idle_state_s_;        ///< closed residency per state
  double busy_since_ = 0;       ///< when the current job started
  double seen_switch_ = -1;     ///< the last clock change already accounted for
  bool graphed_ = false;        ///< the running job was launched as one graph
  std::uint64_t profiled_ops_ = 0;
  std::map<std::string, std::uint64_t> profile_misses_;
};

}  // namespace ptsim::tlm_models
