#include "ptsim/cosim/interrupt.hpp"

#include <csignal>
#include <initializer_list>
#include <string>

#include "ptsim/cosim/run.hpp"

namespace ptsim::cosim {
namespace {
volatile std::sig_atomic_t stop_signal = 0;
extern "C" void on_signal(int sig) { stop_signal = sig; }
}  // namespace

void install_interrupt_handlers() {
  struct sigaction sa {};
  sa.sa_handler = on_signal;
  sigemptyset(&sa.sa_mask);
  // Every signal that would end the process without unwinding, so that the .part goes too.
  // SIGHUP or SIGPIPE ignored when the program started (nohup) stays ignored; SIGINT is
  // caught even so (a shell starts background jobs with it ignored; `kill -INT` stops them).
  for (int sig : {SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE}) {
    struct sigaction old {};
    if ((sig == SIGHUP || sig == SIGPIPE) && sigaction(sig, nullptr, &old) == 0 && old.sa_handler == SIG_IGN)
      continue;
    sigaction(sig, &sa, nullptr);
  }
}

int interrupt_signal() { return stop_signal; }

void stop_if_interrupted() {
  if (const int sig = interrupt_signal()) throw simulation_error("interrupted by signal " + std::to_string(sig));
}

}  // namespace ptsim::cosim
