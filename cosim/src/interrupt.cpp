#include "ptsim/cosim/interrupt.hpp"

#include <csignal>

namespace ptsim::cosim {
namespace {
volatile std::sig_atomic_t stop_signal = 0;
extern "C" void on_signal(int sig) { stop_signal = sig; }
}  // namespace

void install_interrupt_handlers() {
  struct sigaction sa {};
  sa.sa_handler = on_signal;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGINT, &sa, nullptr);
  sigaction(SIGTERM, &sa, nullptr);
}

int interrupt_signal() { return stop_signal; }

}  // namespace ptsim::cosim
