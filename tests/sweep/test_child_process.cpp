// A run's process: what it inherits (no MPI launcher variables), what it leaves (the last
// line of stderr; how it ended), and that killing its group kills all of it.
#include <doctest/doctest.h>
#include <signal.h>
#include <sys/wait.h>

#include <chrono>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <string>
#include <thread>

#include "child_process.hpp"

namespace sw = ptsim::cosim::sweep;

namespace {
// Runs the child to its end, reading its stderr as the runner does.
void finish(sw::child_process& c) {
  while (!c.poll_exit()) {
    c.read_stderr();
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
}
}  // namespace

TEST_CASE("runs never see the MPI launcher's variables") {
  setenv("OMPI_COMM_WORLD_SIZE", "2", 1);
  setenv("PMIX_RANK", "1", 1);
  setenv("PTSIM_TEST_KEPT", "yes", 1);
  sw::child_process c({"/bin/sh", "-c", "env >&2; echo 'last words' >&2; exit 3"}, sw::run_environment());
  finish(c);
  const std::string err = c.stderr_tail();
  CHECK(err.find("OMPI_COMM_WORLD_SIZE") == std::string::npos);
  CHECK(err.find("PMIX_RANK") == std::string::npos);
  CHECK(err.find("PTSIM_TEST_KEPT=yes") != std::string::npos);
  CHECK(sw::last_line(err) == "last words");
  CHECK(WIFEXITED(c.status()));
  CHECK(sw::describe_status(c.status()) == "exited with status 3");
  unsetenv("OMPI_COMM_WORLD_SIZE");
  unsetenv("PMIX_RANK");
}

TEST_CASE("killing a run kills its whole process group") {
  sw::child_process c({"/bin/sh", "-c", "sleep 30 & echo $! >&2; wait"}, sw::run_environment());
  // Wait for the grandchild's pid.
  pid_t grandchild = 0;
  // Until the shell has printed it (or died): no cap that a loaded machine could hit;
  // ctest's timeout ends a hang.
  while (grandchild == 0 && !c.poll_exit()) {
    c.read_stderr();
    grandchild = static_cast<pid_t>(std::atol(sw::last_line(c.stderr_tail()).c_str()));
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  REQUIRE(grandchild > 0);
  c.kill_group();
  finish(c);
  CHECK(sw::describe_status(c.status()).rfind("killed by signal 9", 0) == 0);
  // Dead, or a zombie waiting for an init that may never reap it (in a container).
  auto dead = [grandchild] {
    std::ifstream stat("/proc/" + std::to_string(grandchild) + "/stat");
    std::string text((std::istreambuf_iterator<char>(stat)), std::istreambuf_iterator<char>());
    const auto paren = text.rfind(')');
    return text.empty() || (paren != std::string::npos && paren + 2 < text.size() && text[paren + 2] == 'Z');
  };
  bool gone = false;
  while (!gone) {
    gone = dead();
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  CHECK(gone);
}

TEST_CASE("the last line of stderr: not blank, trimmed, the final state of a redrawn line") {
  CHECK(sw::last_line("a\nb\n\n  \n") == "b");
  CHECK(sw::last_line("  spaced  ") == "spaced");
  CHECK(sw::last_line("progress 10%\rprogress 90%\rdone\n") == "done");
  CHECK(sw::last_line("") == "");
  CHECK(sw::last_line("\n\n") == "");
}

TEST_CASE("a program that cannot be started fails with a message") {
  sw::child_process c({"/nonexistent/ptsim"}, sw::run_environment());
  finish(c);
  CHECK(sw::describe_status(c.status()) == "exited with status 127");
  CHECK(sw::last_line(c.stderr_tail()) == "cannot execute /nonexistent/ptsim");
}

TEST_CASE("a failure keeps its first line and its last, however much the run wrote between them") {
  CHECK(sw::failure_text("std::bad_alloc\nmore\n", "more\nptsim run: failed\n") == "std::bad_alloc ... ptsim run: failed");
  CHECK(sw::failure_text("only\n", "only\n") == "only");
  CHECK(sw::failure_text("", "") == "");
  CHECK(sw::first_line("\n  \n  first  \nsecond") == "first");
  // A real process: the first line survives 100 KiB of output after it (the tail is 8 KiB).
  sw::child_process c({"/bin/sh", "-c",
                       "echo 'the cause: std::bad_alloc' >&2; i=0; while [ $i -lt 2000 ]; do "
                       "echo 'noise noise noise noise noise noise noise noise noise' >&2; i=$((i+1)); done; "
                       "echo 'the end' >&2; exit 1"},
                      sw::run_environment());
  finish(c);
  CHECK(sw::failure_text(c.stderr_head(), c.stderr_tail()) == "the cause: std::bad_alloc ... the end");
}
