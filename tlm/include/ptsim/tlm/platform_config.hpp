#pragma once
// Resolved platform and workload descriptions (no SystemC here: plain data that the
// scenario loader fills and the platform builder elaborates).
#include <map>
#include <string>
#include <vector>

#include "ptsim/tlm/op.hpp"
#include "ptsim/units/quantities.hpp"

namespace ptsim::tlm {

struct compute_unit_config {
  std::string name;
  std::string kind;     ///< "cpu_cluster", "npu"
  std::string domain;   ///< DVFS domain clocking it
  std::string connect;  ///< interconnect carrying its memory traffic
  int cores = 1;
  std::map<precision, double> ops_per_cycle;  ///< per core
  double efficiency = 0.7;         ///< share of peak for tensor operators
  double vector_efficiency = 0.25; ///< share of peak for vector/scalar operators
  units::seconds_t launch_overhead = units::seconds(5e-6);
  double tile_bytes = 256 * 1024;
};

struct interconnect_config {
  std::string name;
  std::string kind;  ///< "noc"
  std::string connect;
  double bandwidth_Bps = 0;
  units::seconds_t latency = units::seconds(30e-9);
};

struct memory_config {
  std::string name;
  std::string kind;  ///< "lpddr"
  double bandwidth_Bps = 0;  ///< peak
  double efficiency = 0.8;   ///< reachable share of peak
  units::seconds_t latency = units::seconds(100e-9);
  double capacity_B = 0;
};

struct platform_config {
  units::seconds_t quantum = units::seconds(50e-6);
  std::vector<compute_unit_config> units;
  std::vector<interconnect_config> interconnects;
  std::vector<memory_config> memories;
};

enum class arrival_kind { fixed_rate, poisson };

struct stage_config {
  std::string unit;
  op_graph graph;
};

struct stream_config {
  std::string name;
  arrival_kind arrival = arrival_kind::fixed_rate;
  units::hertz_t rate = units::hertz(30.0);
  units::seconds_t start = units::seconds(0.0);
  std::vector<stage_config> stages;
  int queue_limit = 64;
};

struct workload_config {
  std::vector<stream_config> streams;
};

}  // namespace ptsim::tlm
