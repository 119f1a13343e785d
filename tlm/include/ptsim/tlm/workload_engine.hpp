#pragma once
// Request streams: arrivals (fixed rate or Poisson), a bounded queue per stream, and
// each request's stages run in order on their units. One row per finished request.
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <systemc>
#include <vector>

#include "ptsim/tlm/compute_unit.hpp"
#include "ptsim/tlm/platform_config.hpp"

namespace ptsim::tlm {

struct request_record {
  std::int64_t id;
  std::string stream;
  std::string unit;  ///< unit of the longest stage
  double arrival_s, start_s, finish_s;
};

class workload_engine : public sc_core::sc_module {
 public:
  workload_engine(sc_core::sc_module_name name, const workload_config& cfg,
                  const std::map<std::string, compute_unit*>& units, std::uint64_t seed);

  const std::vector<request_record>& finished() const { return finished_; }
  std::uint64_t dropped() const { return dropped_; }
  std::uint64_t arrived() const { return arrived_; }
  /// Called once per dropped request (queue full), with its stream and time.
  std::function<void(const std::string&, double)> on_drop;

 private:
  struct stream_state {
    const stream_config* cfg;
    std::mt19937_64 rng;
    int in_flight = 0;
  };
  void source(stream_state& s);
  void serve(stream_state& s, std::int64_t id, double arrival);
  double next_gap(stream_state& s);

  const workload_config& cfg_;
  std::map<std::string, compute_unit*> units_;
  std::vector<std::unique_ptr<stream_state>> streams_;
  std::vector<request_record> finished_;
  std::int64_t next_id_ = 0;
  std::uint64_t dropped_ = 0, arrived_ = 0;
};

}  // namespace ptsim::tlm
