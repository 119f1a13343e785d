#include "run_pool.hpp"

#include <poll.h>
#include <sys/wait.h>

#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <memory>

#include "child_process.hpp"
#include "ptsim/postproc/output_file.hpp"

namespace ptsim::cosim::sweep {

namespace {

using clock = std::chrono::steady_clock;

struct running_run {
  launch_plan plan;
  std::size_t index = 0;
  std::unique_ptr<child_process> child;
  clock::time_point deadline = clock::time_point::max();
  bool timed_out = false;
};

std::string why_failed(const running_run& r, double timeout_s) {
  if (r.timed_out) return "timeout after " + seconds_text(timeout_s);
  const int st = r.child->status();
  const std::string said = failure_text(r.child->stderr_head(), r.child->stderr_tail());
  if (WIFEXITED(st)) return said.empty() ? "the run " + describe_status(st) + " without a message" : said;
  return "the run was " + describe_status(st) + (said.empty() ? "" : "; its last message: " + said);
}

}  // namespace

std::string seconds_text(double s) {
  char buf[32];
  if (s >= 120 && std::fmod(s, 60) == 0) std::snprintf(buf, sizeof buf, "%g min", s / 60);
  else std::snprintf(buf, sizeof buf, "%g s", s);
  return buf;
}

run_pool::run_pool(pool_options opts, std::function<launch_plan(std::size_t)> plan,
                   std::function<void(const launch_plan&, const run_result&)> done, const signal_watch& signals,
                   sweep_progress* progress)
    : opts_(std::move(opts)), plan_(std::move(plan)), done_(std::move(done)), signals_(signals), progress_(progress) {
  if (opts_.jobs == 0) opts_.jobs = 1;
}

namespace {

using done_fn = std::function<void(const launch_plan&, const run_result&)>;

// A run that ended on its own (or by its timeout): its result, handed on.
void finish(running_run& r, double timeout_s, const done_fn& done, work_source& src) {
  run_result res;
  res.index = r.index;
  res.wall_s = r.child->elapsed_s();
  std::error_code ec;
  const int st = r.child->status();
  const bool exited_ok = WIFEXITED(st) && WEXITSTATUS(st) == 0;
  res.ok = !r.timed_out && exited_ok && std::filesystem::exists(r.plan.result, ec);
  if (!res.ok) {
    res.error = r.timed_out || !exited_ok ? why_failed(r, timeout_s)
                                          : "the run ended without writing its result " + r.plan.result.string();
    postproc::remove_stale_part(r.plan.part);  // never another writer's (a run refused as busy)
  }
  done(r.plan, res);
  src.finished(res);
}

// Starts run `index`; a run that cannot start fails at once, without a process.
void start(std::size_t index, launch_plan plan, const pool_options& opts, const done_fn& done, work_source& src,
           std::vector<running_run>& running) {
  if (plan.argv.empty()) {  // invalid before it started
    run_result res{index, false, plan.error, 0.0};
    done(plan, res);
    src.finished(res);
    return;
  }
  running_run r;
  r.index = index;
  try {
    r.child = std::make_unique<child_process>(plan.argv, opts.env);
  } catch (const std::exception& e) {
    run_result res{index, false, e.what(), 0.0};
    done(plan, res);
    src.finished(res);
    return;
  }
  // A timeout beyond what the clock can add (inf, 1e300 s) is no timeout: never a deadline
  // that wraps into the past.
  const double room_s = std::chrono::duration<double>(clock::time_point::max() - clock::now()).count();
  if (opts.timeout_s > 0 && opts.timeout_s < 0.5 * room_s)
    r.deadline = clock::now() + std::chrono::duration_cast<clock::duration>(std::chrono::duration<double>(opts.timeout_s));
  r.plan = std::move(plan);
  running.push_back(std::move(r));
}

// Sleeps until a child writes or ends, a signal comes, a deadline passes, or it is time to
// service the source (limit_ms) or redraw; at most a second, as a guard against a lost wake-up.
void wait_for_activity(const std::vector<running_run>& running, const signal_watch& signals, int limit_ms,
                       const sweep_progress* progress) {
  const auto now = clock::now();
  long wait_ms = 1000;
  if (limit_ms >= 0) wait_ms = std::min<long>(wait_ms, limit_ms);
  if (progress && progress->tick_ms() >= 0) wait_ms = std::min<long>(wait_ms, progress->tick_ms());
  for (const auto& r : running)
    if (!r.timed_out && r.deadline != clock::time_point::max())
      wait_ms = std::min<long>(
          wait_ms, std::max<long>(0, std::chrono::ceil<std::chrono::milliseconds>(r.deadline - now).count()));
  std::vector<pollfd> fds;
  fds.push_back({signals.fd(), POLLIN, 0});
  for (const auto& r : running)
    if (r.child->stderr_fd() >= 0) fds.push_back({r.child->stderr_fd(), POLLIN, 0});
  if (poll(fds.data(), fds.size(), static_cast<int>(wait_ms)) < 0 && errno != EINTR) {
    std::perror("ptsim sweep: poll");
    signals.request_stop(SIGTERM);
  }
  signals.drain();
}

}  // namespace

bool run_pool::run(work_source& src) {
  std::vector<running_run> running;
  bool stopping = false;
  for (;;) {
    src.service();
    if (signals_.stop_signal() != 0 && !stopping) {
      stopping = true;
      src.stop();
      for (auto& r : running) r.child->kill_group();
    }
    while (!stopping && running.size() < opts_.jobs) {
      const auto index = src.take();
      if (!index) break;
      start(*index, plan_(*index), opts_, done_, src, running);
    }
    if (running.empty() && (stopping || src.exhausted())) break;
    if (progress_) progress_->tick(running.size());
    // Asked after take(), which may just have sent a request whose reply must be awaited.
    wait_for_activity(running, signals_, src.service(), progress_);

    for (auto& r : running) {
      r.child->read_stderr();
      if (!r.timed_out && clock::now() >= r.deadline) {
        r.timed_out = true;
        r.child->kill_group();
      }
      r.child->poll_exit();
    }
    for (std::size_t i = 0; i < running.size();) {
      if (!running[i].child->ended()) {
        ++i;
        continue;
      }
      const int st = running[i].child->status();
      if (stopping && !(WIFEXITED(st) && WEXITSTATUS(st) == 0))  // killed by us: not a result; redone later
        postproc::remove_stale_part(running[i].plan.part);
      else
        finish(running[i], opts_.timeout_s, done_, src);
      running.erase(running.begin() + static_cast<std::ptrdiff_t>(i));
    }
  }
  if (progress_) progress_->tick(0);
  return !stopping;
}

}  // namespace ptsim::cosim::sweep
