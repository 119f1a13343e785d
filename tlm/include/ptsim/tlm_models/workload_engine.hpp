#pragma once
// Request streams: arrivals (fixed rate, Poisson, a closed loop of users, a trace),
// batching (none, static, dynamic with a timeout), stages run in order on their units
// (one unit, the least loaded replica, or a data-parallel group), and LLM serving
// streams with iteration-level batching on tensor-parallel instances. One record per
// finished request.
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <systemc>
#include <unordered_map>
#include <vector>

#include "ptsim/tlm_models/compute_unit.hpp"
#include "ptsim/tlm_config/llm_scheduler.hpp"
#include "ptsim/tlm_config/platform_config.hpp"

namespace ptsim::tlm_models {
// The models speak the vocabulary of the descriptions they run (ptsim/tlm_config).
using namespace tlm_config;

struct request_record {
  std::int64_t id = 0;
  std::string stream;
  std::string unit;  ///< unit of the longest stage; an LLM instance's ranks joined by '+'
  double arrival_s = 0, start_s = 0, finish_s = 0;
  double first_token_s = 0;  ///< LLM: end of the iteration that produced the first token; else finish_s
  std::int64_t tokens_in = 0, tokens_out = 0;  ///< LLM prompt and generated tokens (0 otherwise)
  double inferences = 1;     ///< inputs the request carried (its batch), for throughput
  /// Busy seconds of each unit attributed to this request (its share of the batches and
  /// iterations it was in): the basis of its energy.
  std::vector<std::pair<std::string, double>> busy_s;
};

class workload_engine : public sc_core::sc_module {
 public:
  workload_engine(sc_core::sc_module_name name, const workload_config& cfg,
                  const std::map<std::string, compute_unit*>& units, std::uint64_t seed);
  ~workload_engine() override;

  /// Finished requests in the order they finished (a deque: no reallocation copies as it grows).
  const std::deque<request_record>& finished() const { return finished_; }
  /// Requests accepted and not finished (queued or running), by id: finish_s, start_s and
  /// first_token_s NaN.
  std::vector<request_record> unfinished() const;
  /// Requests refused on arrival (queue full), in order: id -1 (never given one), times NaN
  /// but the arrival.
  const std::vector<request_record>& dropped_requests() const { return dropped_records_; }
  std::uint64_t dropped() const { return dropped_; }
  std::uint64_t arrived() const { return arrived_; }
  /// Called once per dropped request (queue full), with its stream and time.
  std::function<void(const std::string&, double)> on_drop;

  /// What the run's throughput counts: "tokens/s" (output tokens generated, also of
  /// requests still running) when any stream serves an LLM; "samples/s" (samples of
  /// finished training steps) when a stage trains; else "inferences/s" (inputs of
  /// finished requests).
  std::string throughput_units() const;
  double throughput_count() const;
  /// What throughput counts for one stream: its output tokens generated (also of requests
  /// still running) when it serves an LLM, else the inputs of its finished requests.
  double throughput_count(const std::string& stream) const;
  /// An LLM stream's instances right now: sequences running (the achieved batch) and
  /// waiting, summed over its instances, and its KV cache's reserved share (0..1). All 0 for
  /// a stream that is not an LLM stream.
  struct llm_occupancy {
    double running = 0, waiting = 0, kv_share = 0;
    std::size_t instances = 0;
  };
  llm_occupancy occupancy(const std::string& stream) const;
  /// LLM serving iterations run, over all instances.
  std::uint64_t iterations() const { return iterations_; }
  /// The CPU scheduler whose tasks run the stages on CPU clusters (policy.scheduler: eas);
  /// null when off. Tasks are sched_tasks(cfg) in order.
  cpu_scheduler* scheduler() { return scheduler_.get(); }
  const cpu_scheduler* scheduler() const { return scheduler_.get(); }

 private:
  struct request;
  struct stream_state;
  struct llm_instance;

  void source(stream_state& s);
  void closed_loop_user(stream_state& s, int user);
  void trace_source(stream_state& s);
  void accept(stream_state& s, std::unique_ptr<request> r);
  void batcher(stream_state& s);
  void serve_batch(stream_state& s, std::vector<request*> batch);
  void serve_llm(stream_state& s, llm_instance& inst);
  /// Static batching: waits until a full batch is queued or the oldest request's timeout.
  void gather_static_batch(const stream_state& s, llm_instance& inst);
  /// Records the sequences that finished with the iteration just run (host seconds
  /// `host_busy_s` on CPU slot `host_slot`).
  void finish_sequences(stream_state& s, llm_instance& inst, double host_busy_s, std::size_t host_slot);
  void finish(stream_state& s, request& r, request_record rec);
  std::unique_ptr<request> make_request(stream_state& s, double arrival);
  double exponential(stream_state& s, double mean);
  int draw(stream_state& s, const token_range& r);
  const op_graph& graph_for(stream_state& s, std::size_t stage, int batch);

  const workload_config& cfg_;
  std::map<std::string, compute_unit*> units_;
  std::vector<std::unique_ptr<stream_state>> streams_;
  std::deque<request_record> finished_;
  std::map<std::int64_t, request_record> open_;  // accepted, not finished: what a record can say yet
  std::vector<request_record> dropped_records_;
  void drop(stream_state& s, double now);
  std::int64_t next_id_ = 0;
  std::uint64_t dropped_ = 0, arrived_ = 0, iterations_ = 0;
  double inferences_ = 0;
  bool any_llm_ = false;
  std::unique_ptr<cpu_scheduler> scheduler_;
};

}  // namespace ptsim::tlm_models
