#pragma once
// A compute unit (CPU cluster, NPU): runs operator graphs from a FIFO, one operator at a
// time across its cores. An operator's arithmetic takes ops / (cores * ops_per_cycle *
// efficiency * f) at the frequency in effect; its memory traffic goes out in tiles as
// loosely-timed transactions; per tile the slower of compute and memory sets the pace
// (double buffering). Runs ahead of the kernel by up to the global quantum.
#include <deque>
#include <functional>
#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/tlm_quantumkeeper.h>
#include <vector>

#include "ptsim/tlm/activity_ledger.hpp"
#include "ptsim/tlm/domain_clock.hpp"
#include "ptsim/tlm/platform_config.hpp"

namespace ptsim::tlm {

/// What bound an operator's time.
enum class bound_by { compute, memory };

/// One operator execution, reported to an optional observer (for traces and `ops`).
struct op_record {
  const op* operation;
  double start_s, end_s;
  bound_by bound;
};

class compute_unit : public sc_core::sc_module {
 public:
  tlm_utils::simple_initiator_socket<compute_unit> socket;

  compute_unit(sc_core::sc_module_name name, const compute_unit_config& cfg, domain_clock& clock,
               double control_period_s);

  /// Queues a graph; `done` is notified when its last operator finished; *start_s is set
  /// when its first operator starts.
  void submit(const op_graph& g, sc_core::sc_event& done, double* start_s);
  std::size_t queued() const { return queue_.size() + (running_ ? 1 : 0); }
  activity_ledger& ledger() { return ledger_; }
  const compute_unit_config& config() const { return cfg_; }
  std::uint64_t transactions() const { return transactions_; }
  std::uint64_t ops_executed() const { return ops_executed_; }
  /// Busy seconds by what bound them, over the whole run.
  double compute_bound_s() const { return compute_bound_s_; }
  double memory_bound_s() const { return memory_bound_s_; }
  std::function<void(const op_record&)> on_op;

 private:
  struct job {
    const op_graph* graph;
    sc_core::sc_event* done;
    double* start_s;
  };
  void run();
  void execute(const op& o, double peak_ops_per_cycle);
  double peak_ops_per_cycle(precision p) const;

  compute_unit_config cfg_;
  domain_clock& clock_;
  activity_ledger ledger_;
  tlm_utils::tlm_quantumkeeper qk_;
  std::deque<job> queue_;
  bool running_ = false;
  sc_core::sc_event wake_;
  ::tlm::tlm_generic_payload trans_;
  std::vector<unsigned char> scratch_;  // payload buffer; memories are timing-only
  std::uint64_t transactions_ = 0, ops_executed_ = 0;
  double compute_bound_s_ = 0, memory_bound_s_ = 0;
};

}  // namespace ptsim::tlm
