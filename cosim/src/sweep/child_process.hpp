#pragma once
// One run's process. It dies with the sweep (PR_SET_PDEATHSIG, so even a SIGKILLed sweep
// leaves nothing running), lives in its own process group (a timeout or Ctrl-C kills all
// of it, and a terminal's Ctrl-C reaches only the sweep, which decides), reads /dev/null,
// writes stdout to /dev/null, and its stderr is kept: the last line is the run's error.
#include <sys/types.h>

#include <chrono>
#include <string>
#include <vector>

namespace ptsim::cosim::sweep {

class child_process {
 public:
  /// Starts argv[0] with `argv` and the environment `env` ("KEY=VALUE" each).
  /// Throws std::runtime_error when the process cannot be created.
  child_process(const std::vector<std::string>& argv, const std::vector<std::string>& env);
  /// Kills the group and reaps the process if it is still running.
  ~child_process();
  child_process(const child_process&) = delete;
  child_process& operator=(const child_process&) = delete;

  pid_t pid() const { return pid_; }
  /// Read end of the child's stderr; -1 once it reached end of file.
  int stderr_fd() const { return err_fd_; }
  /// Reads what stderr has now without blocking, keeping the last few KiB.
  void read_stderr();
  /// Reaps the process if it has ended, without blocking. True once it has ended.
  bool poll_exit();
  bool ended() const { return ended_; }
  /// waitpid's status, once ended.
  int status() const { return status_; }
  /// SIGKILL to the child's whole process group.
  void kill_group();
  /// The end of what the child wrote to stderr.
  const std::string& stderr_tail() const { return tail_; }
  /// The start of what the child wrote to stderr (its first lines, kept however much follows).
  const std::string& stderr_head() const { return head_; }
  /// Seconds since the start (until the end once ended).
  double elapsed_s() const;

 private:
  pid_t pid_ = -1;
  int err_fd_ = -1;
  bool ended_ = false;
  int status_ = 0;
  std::string tail_, head_;
  std::chrono::steady_clock::time_point start_, end_;
};

/// This process's environment without the MPI launcher's variables (OMPI_*, PMIX_*, PMI_*),
/// so that a run never tries to join the MPI job.
std::vector<std::string> run_environment();

/// The running executable (/proc/self/exe, resolved), so runs use this very ptsim.
std::string self_executable();

/// The last line of `text` that is not blank, trimmed; "" when there is none.
std::string last_line(const std::string& text);

/// The first line of `text` that is not blank, trimmed; "" when there is none.
std::string first_line(const std::string& text);

/// What a failed run said: its first and its last message line ("FIRST ... LAST"), or the
/// one line when they are the same; the first is often the cause (std::bad_alloc), the last
/// how the run ended.
std::string failure_text(const std::string& head, const std::string& tail);

/// "exited with status 3", "killed by signal 9 (Killed)", from a waitpid status.
std::string describe_status(int status);

}  // namespace ptsim::cosim::sweep
