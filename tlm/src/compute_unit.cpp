#include "ptsim/tlm/compute_unit.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace ptsim::tlm {

using sc_core::sc_time;
using sc_core::SC_SEC;

compute_unit::compute_unit(sc_core::sc_module_name name, const compute_unit_config& cfg, domain_clock& clock,
                           double control_period_s)
    : sc_module(name),
      socket("socket"),
      cfg_(cfg),
      clock_(clock),
      ledger_(control_period_s),
      scratch_(static_cast<std::size_t>(cfg.tile_bytes)) {
  SC_HAS_PROCESS(compute_unit);
  SC_THREAD(run);
  trans_.set_data_ptr(scratch_.data());
  trans_.set_streaming_width(static_cast<unsigned>(scratch_.size()));
  trans_.set_byte_enable_ptr(nullptr);
  trans_.set_dmi_allowed(false);
}

void compute_unit::submit(const op_graph& g, sc_core::sc_event& done, double* start_s) {
  queue_.push_back({&g, &done, start_s});
  wake_.notify(sc_core::SC_ZERO_TIME);
}

double compute_unit::peak_ops_per_cycle(precision p) const {
  auto it = cfg_.ops_per_cycle.find(p);
  if (it == cfg_.ops_per_cycle.end())
    throw std::runtime_error(std::string(name()) + " has no throughput for precision " + to_string(p));
  return it->second * cfg_.cores;
}

void compute_unit::run() {
  for (;;) {
    while (queue_.empty()) wait(wake_);
    job j = queue_.front();
    queue_.pop_front();
    running_ = true;
    if (j.start_s) *j.start_s = qk_.get_current_time().to_seconds();
    const double peak = peak_ops_per_cycle(j.graph->prec);
    for (const op& o : j.graph->ops) execute(o, peak);
    qk_.sync();  // align with the kernel before telling the waiting job
    running_ = false;
    j.done->notify(sc_core::SC_ZERO_TIME);
  }
}

void compute_unit::execute(const op& o, double peak_per_cycle) {
  const double t_start = qk_.get_current_time().to_seconds();
  // Launch overhead: the unit is busy but does no arithmetic.
  double t = t_start;
  const double overhead = cfg_.launch_overhead.value();
  if (overhead > 0) {
    ledger_.add_interval(t, t + overhead, activity_ledger::kind::overhead);
    t += overhead;
  }
  const double eff = o.cls == op_class::tensor ? cfg_.efficiency : cfg_.vector_efficiency;
  const double ops_per_cycle = peak_per_cycle * eff;
  const double bytes = o.bytes_read + o.bytes_written;
  const double tile = cfg_.tile_bytes;
  // Reads first (weights, inputs), then writes (outputs). A tile never mixes the two,
  // so the memory's ledger books every byte as the read or write it is.
  const auto tiles_of = [tile](double b) { return b > 0 ? static_cast<std::size_t>(std::ceil(b / tile)) : 0; };
  const std::size_t read_tiles = tiles_of(o.bytes_read);
  const std::size_t tiles = std::max<std::size_t>(1, read_tiles + tiles_of(o.bytes_written));
  const double ops_per_tile = o.ops / static_cast<double>(tiles);
  double done_read = 0, done_written = 0;
  double compute_sum = 0, memory_sum = 0;
  for (std::size_t i = 0; i < tiles; ++i) {
    const double compute_s = ops_per_tile / (ops_per_cycle * clock_.hz_at(t));
    double mem_s = 0;
    if (bytes > 0) {
      const bool is_read = i < read_tiles;
      const double this_tile =
          is_read ? std::min(tile, o.bytes_read - done_read) : std::min(tile, o.bytes_written - done_written);
      (is_read ? done_read : done_written) += this_tile;
      trans_.set_command(is_read ? ::tlm::TLM_READ_COMMAND : ::tlm::TLM_WRITE_COMMAND);
      trans_.set_address(0);
      trans_.set_data_length(static_cast<unsigned>(this_tile));
      trans_.set_streaming_width(static_cast<unsigned>(this_tile));
      trans_.set_response_status(::tlm::TLM_INCOMPLETE_RESPONSE);
      sc_time delay(std::max(0.0, t - sc_core::sc_time_stamp().to_seconds()), SC_SEC);
      socket->b_transport(trans_, delay);
      if (trans_.is_response_error()) throw std::runtime_error(std::string(name()) + ": memory transaction failed");
      ++transactions_;
      mem_s = sc_core::sc_time_stamp().to_seconds() + delay.to_seconds() - t;
    }
    const double step = std::max(compute_s, mem_s);
    ledger_.add_interval(t, t + compute_s, activity_ledger::kind::compute, ops_per_tile);
    if (mem_s > compute_s) ledger_.add_interval(t + compute_s, t + mem_s, activity_ledger::kind::stall);
    compute_sum += compute_s;
    memory_sum += mem_s;
    t += step;
    // Run ahead of the kernel by at most the global quantum, also inside a long
    // operator: other initiators book the shared bandwidth in between, so units that
    // stream at the same time share it instead of one taking it all for a whole op.
    qk_.set(sc_time(std::max(0.0, t - sc_core::sc_time_stamp().to_seconds()), SC_SEC));
    if (qk_.need_sync()) qk_.sync();
  }
  const double elapsed = t - t_start;
  const bound_by b = memory_sum > compute_sum ? bound_by::memory : bound_by::compute;
  (b == bound_by::memory ? memory_bound_s_ : compute_bound_s_) += elapsed;
  ++ops_executed_;
  if (on_op) on_op({&o, t_start, t, b});
}

}  // namespace ptsim::tlm
