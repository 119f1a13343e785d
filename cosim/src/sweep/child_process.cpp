#include "child_process.hpp"

#include <fcntl.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <filesystem>
#include <stdexcept>

extern char** environ;

namespace ptsim::cosim::sweep {

namespace {

constexpr std::size_t tail_keep = 8192;
constexpr std::size_t head_keep = 4096;

// Everything the child does between fork and exec: async-signal-safe calls only.
[[noreturn]] void exec_child(pid_t parent, int err_write, int devnull, int max_fd, char* const* argv,
                             char* const* envp, const char* exec_failed, std::size_t exec_failed_len) {
  // Die with the parent; if it is already gone, the signal would never come: stop now.
  prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (getppid() != parent) _exit(137);
  setpgid(0, 0);
  struct sigaction dfl {};
  dfl.sa_handler = SIG_DFL;
  sigemptyset(&dfl.sa_mask);
  for (int s : {SIGINT, SIGTERM, SIGHUP, SIGPIPE, SIGCHLD}) sigaction(s, &dfl, nullptr);
  sigset_t none;
  sigemptyset(&none);
  sigprocmask(SIG_SETMASK, &none, nullptr);
  if (dup2(devnull, 0) < 0 || dup2(devnull, 1) < 0 || dup2(err_write, 2) < 0) _exit(127);
  // Nothing else of the parent's (MPI sockets, files) reaches the run.
  if (syscall(SYS_close_range, 3u, ~0u, 0) != 0)
    for (int fd = 3; fd < max_fd; ++fd) close(fd);
  execve(argv[0], argv, envp);
  [[maybe_unused]] const auto n = write(2, exec_failed, exec_failed_len);
  _exit(127);
}

}  // namespace

child_process::child_process(const std::vector<std::string>& argv, const std::vector<std::string>& env) {
  if (argv.empty()) throw std::logic_error("child_process: empty argv");
  // Built before fork: the child may not allocate.
  std::vector<char*> av, ev;
  for (const auto& a : argv) av.push_back(const_cast<char*>(a.c_str()));
  av.push_back(nullptr);
  for (const auto& e : env) ev.push_back(const_cast<char*>(e.c_str()));
  ev.push_back(nullptr);
  const std::string exec_failed = "cannot execute " + argv[0] + "\n";
  struct rlimit rl {};
  int max_fd = 1024;
  if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY)
    max_fd = static_cast<int>(std::min<rlim_t>(rl.rlim_cur, 65536));

  int fds[2];
  if (pipe2(fds, O_CLOEXEC) != 0) throw std::runtime_error(std::string("cannot create a pipe: ") + std::strerror(errno));
  const int devnull = open("/dev/null", O_RDWR | O_CLOEXEC);
  if (devnull < 0) {
    close(fds[0]);
    close(fds[1]);
    throw std::runtime_error(std::string("cannot open /dev/null: ") + std::strerror(errno));
  }
  const pid_t parent = getpid();
  start_ = std::chrono::steady_clock::now();
  const pid_t pid = fork();
  if (pid == 0)
    exec_child(parent, fds[1], devnull, max_fd, av.data(), ev.data(), exec_failed.c_str(), exec_failed.size());
  const int fork_errno = errno;
  close(fds[1]);
  close(devnull);
  if (pid < 0) {
    close(fds[0]);
    throw std::runtime_error(std::string("cannot start a run process: ") + std::strerror(fork_errno));
  }
  // Also here, so that kill_group works even before the child got to its own setpgid.
  setpgid(pid, pid);
  pid_ = pid;
  err_fd_ = fds[0];
  fcntl(err_fd_, F_SETFL, fcntl(err_fd_, F_GETFL) | O_NONBLOCK);
}

child_process::~child_process() {
  if (!ended_ && pid_ > 0) {
    kill_group();
    int st = 0;
    while (waitpid(pid_, &st, 0) < 0 && errno == EINTR) {
    }
  }
  if (err_fd_ >= 0) close(err_fd_);
}

