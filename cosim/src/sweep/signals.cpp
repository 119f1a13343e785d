#include "signals.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <stdexcept>
#include <string>

namespace ptsim::cosim::sweep {

namespace {

int pipe_fds[2] = {-1, -1};
volatile std::sig_atomic_t stop_signo = 0;

void wake() {
  const int saved = errno;
  const char byte = 1;
  // A full pipe already means "wake up": the lost byte does not matter.
  [[maybe_unused]] const auto n = write(pipe_fds[1], &byte, 1);
  errno = saved;
}

extern "C" void on_stop(int signo) {
  if (stop_signo == 0) stop_signo = signo;
  wake();
}

extern "C" void on_child(int) { wake(); }

void install(int signo, void (*handler)(int), int flags, struct sigaction* old) {
  // SIGHUP or SIGPIPE ignored when the sweep started (nohup) stays ignored.
  if ((signo == SIGHUP || signo == SIGPIPE) && sigaction(signo, nullptr, old) == 0 && old->sa_handler == SIG_IGN)
    return;
  struct sigaction sa {};
  sa.sa_handler = handler;
  sigemptyset(&sa.sa_mask);
  sa.sa_flags = flags;
  if (sigaction(signo, &sa, old) != 0) throw std::runtime_error("cannot install a signal handler");
}

}  // namespace

signal_watch::signal_watch() {
  if (pipe2(pipe_fds, O_CLOEXEC | O_NONBLOCK) != 0) throw std::runtime_error("cannot create a pipe");
  stop_signo = 0;
  install(SIGINT, on_stop, 0, &old_int_);
  install(SIGTERM, on_stop, 0, &old_term_);
  install(SIGHUP, on_stop, 0, &old_hup_);
  install(SIGQUIT, on_stop, 0, &old_quit_);
  install(SIGPIPE, on_stop, 0, &old_pipe_);
  install(SIGCHLD, on_child, SA_NOCLDSTOP | SA_RESTART, &old_chld_);
}

signal_watch::~signal_watch() {
  sigaction(SIGINT, &old_int_, nullptr);
  sigaction(SIGTERM, &old_term_, nullptr);
  sigaction(SIGHUP, &old_hup_, nullptr);
  sigaction(SIGQUIT, &old_quit_, nullptr);
  sigaction(SIGPIPE, &old_pipe_, nullptr);
  sigaction(SIGCHLD, &old_chld_, nullptr);
  close(pipe_fds[0]);
  close(pipe_fds[1]);
  pipe_fds[0] = pipe_fds[1] = -1;
}

int signal_watch::fd() const { return pipe_fds[0]; }

void signal_watch::drain() const {
  char buf[64];
  while (read(pipe_fds[0], buf, sizeof buf) > 0) {
  }
}

int signal_watch::stop_signal() const { return stop_signo; }

void signal_watch::request_stop(int signo) const {
  if (stop_signo == 0) stop_signo = signo;
  wake();
}

}  // namespace ptsim::cosim::sweep
