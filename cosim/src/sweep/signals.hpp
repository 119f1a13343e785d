#pragma once
// The sweep's signal handling: SIGINT, SIGTERM, SIGHUP, SIGQUIT and SIGPIPE ask it to stop; SIGCHLD says a
// run ended. Both only write a byte to a pipe, which the runner's poll() watches, so that
// nothing but a flag and a write happens inside a handler.
#include <csignal>

namespace ptsim::cosim::sweep {

class signal_watch {
 public:
  /// Installs the handlers (one signal_watch at a time); the destructor restores the old ones.
  signal_watch();
  ~signal_watch();
  signal_watch(const signal_watch&) = delete;
  signal_watch& operator=(const signal_watch&) = delete;

  /// Readable when a signal arrived; drain() empties it.
  int fd() const;
  void drain() const;
  /// The stop signal received (SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE), or 0.
  int stop_signal() const;
  /// Asks to stop as if a signal had come (MPI: rank 0 told this rank to stop).
  void request_stop(int signo) const;

 private:
  struct sigaction old_int_{}, old_term_{}, old_hup_{}, old_quit_{}, old_pipe_{}, old_chld_{};
};

}  // namespace ptsim::cosim::sweep