void child_process::read_stderr() {
  if (err_fd_ < 0) return;
  char buf[4096];
  for (;;) {
    const ssize_t n = read(err_fd_, buf, sizeof buf);
    if (n > 0) {
      if (head_.size() < head_keep)
        head_.append(buf, std::min(static_cast<std::size_t>(n), head_keep - head_.size()));
      tail_.append(buf, static_cast<std::size_t>(n));
      if (tail_.size() > 2 * tail_keep) tail_.erase(0, tail_.size() - tail_keep);
      continue;
    }
    if (n < 0 && errno == EINTR) continue;
    if (n == 0) {  // end of file: every writer has gone
      close(err_fd_);
      err_fd_ = -1;
    }
    return;
  }
}

bool child_process::poll_exit() {
  if (ended_) return true;
  int st = 0;
  pid_t r;
  do {
    r = waitpid(pid_, &st, WNOHANG);
  } while (r < 0 && errno == EINTR);
  if (r == pid_) {
    ended_ = true;
    status_ = st;
    end_ = std::chrono::steady_clock::now();
    read_stderr();
  }
  return ended_;
}

void child_process::kill_group() {
  if (pid_ <= 0 || ended_) return;
  if (kill(-pid_, SIGKILL) != 0) kill(pid_, SIGKILL);
}

double child_process::elapsed_s() const {
  const auto until = ended_ ? end_ : std::chrono::steady_clock::now();
  return std::chrono::duration<double>(until - start_).count();
}

std::vector<std::string> run_environment() {
  std::vector<std::string> env;
  for (char** e = environ; e && *e; ++e) {
    const std::string kv = *e;
    if (kv.rfind("OMPI_", 0) == 0 || kv.rfind("PMIX_", 0) == 0 || kv.rfind("PMI_", 0) == 0) continue;
    env.push_back(kv);
  }
  return env;
}

std::string self_executable() {
  std::error_code ec;
  const auto p = std::filesystem::read_symlink("/proc/self/exe", ec);
  return ec ? std::string("/proc/self/exe") : p.string();
}

namespace {
// A line as a terminal leaves it: a progress line redrawn with '\r' keeps only its last
// state; trimmed of blanks (empty if nothing else is left).
std::string shown_line(std::string line) {
  if (auto cr = line.find_last_of('\r'); cr != std::string::npos) line = line.substr(cr + 1);
  const auto a = line.find_first_not_of(" \t");
  if (a == std::string::npos) return "";
  return line.substr(a, line.find_last_not_of(" \t") - a + 1);
}
}  // namespace

std::string last_line(const std::string& text) {
  std::size_t end = text.size();
  while (end > 0) {
    const std::size_t start = text.rfind('\n', end - 1);
    const std::size_t from = start == std::string::npos ? 0 : start + 1;
    if (std::string line = shown_line(text.substr(from, end - from)); !line.empty()) return line;
    if (start == std::string::npos) break;
    end = start;
  }
  return "";
}

std::string first_line(const std::string& text) {
  std::size_t from = 0;
  while (from < text.size()) {
    std::size_t end = text.find('\n', from);
    // Only whole lines: a head cut in the middle of a line still gives that line's start.
    if (end == std::string::npos) end = text.size();
    if (std::string line = shown_line(text.substr(from, end - from)); !line.empty()) return line;
    from = end + 1;
  }
  return "";
}

std::string failure_text(const std::string& head, const std::string& tail) {
  const std::string first = first_line(head), last = last_line(tail);
  if (first.empty() || first == last) return last;
  if (last.empty()) return first;
  return first + " ... " + last;
}

std::string describe_status(int status) {
  if (WIFEXITED(status)) return "exited with status " + std::to_string(WEXITSTATUS(status));
  if (WIFSIGNALED(status)) {
    const int s = WTERMSIG(status);
    const char* name = strsignal(s);
    return "killed by signal " + std::to_string(s) + (name ? std::string(" (") + name + ")" : std::string());
  }
  return "ended with wait status " + std::to_string(status);
}

}  // namespace ptsim::cosim::sweep
