// bench_systemc: TLM-2.0 transactions per wall second, raw vs through ptsim's models.
//
// One elaboration, one sc_start. The same loosely-timed initiator (b_transport of 256 KiB
// tiles, tlm_quantumkeeper with the default 50 us quantum, as compute_unit does) runs two
// phases one after the other, each timed with std::chrono:
//   raw:   initiator -> trivial target (returns a fixed 6.4 us delay): the kernel's limit;
//   ptsim: initiator -> tlm_models::interconnect (128 GB/s) -> tlm_models::memory (51.2 GB/s x 0.8),
//          both booking bandwidth calendars, so a tile also takes 6.4 us.
// Usage: bench_systemc [TRANSACTIONS_PER_PHASE]   (default 2000000)
#include <chrono>
#include <ctime>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>
#include <tlm_utils/tlm_quantumkeeper.h>

#include "ptsim/tlm_models/interconnect.hpp"
#include "ptsim/tlm_models/memory.hpp"

namespace {

constexpr unsigned tile_bytes = 256 * 1024;
constexpr double tile_s = tile_bytes / 40.96e9;  // 6.4 us, the memory's effective rate

struct trivial_target : sc_core::sc_module {
  tlm_utils::simple_target_socket<trivial_target> socket{"socket"};
  explicit trivial_target(sc_core::sc_module_name n) : sc_module(n) {
    socket.register_b_transport(this, &trivial_target::b_transport);
  }
  void b_transport(tlm::tlm_generic_payload& t, sc_core::sc_time& delay) {
    delay += sc_core::sc_time(tile_s, sc_core::SC_SEC);
    t.set_response_status(tlm::TLM_OK_RESPONSE);
  }
};

struct phase_result {
  double wall_s = 0, cpu_s = 0, sim_s = 0;
};

// Process CPU time: SystemC's processes are coroutines on the one OS thread, so this is
// this phase's CPU time, unaffected by other load on the machine.
double cpu_now_s() { return static_cast<double>(std::clock()) / CLOCKS_PER_SEC; }

// Loops `count` tile reads once `go` fires (immediately when go is null), then fires `done`.
struct looping_initiator : sc_core::sc_module {
  tlm_utils::simple_initiator_socket<looping_initiator> socket{"socket"};
  SC_HAS_PROCESS(looping_initiator);
  looping_initiator(sc_core::sc_module_name n, long count, sc_core::sc_event* go)
      : sc_module(n), count_(count), go_(go) {
    SC_THREAD(run);
  }
  sc_core::sc_event done;
  phase_result result;

 private:
  void run() {
    if (go_) wait(*go_);
    tlm_utils::tlm_quantumkeeper qk;
    qk.reset();
    tlm::tlm_generic_payload t;
    t.set_command(tlm::TLM_READ_COMMAND);
    t.set_data_ptr(&byte_);  // timing-only targets: the length matters, not the data
    t.set_data_length(tile_bytes);
    t.set_streaming_width(tile_bytes);
    const double sim0 = sc_core::sc_time_stamp().to_seconds();
    const auto t0 = std::chrono::steady_clock::now();
    const double c0 = cpu_now_s();
    std::uint64_t addr = 0;
    for (long i = 0; i < count_; ++i) {
      t.set_address(addr);
      addr += tile_bytes;
      t.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
      sc_core::sc_time delay = qk.get_local_time();
      socket->b_transport(t, delay);
      if (t.is_response_error()) SC_REPORT_FATAL("bench_systemc", "transaction failed");
      qk.set(delay);
      if (qk.need_sync()) qk.sync();
    }
    qk.sync();
    result.cpu_s = cpu_now_s() - c0;
    result.wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    result.sim_s = sc_core::sc_time_stamp().to_seconds() - sim0;
    done.notify();
  }
  long count_;
  sc_core::sc_event* go_;
  unsigned char byte_ = 0;
};

}  // namespace

// libsystemc's own main() refers to sc_main; this program has its own main().
int sc_main(int, char**) { return 2; }

int main(int argc, char** argv) {
  setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 1);
  const long n = argc > 1 ? std::atol(argv[1]) : 2000000;
  if (n <= 0) {
    std::fprintf(stderr, "usage: bench_systemc [TRANSACTIONS_PER_PHASE > 0]\n");
    return 2;
  }
  tlm::tlm_global_quantum::instance().set(sc_core::sc_time(50, sc_core::SC_US));

  looping_initiator raw_init("raw_initiator", n, nullptr);
  trivial_target raw_target("raw_target");
  raw_init.socket.bind(raw_target.socket);

  ptsim::tlm_config::interconnect_config ic;
  ic.name = "noc";
  ic.bandwidth_Bps = 128e9;
  ic.latency = ptsim::units::seconds(20e-9);
  ptsim::tlm_config::memory_config mc;
  mc.name = "lpddr";
  mc.bandwidth_Bps = 51.2e9;
  mc.efficiency = 0.8;
  mc.latency = ptsim::units::seconds(110e-9);
  looping_initiator model_init("model_initiator", n, &raw_init.done);
  ptsim::tlm_models::interconnect noc("noc", ic, 1e-3);
  ptsim::tlm_models::memory mem("lpddr", mc, 1e-3);
  model_init.socket.bind(noc.target);
  noc.initiator.bind(mem.socket);
  // The address map: every address below 1 << target_address_shift is target 0, the
  // memory, through the NoC's port 0 (the platform builder sets this up from the graph).
  noc.add_route(0, 0, mc.latency.value());

  sc_core::sc_start();

  const phase_result& a = raw_init.result;
  const phase_result& b = model_init.result;
  std::printf("transactions per phase: %ld (256 KiB tiles, 50 us quantum)\n", n);
  std::printf("%-34s %12s %12s %10s %14s\n", "path", "trans/CPU s", "trans/wall s", "CPU ns/tr", "sim s/CPU s");
  auto row = [&](const char* what, const phase_result& r) {
    std::printf("%-34s %12.3e %12.3e %10.1f %14.1f\n", what, n / r.cpu_s, n / r.wall_s, 1e9 * r.cpu_s / n,
                r.sim_s / r.cpu_s);
  };
  row("raw b_transport (trivial target)", a);
  row("ptsim interconnect + memory", b);
  std::printf("ratio ptsim / raw, CPU time per transaction: %.2fx (wall: %.2fx)\n", b.cpu_s / a.cpu_s,
              b.wall_s / a.wall_s);
  return 0;
}
