#pragma once
// The platform as a graph, without elaborating anything: which component connects to
// which, what each unit can reach and through which first hop, with what latency; and
// the checks a platform and its workload must pass before a simulation starts. Plain
// C++: the scenario loader reports these problems with file positions, the platform
// builder uses the same graph for its address map.
#include <map>
#include <string>
#include <vector>

#include "ptsim/tlm_config/platform_config.hpp"

namespace ptsim::tlm_config {

/// Peak arithmetic per cycle of a unit for an operator (all cores), before efficiency.
/// Without native support for the operator's precision the next wider datapath is used
/// (int8/fp8 -> fp16/bf16 -> fp32), as compilers do by dequantising; a tensor operator the
/// tensor path cannot run at all falls back to the vector path; 0 when neither can.
double unit_peak_per_cycle(const compute_unit_config& u, const op& o);
/// Whether a tensor operator runs on the unit's tensor path at its precision (or a wider
/// one of the tensor table), rather than falling back to the vector units.
bool on_tensor_path(const compute_unit_config& u, const op& o);

/// A problem of a platform or its workload, located by what the scenario file calls it.
struct platform_problem {
  std::string component;  ///< component name, or "stream NAME" for workload problems
  int stage = -1;         ///< the stage of a stream's problem (-1: the stream as a whole)
  std::string key;        ///< the key at fault ("connect", "units", ...; "" for the whole entry)
  std::string message;
  std::string text() const;  ///< "component: message"
};

class topology {
 public:
  explicit topology(const platform_config& cfg);

  enum class role { none, unit, interconnect, target };
  role role_of(const std::string& name) const;
  const compute_unit_config* unit(const std::string& name) const;
  const interconnect_config* interconnect(const std::string& name) const;
  const memory_config* target(const std::string& name) const;

  /// A place a transaction can end: a target, or a terminal interconnect.
  struct reach_entry {
    double latency_s;  ///< sum of latencies from entering `from` to the end
    int port;          ///< `from`'s downstream port it goes through (-1: ends at `from`)
  };
  /// Everything reachable from an interconnect or target, by end name.
  const std::map<std::string, reach_entry>& reach(const std::string& from) const;
  /// A unit's first hops, in socket order: connect, then fabric, then io (no repeats).
  std::vector<std::string> first_hops(const std::string& unit) const;
  /// The DRAM a unit's `connect` path ends in ("" when none or several).
  std::string memory_of(const std::string& unit) const;
  /// The terminal a unit's `fabric` path ends in ("" when none or several).
  std::string fabric_of(const std::string& unit) const;

  /// Problems of the connection graph itself.
  const std::vector<platform_problem>& problems() const { return problems_; }

 private:
  void visit(const std::string& name, std::vector<std::string>& stack) const;
  const platform_config& cfg_;
  std::map<std::string, role> roles_;
  mutable std::map<std::string, std::map<std::string, reach_entry>> reach_;
  mutable std::vector<platform_problem> problems_;
};

/// Every problem of a platform and its workload's placement.
std::vector<platform_problem> check_platform(const platform_config& cfg, const workload_config& workload);

/// KV-cache bytes per rank an llm stream gets when it does not set kv_cache_bytes, split
/// over the ranks that share its first rank's memory. With `s.llm.kv_share_of_free` false:
/// kv_share of that memory's capacity less what its users keep resident (every rank's
/// weights and reserved_bytes, other stages' models); with it true: kv_share of the capacity
/// those residents leave free. Negative when they alone do not fit.
double default_kv_cache_bytes(const platform_config& cfg, const workload_config& workload, const stream_config& s);

/// Weights (and training state) each unit keeps resident for the workload, by unit.
std::map<std::string, double> resident_bytes(const workload_config& workload);

}  // namespace ptsim::tlm_config
