#pragma once
// Elaborates a platform from its description: domain clocks, compute units,
// interconnects and memories, sockets bound by name, and the workload engine.
// The socket graph is checked before simulation starts.
#include <map>
#include <memory>
#include <string>
#include <systemc>
#include <vector>

#include "ptsim/tlm/compute_unit.hpp"
#include "ptsim/tlm/domain_clock.hpp"
#include "ptsim/tlm/interconnect.hpp"
#include "ptsim/tlm/memory.hpp"
#include "ptsim/tlm/platform_config.hpp"
#include "ptsim/tlm/workload_engine.hpp"

namespace ptsim::tlm {

struct operating_point {
  double hz, volts;
};

class platform {
 public:
  /// `initial` gives each domain's starting point. Throws std::invalid_argument for a
  /// dangling or unknown connection, or a stage on a unit without its precision.
  platform(const platform_config& cfg, const workload_config& workload,
           const std::map<std::string, operating_point>& initial, double control_period_s, std::uint64_t seed);
  ~platform();

  domain_clock& clock(const std::string& domain) { return *clocks_.at(domain); }
  const std::vector<std::unique_ptr<compute_unit>>& units() const { return units_; }
  const std::vector<std::unique_ptr<interconnect>>& interconnects() const { return interconnects_; }
  const std::vector<std::unique_ptr<memory>>& memories() const { return memories_; }
  workload_engine& workload() { return *engine_; }
  std::uint64_t transactions() const;

 private:
  std::map<std::string, std::unique_ptr<domain_clock>> clocks_;
  std::vector<std::unique_ptr<memory>> memories_;
  std::vector<std::unique_ptr<interconnect>> interconnects_;
  std::vector<std::unique_ptr<compute_unit>> units_;
  std::unique_ptr<workload_engine> engine_;
};

}  // namespace ptsim::tlm
