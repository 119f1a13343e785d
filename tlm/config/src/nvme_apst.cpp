#include "ptsim/tlm_config/nvme_apst.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace ptsim::tlm_config {

nvme_apst::nvme_apst(std::vector<nvme_state_timing> states) : states_(std::move(states)) {
  double ready = 0;  // when the previous state's entry is over, after the last I/O
  for (const auto& s : states_) {
    if (!(s.idle_after_s >= 0 && s.entry_latency_s >= 0 && s.exit_latency_s >= 0) || !std::isfinite(s.idle_after_s) ||
        !std::isfinite(s.entry_latency_s) || !std::isfinite(s.exit_latency_s))
      throw std::invalid_argument("NVMe power state '" + s.name + "': times must be finite and >= 0");
    if (s.idle_after_s < ready)
      throw std::invalid_argument("NVMe power state '" + s.name + "': idle_after must be at least the previous "
                                  "state's idle_after plus its entry_latency (states shallow to deep)");
    ready = s.idle_after_s + s.entry_latency_s;
  }
}

void nvme_apst::add_residency(double last_io_s, double t0, double t1, std::vector<double>& out) const {
  for (std::size_t k = 0; k < states_.size(); ++k) {
    // Resident in k from the end of its entry until the next state's entry starts.
    const double from = last_io_s + states_[k].idle_after_s + states_[k].entry_latency_s;
    const double to = k + 1 < states_.size() ? last_io_s + states_[k + 1].idle_after_s
                                             : std::numeric_limits<double>::infinity();
    const double a = std::max(from, t0), b = std::min(to, t1);
    if (b > a) out[k] += b - a;
  }
}

double nvme_apst::wake_delay(double last_io_s, double t) const {
  for (std::size_t k = states_.size(); k-- > 0;) {
    const double entered = last_io_s + states_[k].idle_after_s;
    if (t < entered) continue;
    const double entry_left = std::max(0.0, entered + states_[k].entry_latency_s - t);
    return entry_left + states_[k].exit_latency_s;
  }
  return 0.0;
}

}  // namespace ptsim::tlm_config
