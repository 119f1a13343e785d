#pragma once
// Elaborates a platform from its description: domain clocks, compute units,
// interconnects and targets (memories, storage, NICs), sockets bound by name, an
// address map routing every unit to what it can reach, and the workload engine.
// The graph is checked before simulation starts.
#include <map>
#include <memory>
#include <string>
#include <systemc>
#include <vector>

#include "ptsim/tlm_models/compute_unit.hpp"
#include "ptsim/tlm_models/domain_clock.hpp"
#include "ptsim/tlm_models/interconnect.hpp"
#include "ptsim/tlm_models/memory.hpp"
#include "ptsim/tlm_config/platform_config.hpp"
#include "ptsim/tlm_config/topology.hpp"
#include "ptsim/tlm_models/workload_engine.hpp"

namespace ptsim::tlm_models {
// The models speak the vocabulary of the descriptions they run (ptsim/tlm_config).
using namespace tlm_config;

struct operating_point {
  double hz, volts;
};

class platform {
 public:
  /// `initial` gives each domain's starting point. Throws std::invalid_argument for a
  /// connection to nothing, a link bound twice, a component nothing connects to, a
  /// cycle, a stage on a unit without its precision or its targets, or a model that does
  /// not fit in its unit's memory.
  platform(const platform_config& cfg, const workload_config& workload,
           const std::map<std::string, operating_point>& initial, double control_period_s, std::uint64_t seed);
  ~platform();

  domain_clock& clock(const std::string& domain) { return *clocks_.at(domain); }
  const std::vector<std::unique_ptr<compute_unit>>& units() const { return units_; }
  const std::vector<std::unique_ptr<interconnect>>& interconnects() const { return interconnects_; }
  const std::vector<std::unique_ptr<memory>>& memories() const { return memories_; }
  workload_engine& workload() { return *engine_; }
  /// The workload as run (with KV-cache sizes filled in).
  const workload_config& workload_config_used() const { return workload_; }
  /// Transactions that reached a target (memories, storage, NICs, terminal fabrics).
  std::uint64_t transactions() const;

 private:
  struct wiring;
  // Elaboration, in order.
  void make_targets_and_interconnects(const platform_config& cfg, double control_period_s, wiring& w);
  void make_unit(const compute_unit_config& u, double control_period_s, wiring& w);

  std::map<std::string, std::unique_ptr<domain_clock>> clocks_;
  std::vector<std::unique_ptr<memory>> memories_;
  std::vector<std::unique_ptr<interconnect>> interconnects_;
  std::vector<std::unique_ptr<compute_unit>> units_;
  workload_config workload_;
  std::unique_ptr<workload_engine> engine_;
};

}  // namespace ptsim::tlm_models
